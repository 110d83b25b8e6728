"""Regenerated first boards: the kept board is unambiguous in every event export.

The rows of discarded boards are marked (``discarded``), the kept rows'
``round_end`` rows number ``games.rounds``, and group ids name one group in a
whole game (engine version 2). Games recorded by engine version 1 keep their
ids (which start again at 1 on each board drawn) and still replay exactly.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

import games.services.play as play_service
from games.engine import ENGINE_VERSION, RuleSet
from games.engine import Game as EngineGame
from games.models import Event, Game, Player
from games.verification import game_verify
from tests.factories import GameFactory, play
from tests.research.test_exports import export

# The first seed of `bot_play --size 3 --budget 2 --seed 7000` whose first
# board is drawn three times.
SEED = 7005


def _regeneration_seqs(game: Game) -> list[int]:
    return list(Event.objects.filter(game=game, kind="regenerated").order_by("seq")
                .values_list("seq", flat=True))


def _boards_of_each_id(game: Game, noise: list[dict[str, str]]) -> dict[int, set[int]]:
    """Group id -> the first boards (0, 1, ...; the kept one last) whose noise rows hold it."""
    regenerations = _regeneration_seqs(game)
    found: dict[int, set[int]] = defaultdict(set)
    for row in noise:
        if row["game_id"] != str(game.pk):
            continue
        board = sum(1 for seq in regenerations if seq < int(row["seq"]))
        for name in ("group1_before", "group2_before", "group1_after", "group2_after"):
            if row[name] != "0":
                found[int(row[name])].add(board)
    return found


def _check_kept_rows(client, game: Game) -> None:
    """The discarded rows are exactly those before the last regeneration; the counts agree."""
    last_regeneration = _regeneration_seqs(game)[-1]
    for table in ("round_boundaries", "noise_errors", "merges"):
        rows = [r for r in export(client, table) if r["game_id"] == str(game.pk)]
        assert rows, table
        for row in rows:
            assert row["discarded"] == ("true" if int(row["seq"]) < last_regeneration
                                        else "false"), (table, row["seq"])
    ends = [r for r in export(client, "round_boundaries")
            if r["game_id"] == str(game.pk) and r["kind"] == "round_end"]
    kept_ends = [r for r in ends if r["discarded"] == "false"]
    assert len(ends) > game.rounds  # the discarded boards' rounds are there too
    assert len(kept_ends) == game.rounds  # without them, the counts agree


def test_discarded_first_boards_are_marked_and_group_ids_are_unique_in_the_game(
    researcher_client, consenting_player
):
    engine = EngineGame(RuleSet(size=3, noise_budget=2.0), SEED)
    assert sum(1 for e in engine.events if e.kind == "regenerated") == 2
    game = play(GameFactory.create(player=consenting_player, seed=SEED, size=3,
                                   noise_budget=2.0))
    assert game.engine_version == ENGINE_VERSION == 2
    _check_kept_rows(researcher_client, game)

    boards = _boards_of_each_id(game, export(researcher_client, "noise_errors"))
    assert len({b for seen in boards.values() for b in seen}) == 3
    # One id, one group: no id is on two of the boards drawn.
    assert {id_: seen for id_, seen in boards.items() if len(seen) > 1} == {}
    assert game_verify(game=game).ok


def _start_as_engine_1(player: Player, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Start a game exactly as the platform did while engine version 1 was current."""
    with monkeypatch.context() as patch:
        patch.setattr(play_service, "ENGINE_VERSION", 1)
        return GameFactory.create(player=player, seed=SEED, size=3, noise_budget=2.0)


def test_a_game_recorded_by_engine_1_is_played_on_and_verified_as_engine_1(
    researcher_client, consenting_player, monkeypatch
):
    started = _start_as_engine_1(consenting_player, monkeypatch)
    assert started.engine_version == started.state["engine_version"] == 1
    # The rest of the game is played by today's code: it goes on as version 1.
    game = play(started)
    assert game.status == Game.Status.LOST
    game.refresh_from_db()
    assert game.engine_version == game.state["engine_version"] == 1
    check = game_verify(game=game)
    assert check.ok, check.problems
    _check_kept_rows(researcher_client, game)
    boards = _boards_of_each_id(game, export(researcher_client, "noise_errors"))
    assert any(len(seen) > 1 for seen in boards.values())  # version 1's restarted ids

    # Checked against version 2 instead, the same record no longer replays.
    Game.objects.filter(pk=game.pk).update(engine_version=2)
    game.refresh_from_db()
    assert not game_verify(game=game).ok


def test_games_export_seeds_as_text(researcher_client, consenting_player):
    game = play(GameFactory.create(player=consenting_player, seed=2**62 + 12345))
    rows = export(researcher_client, "games")
    assert rows[0]["seed"] == str(game.seed)
