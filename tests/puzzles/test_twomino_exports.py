"""2mino attempts in the research exports: toggles with both cells of the bar and the pairs."""

from __future__ import annotations

import pytest

from puzzles.engines import twomino_play
from puzzles.services import attempt_act, attempt_start
from research.exports import writer
from research.exports.filters import filtered_queryset, parse_filters
from research.exports.tables import all_tables
from tests.factories import PlayerFactory
from tests.research.conftest import body_of, csv_rows


def play_2mino(player, *, seed: int = 3):
    attempt = attempt_start(player=player, kind="2mino", size=4, seed=seed)
    puzzle = twomino_play.load({**attempt.puzzle.definition, "solution": attempt.puzzle.solution})
    inside = set(puzzle.solution)
    draw = [b for b in puzzle.board.inner_bars() if b not in inside and b not in puzzle.locked]
    plan: list[tuple[str, dict]] = [("hint", {})] + [
        ("toggle", {"a": list(a), "b": list(b)}) for a, b in draw
    ]
    for kind, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=kind, payload=payload
        ).attempt
    return attempt, draw


@pytest.fixture
def recorded(db):
    return play_2mino(PlayerFactory())


def rows(client, table: str) -> list[dict[str, str]]:
    return csv_rows(body_of(client.get(f"/research/export/{table}.csv")))


def test_toggles_are_exported_with_the_bar_and_the_pairs(researcher_client, recorded):
    attempt, draw = recorded
    puzzle = twomino_play.load(attempt.puzzle.definition)
    actions = rows(researcher_client, "puzzle_actions")
    hint, *toggles = actions
    assert hint["action"] == "hint"
    assert hint["hint"] in {"forced", "tiling"}
    assert hint["hint_row"] != ""
    assert [r["action"] for r in toggles] == ["toggle"] * len(draw)
    for row, (a, b) in zip(toggles, draw, strict=True):
        assert (int(row["row"]), int(row["col"])) == a
        assert (int(row["row_b"]), int(row["col_b"])) == b
        assert row["pairs_broken"] == "0"
    formed = sum(int(r["pairs_formed"]) for r in toggles)
    # Pairs formed by the locked bars alone, plus those the toggles formed: all ten.
    assert formed + len(twomino_play.Play(puzzle).formed) == 10
    (attempt_row,) = rows(researcher_client, "puzzle_attempts")
    assert attempt_row["kind"] == "2mino"
    assert attempt_row["status"] == "solved"
    (puzzle_row,) = rows(researcher_client, "puzzles")
    assert puzzle_row["difficulty"] == "normal"
    assert puzzle_row["solution"] == ""


def test_the_codebook_lists_the_2mino_values(researcher_client, db):
    from puzzles.research_tables import ACTIONS, DIFFICULTIES, KINDS

    assert "2mino" in KINDS
    assert {"toggle", "reset"} <= set(ACTIONS)
    assert {"normal", "unique"} <= set(DIFFICULTIES)


@pytest.mark.postgres
@pytest.mark.parametrize("table", ["puzzles", "puzzle_attempts", "puzzle_actions"])
def test_copy_and_portable_paths_agree_on_2mino(recorded, table):
    spec = all_tables()[table]
    queryset = filtered_queryset(table=spec, filters=parse_filters({}, table=spec))
    portable = b"".join(writer.portable_chunks(table=spec, queryset=queryset))
    fast = b"".join(writer.copy_chunks(table=spec, queryset=queryset))
    assert portable == fast
    assert portable.count(b"\n") >= 2
