"""The published Decodoku puzzles shipped as data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzles.engines.decodoku import DecodokuError, parse_grid
from puzzles.engines.decodoku.published import DATA_FILE, load, published_puzzles, source

PUBLISHED = 103
DISTINCT = 96


def test_the_96_distinct_grids_carry_all_103_published_numbers() -> None:
    puzzles = published_puzzles()
    assert len(puzzles) == DISTINCT
    numbers = sorted(n for p in puzzles for n in p.numbers)
    assert numbers == list(range(PUBLISHED))
    assert len({p.grid for p in puzzles}) == DISTINCT


def test_duplicated_grids_keep_every_number() -> None:
    by_number = {n: p for p in published_puzzles() for n in p.numbers}
    # The source lists puzzles 46-52 a second time as 53-59.
    for first in range(46, 53):
        assert by_number[first] is by_number[first + 7]
        assert by_number[first].numbers == (first, first + 7)
    assert sum(len(p.numbers) == 2 for p in published_puzzles()) == PUBLISHED - DISTINCT


def test_published_grids_are_kept_as_published_with_their_first_number() -> None:
    by_number = {p.number: p for p in published_puzzles()}
    assert by_number[0].grid == "6003907404044709030003000700000004550000064037642865550000000582"
    assert by_number[102].grid == "2000559026005673829290772872410600064836289263260010001982000019"
    assert by_number[0].board().corners == (6, 2)
    assert source()["repository"] == "https://github.com/sneakyweasel/genetic-quantum-correction"


def test_every_published_grid_obeys_the_total_sum_rule_with_its_corner_digits() -> None:
    for puzzle in published_puzzles():
        assert sum(int(c) for c in puzzle.grid) % 10 == 0, puzzle.numbers
        board = puzzle.board()
        assert board.corners == (int(puzzle.grid[0]), int(puzzle.grid[-1]))
        assert board.grid() == "?" + puzzle.grid[1:-1] + "?"


def test_a_data_file_with_a_number_on_two_grids_is_refused(tmp_path: Path) -> None:
    document = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    document["puzzles"][1]["numbers"] = list(document["puzzles"][0]["numbers"])
    broken = tmp_path / "puzzles.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(DecodokuError, match="a number names two grids"):
        load(broken)


def test_corner_digits_that_break_the_total_sum_rule_are_refused() -> None:
    grid = "1" + "0" * 62 + "0"
    with pytest.raises(DecodokuError, match="total-sum rule"):
        parse_grid(grid, keep_corners=True)
    assert parse_grid(grid).corners is None  # without keep_corners they are only hidden
