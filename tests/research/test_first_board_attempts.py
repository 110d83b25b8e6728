"""Rows of regenerated first boards carry the draw they belong to (``first_board_attempt``).

A first board that spans or is empty is drawn again, and the noise of every
board drawn stays in the export with the same t = 0, round 1 and error
indexes; ``discarded`` says which rows were thrown away,
``first_board_attempt`` which draw each row of round 1 belongs to, so that a
row is named by its game, that attempt, t, round and index.
"""

from __future__ import annotations

from collections import Counter

from tests.factories import GameFactory, play
from tests.research.conftest import finish
from tests.research.test_discarded_boards import SEED
from tests.research.test_exports import export


def test_each_first_board_drawn_has_its_attempt_number(researcher_client, consenting_player):
    game = play(GameFactory.create(player=consenting_player, seed=SEED, size=3,
                                   noise_budget=2.0))
    mine = str(game.pk)
    regenerations = [r for r in export(researcher_client, "regenerations")
                     if r["game_id"] == mine]
    assert [r["attempt"] for r in regenerations] == ["1", "2"]

    noise = [r for r in export(researcher_client, "noise_errors") if r["game_id"] == mine]
    first = [r for r in noise if r["round"] == "1"]
    # The finding: the three boards' rows share (game, t, round, index).
    plain_keys = Counter((r["game_id"], r["t"], r["round"], r["index"]) for r in first)
    assert max(plain_keys.values()) > 1
    keys = Counter((r["game_id"], r["first_board_attempt"], r["t"], r["round"], r["index"])
                   for r in noise)
    assert max(keys.values()) == 1
    assert {r["first_board_attempt"] for r in first} == {"1", "2", "3"}

    for table in ("noise_errors", "merges", "round_boundaries"):
        rows = [r for r in export(researcher_client, table) if r["game_id"] == mine]
        for row in rows:
            if row["round"] != "1":
                assert row["first_board_attempt"] == "", (table, row)
                continue
            # Draws 1 and 2 were thrown away (each followed by its regenerations row).
            attempt = row["first_board_attempt"]
            assert row["discarded"] == ("true" if attempt in ("1", "2") else "false")
            before = sum(1 for r in regenerations if int(r["seq"]) < int(row["seq"]))
            assert int(attempt) == before + 1, (table, row)


def test_a_game_drawn_once_has_attempt_one(researcher_client, consenting_player):
    game = play(GameFactory.create(player=consenting_player, seed=7), moves=3)
    finish(game)  # exports hold finished games only
    rows = [r for r in export(researcher_client, "round_boundaries")
            if r["game_id"] == str(game.pk)]
    assert {r["first_board_attempt"] for r in rows if r["round"] == "1"} == {"1"}
