"""The 96 published puzzles as a whole: solved to proven optimality, loaded as puzzle
rows (``manage.py decodoku_puzzle load``) and compared with the bots (``compare``).

One test, because each part solves every published grid exactly: the solver
keeps its answers for the process, so the set is solved once.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from puzzles.engines.decodoku import check, parse_grid, solve
from puzzles.engines.decodoku.bots import BOTS
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.models import Puzzle


def load() -> dict:
    out = StringIO()
    call_command("decodoku_puzzle", "load", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.slow
@pytest.mark.django_db
def test_all_96_published_puzzles_solve_exactly_load_as_rows_and_compare_with_the_bots() -> None:
    every_published_puzzle_solves_to_proven_optimality()
    all_96_load_as_rows()
    compare_prints_every_published_grid_and_a_summary_of_the_same_lines()


def every_published_puzzle_solves_to_proven_optimality() -> None:
    # How long it takes is measured by bench/decodoku_puzzles.py, not asserted here.
    for puzzle in published_puzzles():
        board = puzzle.board()
        solution = solve(board)
        assert solution.optimal, puzzle.numbers
        assert solution.lower_bound <= solution.links + 1e-6  # the LP bound, up to rounding
        # The source author's own solutions are explanations: never below the minimum.
        for counts in puzzle.solution_links.values():
            assert min(counts) >= solution.links, puzzle.numbers
        for value, links in solution.explanations.items():
            verdict = check(board, links)
            assert verdict.valid, puzzle.numbers
            assert value in verdict.answers, puzzle.numbers


def all_96_load_as_rows() -> None:
    published = {p.number: p for p in published_puzzles()}
    assert load() == {"created": len(published), "existing": 0}
    rows = {
        p.number: p
        for p in Puzzle.objects.filter(kind="decodoku", number__isnull=False)
        if p.number is not None
    }
    assert len(rows) == len(published) == 96
    assert set(rows) == set(published)
    tied = []
    for number, row in rows.items():
        source = published[number]
        board = source.board()
        assert board.corners is not None
        assert row.seed == number
        assert row.difficulty == "published"
        assert row.definition["numbers"] == list(source.numbers)
        assert row.definition["grid"] == board.grid()  # the corners stay hidden
        solution = row.solution
        assert solution["optimal"] is True
        assert solution["corners"] == list(board.corners)
        assert solution["corners_source"] == "published"
        assert solution["tied"] is bool(solution["ties"])
        assert solution["corner"] not in solution["ties"]
        assert all(solution["corner"] < t for t in solution["ties"])
        # The stored explanation is one of the fewest links and gives the stored corner.
        verdict = check(parse_grid(row.definition["grid"]), solution["explanation"])
        assert verdict.valid
        assert len(verdict.links) == solution["minimum"]
        assert solution["corner"] in verdict.answers
        # The source author's own solutions are explanations: never below the minimum.
        for counts in source.solution_links.values():
            assert all(solution["minimum"] <= c for c in counts)
        if solution["tied"]:
            tied.append(number)
    assert tied  # some published grids do have tied answers
    assert load() == {"created": 0, "existing": len(published)}
    assert Puzzle.objects.filter(kind="decodoku").count() == len(published)


def compare_prints_every_published_grid_and_a_summary_of_the_same_lines() -> None:
    out = StringIO()
    call_command("decodoku_puzzle", "compare", stdout=out)
    *lines, last = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == last["grids"] == 96
    for name in BOTS:
        summary = last["summary"][name]
        assert summary["published_corner"] == sum(
            line[name]["corner"] == line["published_corner"] for line in lines
        )
        assert summary["fewest_links"] == sum(
            line[name]["links"] == line["exact"]["links"] for line in lines
        )
        assert all(line[name]["links"] >= line["exact"]["links"] for line in lines)
    assert last["summary"]["exact"]["fewest_links"] == 96
