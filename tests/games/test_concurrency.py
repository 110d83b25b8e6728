"""Moves sent at the same time to one game: none lost, duplicated or reordered.

Runs on PostgreSQL only, where ``SELECT ... FOR UPDATE`` really serializes the
requests: 20 threads, each with its own database connection, post moves to
the same game through the API.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from games.engine import Game as EngineGame
from games.engine import RuleSet
from games.models import Event, Game
from games.verification import game_verify
from tests.factories import GameFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 20
DEADLINE_SECONDS = 60


def _no_throttles():
    from django.conf import settings

    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}}
    )


def _in_threads(work: Callable[[int], Any], count: int = THREADS) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; re-raise the first error."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except BaseException as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DEADLINE_SECONDS + 30)
    assert not any(thread.is_alive() for thread in threads), "a thread did not finish"
    if errors:
        raise errors[0]
    return results


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _body(step: int, move: tuple[int, int, int, int]) -> dict:
    return {"step": step, "from": [move[0], move[1]], "to": [move[2], move[3]]}


def _planned_moves(game: Game, count: int) -> list[tuple[int, int, int, int]]:
    """The first legal move at every step, as the engine would play them from the seed."""
    assert game.seed is not None
    engine = EngineGame(RuleSet(size=game.size), game.seed, record=False)
    moves: list[tuple[int, int, int, int]] = []
    while len(moves) < count and not engine.over:
        move = next(engine.legal_moves())
        engine.move(*move)
        moves.append(move)
    return moves


def _assert_record_is_exact(game: Game, moves: list[tuple[int, int, int, int]]) -> None:
    game.refresh_from_db()
    assert game.moves_count == len(moves)
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.next_seq))
    stored = [
        (e.index, (e.from_row, e.from_col, e.to_row, e.to_col))
        for e in Event.objects.filter(game=game, kind="move").order_by("seq")
    ]
    assert stored == [(i + 1, move) for i, move in enumerate(moves)]
    check = game_verify(game=game)
    assert check.ok, check.problems


def test_the_same_move_sent_by_20_threads_is_played_once(db):
    game = GameFactory(size=7)
    move = _planned_moves(game, 1)[0]
    token = game.player.token

    def send(_: int) -> tuple[int, bool]:
        response = _client(token).post(
            f"/api/v1/games/{game.pk}/moves/", _body(0, move), format="json"
        )
        return response.status_code, response.json()["replayed"]

    with _no_throttles():
        results = _in_threads(send)
    assert sorted(results) == [(200, True)] * (THREADS - 1) + [(201, False)]
    _assert_record_is_exact(game, [move])


def test_different_moves_at_the_same_step_let_exactly_one_through(db):
    game = GameFactory(size=7)
    engine = EngineGame.from_state(game.state, record=False)
    candidates = list(engine.legal_moves())[:4]
    token = game.player.token

    def send(index: int) -> tuple[int, str, tuple]:
        move = candidates[index % len(candidates)]
        response = _client(token).post(
            f"/api/v1/games/{game.pk}/moves/", _body(0, move), format="json"
        )
        code = response.json().get("error", {}).get("code", "")
        return response.status_code, code, move

    with _no_throttles():
        results = _in_threads(send)
    played = [move for status, _, move in results if status == 201]
    assert len(played) == 1
    for status, code, move in results:
        if status == 200:
            assert move == played[0]
        elif status != 201:
            assert (status, code) == (409, "stale_step")
    _assert_record_is_exact(game, played)


def test_successive_moves_from_20_threads_with_retries_are_recorded_in_order(db):
    game = GameFactory(size=9)
    moves = _planned_moves(game, THREADS)
    token = game.player.token
    deadline = time.monotonic() + DEADLINE_SECONDS

    def send(index: int) -> int:
        """Post move ``index`` until it is played, then once more (a retry)."""
        if index >= len(moves):
            return 0
        client = _client(token)
        url = f"/api/v1/games/{game.pk}/moves/"
        attempts = 0
        while True:
            attempts += 1
            response = client.post(url, _body(index, moves[index]), format="json")
            if response.status_code in (200, 201):
                break
            error = response.json()["error"]
            assert (response.status_code, error["code"]) == (409, "stale_step"), error
            assert error["current_step"] < index, "the game went past this thread's step"
            assert time.monotonic() < deadline, "moves did not get through in time"
            time.sleep(0.005)
        retry = client.post(url, _body(index, moves[index]), format="json")
        assert retry.status_code == 200
        assert retry.json()["replayed"] is True
        assert retry.json()["step"] == index + 1
        return attempts

    with _no_throttles():
        attempts = _in_threads(send)
    assert sum(attempts) >= len(moves)
    _assert_record_is_exact(game, moves)
