"""Decodoku puzzles on the platform: starting, recording every step, scoring, the bots."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from puzzles.engines.decodoku import check
from puzzles.engines.decodoku.bots import BOTS
from puzzles.engines.decodoku.generate import generate
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.engines.decodoku.solver import solve
from puzzles.models import Action, Attempt, DecodokuBotAnswer, Puzzle
from puzzles.services import decodoku_bots_run
from puzzles.tasks import decode_decodoku

URL = "/api/v1/puzzles/"
SEED = 11  # a generated board (rate 0.25)


def act(api: APIClient, attempt: dict, step: int, kind: str, payload: dict | None = None):
    body = {"step": step, "kind": kind, "payload": payload or {}}
    return api.post(f"{URL}{attempt['id']}/actions/", body, format="json")


def start(api: APIClient, **body) -> dict:
    response = api.post(URL, {"kind": "decodoku", **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def draw(api: APIClient, attempt: dict, links: list[int], step: int = 0) -> int:
    for link in links:
        response = act(api, attempt, step, "link", {"link": link})
        assert response.status_code == 201, response.json()
        step += 1
    return step


@pytest.mark.django_db(transaction=True)
def test_a_published_puzzle_is_played_by_links_recorded_and_scored(api) -> None:
    published = published_puzzles()[0]
    board = published.board()
    assert board.corners is not None
    best = solve(board)
    attempt = start(api, number=published.number)
    assert attempt["puzzle"]["number"] == published.number
    assert attempt["puzzle"]["grid"][0] == attempt["puzzle"]["grid"][-1] == "?"
    assert "solution" not in attempt
    assert "seed" not in attempt
    links = sorted(best.explanations[best.corner])
    step = draw(api, attempt, links[:-1])
    early = act(api, attempt, step, "answer", {"value": best.corner})
    assert early.status_code == 422
    assert early.json()["error"]["code"] == "illegal_action"
    step = draw(api, attempt, links[-1:], step)
    checked = act(api, attempt, step, "check").json()
    assert checked["action"]["result"]["valid"] is True
    assert best.corner in checked["action"]["result"]["answers"]
    answered = act(api, attempt, step + 1, "answer", {"value": best.corner}).json()
    ended = answered["attempt"]
    assert ended["status"] == "solved"
    result = answered["action"]["result"]
    assert result["links"] == result["minimum"] == best.links
    assert result["excess"] == 0
    assert result["correct"] is (best.corner == board.corners[0])
    assert ended["solution"]["corners"] == list(board.corners)
    kinds = [a["kind"] for a in ended["actions"]]
    assert kinds == ["link"] * len(links) + ["check", "answer"]
    stored = Attempt.objects.get(pk=ended["id"])
    assert stored.checks_count == 1
    assert stored.steps == len(links) + 2
    answer_row = Action.objects.get(attempt=stored, kind="answer")
    assert answer_row.value == best.corner
    assert answer_row.correct is result["correct"]
    # The bots decoded the puzzle after the commit (in-process tasks in the tests).
    bots = {b.bot: b for b in DecodokuBotAnswer.objects.filter(puzzle_id=stored.puzzle_id)}
    assert set(bots) == set(BOTS)
    assert bots["exact"].links_count == best.links
    assert bots["exact"].optimal is True
    assert bots["clustering"].links_count >= best.links


def test_a_generated_puzzle_scores_against_its_true_corner(api) -> None:
    made = generate(seed=SEED, rate=0.25)
    attempt = start(api, seed=SEED)
    assert attempt["puzzle"]["grid"] == made.board.grid()
    # The noise itself explains the board, with more links than the fewest.
    noise = sorted(made.noise_links)
    verdict = check(made.board, noise)
    step = draw(api, attempt, noise)
    wrong = (made.corners[0] + 1) % 10
    refused = act(api, attempt, step, "answer", {"value": wrong})
    assert refused.status_code == 422
    answered = act(api, attempt, step, "answer", {"value": verdict.top_left}).json()
    result = answered["action"]["result"]
    assert result["correct"] is True  # the noise gives the true corner back
    assert result["excess"] == len(noise) - solve(made.board).links


def test_unlink_and_give_up_are_recorded(api) -> None:
    attempt = start(api, seed=SEED)
    assert act(api, attempt, 0, "link", {"link": 5}).status_code == 201
    again = act(api, attempt, 1, "link", {"link": 5})
    assert again.status_code == 422
    assert act(api, attempt, 1, "unlink", {"link": 5}).status_code == 201
    missing = act(api, attempt, 2, "unlink", {"link": 5})
    assert missing.status_code == 422
    ended = api.post(f"{URL}{attempt['id']}/finish/").json()
    assert ended["status"] == "abandoned"
    assert ended["finished_at"]
    assert [a["kind"] for a in ended["actions"]] == ["link", "unlink"]
    assert [a["payload"] for a in ended["actions"]] == [{"link": 5}, {"link": 5}]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"number": 103}, 404),
        ({"number": 3, "seed": 4}, 400),
        ({"kind": "kenken", "number": 3}, 400),
        ({"size": 6}, 400),
        ({"difficulty": "published"}, 400),
    ],
)
def test_bad_starts_are_clear_errors(api, body: dict, status: int) -> None:
    response = api.post(URL, {"kind": "decodoku", **body}, format="json")
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == {404: "not_found", 400: error["code"]}[status]
    assert error["message"]


@pytest.mark.parametrize(
    "payload",
    [{"link": 112}, {"link": -1}, {"link": "3"}, {"cell": [0, 0]}, {}],
)
def test_malformed_links_are_400(api, payload: dict) -> None:
    attempt = start(api, seed=SEED)
    response = act(api, attempt, 0, "link", payload)
    assert response.status_code == 400
    assert response.json()["error"]["message"]


def test_a_later_number_of_a_repeated_grid_opens_the_same_puzzle(api) -> None:
    # The source lists puzzles 46-52 again as 53-59 (docs/decodoku-puzzles.md).
    first = start(api, number=46)
    second = start(api, number=53)
    assert first["puzzle"] == second["puzzle"]
    assert Puzzle.objects.filter(kind="decodoku", number__isnull=False).count() == 1


def test_the_bot_task_is_idempotent(db) -> None:
    from puzzles.services import decodoku_published_get_or_create

    puzzle = decodoku_published_get_or_create(number=5)
    assert decode_decodoku(str(puzzle.pk)) == len(BOTS)
    first = list(DecodokuBotAnswer.objects.filter(puzzle=puzzle).values())
    with CaptureQueriesContext(connection) as queries:
        assert decode_decodoku(str(puzzle.pk)) == 0
    assert not [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert list(DecodokuBotAnswer.objects.filter(puzzle=puzzle).values()) == first
    assert decodoku_bots_run(puzzle_id=puzzle.pk) == 0
