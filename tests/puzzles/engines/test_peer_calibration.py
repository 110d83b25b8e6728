"""Our levels against the levels Simon Tatham's own graders gave the same puzzles.

``fixtures/peer_levels.jsonl`` holds 100 puzzles of engine version 3 (KenKen and
Futoshiki, 4 x 4 and 6 x 6, five per level, seeds from 0) with the level that the
standalone solvers of Tatham's Portable Puzzle Collection (Keen and Unequal, built
from the collection's C source) gave each one in a run of ``bench/peer_grades.py``
(docs/puzzles.md, "Against the peer's grader"), and the game ID the peer read. The
peer cannot run in the test suite; its verdicts are kept as data so that a change
to the ladder that moves a puzzle away from the peer's level fails here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.peer_format import keen_id, unequal_id
from puzzles.engines import futoshiki, kenken
from puzzles.engines.grading import grade

FIXTURE = Path(__file__).parent / "fixtures" / "peer_levels.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line
]
LOADERS: dict[str, Callable[[Any], Any]] = {
    "kenken": kenken.from_dict,
    "futoshiki": futoshiki.from_dict,
}
IDS: dict[str, Callable[[Any], str]] = {"kenken": keen_id, "futoshiki": unequal_id}


def test_the_fixture_covers_every_level_of_both_kinds_at_two_sizes():
    counts = Counter((row["kind"], row["size"], row["peer"]) for row in ROWS)
    assert len(ROWS) == 100
    assert len(counts) == 20
    assert set(counts.values()) == {5}


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{r['kind']}-{r['size']}-{r['peer']}-{r['seed']}" for r in ROWS]
)
def test_our_level_has_the_name_the_peer_gave(row: dict[str, Any]) -> None:
    puzzle = LOADERS[row["kind"]](row["puzzle"])
    # The stored description is the puzzle the peer read.
    assert IDS[row["kind"]](puzzle) == row["game_id"]
    assert grade(puzzle).label == row["peer"].lower()
