"""Futoshiki beyond 9 x 9: up to 10 x 10 with signs, 16 x 16 in the Adjacent variant."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from rest_framework.test import APIClient

from puzzles.engines import futoshiki, kenken, latin_play
from puzzles.engines.base import Generated
from puzzles.engines.futoshiki import ADJACENT_KIND, generate, generate_adjacent
from puzzles.engines.grading import _distinct_choices, _largest_min, _smallest_max
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind
from puzzles.engines.solver import Difficulty, count_solutions, solve_logically
from puzzles.models import SOLUTION_CELLS_MAX_LENGTH, Puzzle
from puzzles.services import _cells_text

# CPU-heavy: bin/test runs it in its second pass, without coverage's tracer
# (which makes pure-Python loops several times slower).
pytestmark = pytest.mark.slow

URL = "/api/v1/puzzles/"


@cache
def _ten() -> Generated[futoshiki.Futoshiki, Difficulty]:
    """One 10 x 10 Futoshiki, generated once for the tests that only read it."""
    return generate(size=10, seed=3)


def test_a_10x10_futoshiki_is_unique_and_deterministic() -> None:
    made = _ten()
    assert made.puzzle.is_solution(made.solution)
    counted = count_solutions(made.puzzle, limit=2)
    assert counted.count == 1
    assert counted.solutions == [made.solution]
    assert generate(size=10, seed=3).to_dict() == made.to_dict()
    assert futoshiki.from_dict(made.to_dict()).to_dict() == made.puzzle.to_dict()
    assert max(max(row) for row in made.solution) == 10


def test_a_16x16_adjacent_futoshiki_is_unique() -> None:
    made = generate_adjacent(size=16, seed=1)
    counted = count_solutions(made.puzzle, limit=2)
    assert counted.count == 1
    assert counted.solutions == [made.solution]
    assert futoshiki.adjacent_from_dict(made.to_dict()).to_dict() == made.puzzle.to_dict()


def test_the_logical_trace_solves_a_large_grid() -> None:
    made = generate_adjacent(size=12, seed=4)
    result = solve_logically(made.puzzle, solution=made.solution)
    assert result.status == "solved"
    assert made.puzzle.grid_from_masks(result.cands) == made.solution
    # The known solution only spares the search its counting: the same trace without it.
    assert [s.to_dict(made.puzzle) for s in solve_logically(made.puzzle).steps] == [
        s.to_dict(made.puzzle) for s in result.steps
    ]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: generate(size=11, seed=1), "between 4 and 10"),
        (lambda: generate(size=10, seed=1, engine_version=1), "engine version 1: size"),
        (lambda: generate_adjacent(size=40, seed=1), "between 4 and 16"),
        (lambda: futoshiki.from_dict({"size": 40}), "at most 10"),
        (lambda: futoshiki.adjacent_from_dict({"size": 40}), "at most 16"),
        (lambda: kenken.generate(size=10, seed=1), "between 3 and 9"),
    ],
)
def test_sizes_beyond_the_limits_are_refused(call: Any, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        call()


def test_the_registry_offers_the_larger_sizes_and_kenken_stays_at_nine() -> None:
    assert get_kind("futoshiki").max_size == 10
    assert get_kind(ADJACENT_KIND).max_size == 16
    assert get_kind("kenken").max_size == 9


def test_values_above_nine_are_played() -> None:
    made = _ten()
    state = latin_play.empty_state(made.puzzle)
    r, c = next((r, c) for r in range(10) for c in range(10) if (r, c) not in made.puzzle.givens)
    outcome = latin_play.apply_action(
        made.puzzle, made.solution, state, "entry", {"cell": [r, c], "value": 10}
    )
    assert outcome.state["entries"][r][c] == 10
    with pytest.raises(PuzzleError, match="at most 10"):
        latin_play.apply_action(
            made.puzzle, made.solution, state, "entry", {"cell": [r, c], "value": 11}
        )


def test_the_solution_text_keeps_one_character_per_cell() -> None:
    assert _cells_text([[1, 2], [2, 1]]) == "1221"
    assert _cells_text([[10, 11, 16]]) == "ABG"
    assert SOLUTION_CELLS_MAX_LENGTH >= 16 * 16
    kind_length = Puzzle._meta.get_field("kind").max_length
    assert kind_length is not None
    assert kind_length >= len(ADJACENT_KIND)


def test_the_two_mask_bounds_agree_with_listing_every_choice() -> None:
    """The quick path of the double-sign bounds against the plain listing, exhaustively
    for two masks of up to six values."""
    for a in range(64):
        for b in range(64):
            choices = _distinct_choices([a, b])
            assert _smallest_max([a, b]) == min((max(x) for x in choices), default=0)
            assert _largest_min([a, b]) == max((min(x) for x in choices), default=0)


def test_the_api_serves_and_stores_a_large_grid(api: APIClient) -> None:
    response = api.post(URL, {"kind": "futoshiki", "size": 10, "seed": 3}, format="json")
    assert response.status_code == 201, response.json()
    attempt = response.json()
    assert attempt["size"] == 10
    stored = Puzzle.objects.get(kind="futoshiki", size=10, seed=3)
    assert len(stored.solution_cells) == 100
    assert "A" in stored.solution_cells
    bad = api.post(URL, {"kind": "futoshiki", "size": 40}, format="json")
    assert bad.status_code == 400
    assert "between 4 and 10" in str(bad.json())


def test_an_entry_of_ten_through_the_api(api: APIClient) -> None:
    attempt = api.post(URL, {"kind": "futoshiki", "size": 10, "seed": 3}, format="json").json()
    givens = {(r, c) for r, c, _ in attempt["puzzle"]["givens"]}
    r, c = next((r, c) for r in range(10) for c in range(10) if (r, c) not in givens)
    body: dict[str, Any] = {"step": 0, "kind": "entry", "payload": {"cell": [r, c], "value": 10}}
    answer = api.post(f"{URL}{attempt['id']}/actions/", body, format="json")
    assert answer.status_code == 201, answer.json()
    body = {"step": 1, "kind": "entry", "payload": {"cell": [r, c], "value": 11}}
    assert api.post(f"{URL}{attempt['id']}/actions/", body, format="json").status_code == 400


@pytest.mark.parametrize(
    ("kind", "size", "level", "largest"),
    [
        ("futoshiki", 10, "recursive", 9),
        (ADJACENT_KIND, 15, "extreme", 14),
        (ADJACENT_KIND, 9, "recursive", 8),
    ],
)
def test_a_level_too_slow_to_make_on_a_large_grid_is_refused_at_once(
    api: APIClient, kind: str, size: int, level: str, largest: int
) -> None:
    with pytest.raises(PuzzleError, match=f"rated {level} is made up to {largest}x{largest}"):
        get_kind(kind).generate(size=size, seed=1, difficulty=level)
    before = Puzzle.objects.count()
    answer = api.post(URL, {"kind": kind, "size": size, "difficulty": level}, format="json")
    assert answer.status_code == 400
    assert f"made up to {largest}x{largest}" in str(answer.json())
    assert Puzzle.objects.count() == before


def test_the_levels_below_the_limit_are_still_made_on_the_large_grids() -> None:
    # The cheaper levels are not capped: a 13 x 13 Adjacent at tricky, a 10 x 10 at extreme.
    assert generate_adjacent(size=13, seed=1, difficulty="tricky").difficulty.label == "tricky"
    assert generate(size=10, seed=1, difficulty="extreme").difficulty.label == "extreme"


def test_engine_version_2_keeps_its_own_limits() -> None:
    # Its level 4 was slower to make: a 10 x 10 extreme is refused as before.
    with pytest.raises(PuzzleError, match="rated extreme is made up to 9x9"):
        generate(size=10, seed=1, difficulty="extreme", engine_version=2)
    with pytest.raises(PuzzleError, match="rated hard is made up to 12x12"):
        generate_adjacent(size=13, seed=1, difficulty="hard", engine_version=1)
