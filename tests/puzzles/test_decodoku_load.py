"""``manage.py decodoku_puzzle load``: every published puzzle as a puzzle row, solved exactly."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from puzzles.engines.decodoku import check, parse_grid
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.models import Puzzle


def load() -> dict:
    out = StringIO()
    call_command("decodoku_puzzle", "load", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.slow
@pytest.mark.django_db
def test_all_96_published_puzzles_load_as_rows_and_solve_exactly() -> None:
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
