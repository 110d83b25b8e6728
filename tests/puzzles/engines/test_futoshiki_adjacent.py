"""Adjacent Futoshiki: bars between neighbours one apart, no bar meaning not one apart."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from puzzles.engines import futoshiki, latin_play
from puzzles.engines.futoshiki import (
    ADJACENT_KIND,
    AdjacentFutoshiki,
    adjacent_from_dict,
    generate_adjacent,
)
from puzzles.engines.grading import grade, solves_at
from puzzles.engines.latin import PuzzleError, bit, random_latin_square
from puzzles.engines.registry import get_kind
from puzzles.engines.rng import Rng
from puzzles.engines.solver import (
    ADJACENCY,
    count_solutions,
    plain_backtracking_count,
    propagate,
    solve_logically,
)

URL = "/api/v1/puzzles/"


def _all_bars(solution: list[list[int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return futoshiki._all_bars(solution)


@pytest.mark.parametrize(("size", "seed"), [(4, 1), (4, 2), (5, 3), (5, 4)])
def test_generated_puzzles_are_unique_by_plain_backtracking(size: int, seed: int) -> None:
    made = generate_adjacent(size=size, seed=seed)
    assert made.puzzle.is_solution(made.solution)
    # The baseline knows nothing of candidates or propagation.
    assert plain_backtracking_count(made.puzzle, limit=2) == 1
    assert count_solutions(made.puzzle, limit=2).solutions == [made.solution]


@pytest.mark.parametrize("size", [6, 7, 9, 12])
def test_larger_generated_puzzles_are_unique(size: int) -> None:
    made = generate_adjacent(size=size, seed=5)
    counted = count_solutions(made.puzzle, limit=2)
    assert counted.count == 1
    assert counted.solutions == [made.solution]


def test_every_neighbour_pair_is_marked_by_the_bars() -> None:
    made = generate_adjacent(size=6, seed=8)
    solution = made.solution
    bars = {(a, b) for a, b in made.puzzle.bars}
    for r in range(6):
        for c in range(6):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr < 6 and cc < 6:
                    one_apart = abs(solution[r][c] - solution[rr][cc]) == 1
                    assert (((r, c), (rr, cc)) in bars) == one_apart


def test_same_seed_same_puzzle_and_other_seed_other_puzzle() -> None:
    first = generate_adjacent(size=6, seed=42).to_dict()
    assert generate_adjacent(size=6, seed=42).to_dict() == first
    assert generate_adjacent(size=6, seed=43).to_dict() != first


def test_description_records_the_mode_and_reads_back() -> None:
    made = generate_adjacent(size=5, seed=7)
    data = made.to_dict()
    assert data["kind"] == ADJACENT_KIND
    assert data["mode"] == "adjacent"
    assert "relations" not in data
    again = adjacent_from_dict(data)
    assert again.to_dict() == made.puzzle.to_dict()
    assert again.is_solution(made.solution)
    # Through the registry, as the site loads it.
    kind = get_kind(ADJACENT_KIND)
    assert kind.base_kind == "futoshiki"
    assert kind.title == "Futoshiki (Adjacent)"
    assert kind.load(data).to_dict() == made.puzzle.to_dict()


def test_a_bar_keeps_only_values_one_apart() -> None:
    # Row 0: a bar between (0, 0) = 1 and (0, 1): (0, 1) must be 2.
    puzzle = AdjacentFutoshiki(4, {(0, 0): 1}, [((0, 0), (0, 1))])
    cands = puzzle.initial_candidates()
    puzzle.narrow(cands)
    assert cands[1] == bit(2)


def test_no_bar_removes_the_values_one_apart() -> None:
    # (0, 0) = 2 and no bar to (0, 1) or (1, 0): neither can be 1 or 3.
    puzzle = AdjacentFutoshiki(4, {(0, 0): 2}, [])
    cands = puzzle.initial_candidates()
    puzzle.narrow(cands)
    assert cands[1] == cands[4] == bit(4)


def test_the_constraint_is_a_technique_of_the_trace() -> None:
    puzzle = AdjacentFutoshiki(4, {(0, 0): 1}, [((0, 0), (0, 1))])
    step = puzzle.constraint_step(puzzle.initial_candidates())
    assert step is not None
    assert step.technique == ADJACENCY
    made = generate_adjacent(size=5, seed=3)
    result = solve_logically(made.puzzle)
    assert result.status == "solved"
    assert ADJACENCY in {s.technique for s in result.steps}


@settings(max_examples=40, deadline=None)
@given(size=st.integers(min_value=4, max_value=10), seed=st.integers(min_value=0, max_value=10**6))
def test_propagation_never_removes_the_solution(size: int, seed: int) -> None:
    """Bars and their absence, from any Latin square: the square fits every deduction."""
    square = random_latin_square(size, Rng(seed))
    puzzle = AdjacentFutoshiki(size, {}, _all_bars(square))
    assert puzzle.is_solution(square)
    cands = puzzle.initial_candidates()
    assert propagate(puzzle, cands)
    for r in range(size):
        for c in range(size):
            assert cands[r * size + c] & bit(square[r][c])


def test_asking_for_a_level_gives_it_or_says_what_was_reached() -> None:
    made = generate_adjacent(size=6, seed=1, difficulty="tricky")
    assert made.difficulty.label == "tricky"
    assert grade(made.puzzle).rank == 3
    assert not solves_at(made.puzzle, 2)
    # Measured: no 5 x 5 "extreme" from seed 0 in the 24 tries.
    with pytest.raises(PuzzleError, match=r"rated extreme from seed 0 .*reached: tricky 22"):
        generate_adjacent(size=5, seed=0, difficulty="extreme")
    with pytest.raises(PuzzleError, match="difficulty must be one of"):
        generate_adjacent(size=5, seed=0, difficulty="fiendish")


def _description(**changes: Any) -> dict[str, Any]:
    data = generate_adjacent(size=4, seed=1).to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bars": [{"a": [0, 0], "b": [1, 1]}]}, "neighbouring"),
        ({"bars": [{"a": [0, 0], "b": [0, 1]}, {"a": [0, 1], "b": [0, 0]}]}, "second bar"),
        ({"bars": [{"a": [0, 0], "b": [0, 9]}]}, "at most 3"),
        ({"bars": [{"a": [0, 0]}]}, r"\[row, col\]"),
        ({"bars": "all"}, "bars must be a list"),
        ({"bars": [[0, 0, 0, 1]]}, "JSON object"),
        ({"bars": [{"a": [0, 0], "b": [0, 1]}] * 100}, "more bars than"),
        ({"size": 40}, "at most 16"),
        ({"size": "5"}, "integer"),
        ({"mode": "signs"}, "mode must be"),
        ({"givens": [[0, 0, 9]]}, "at most 4"),
        ({"givens": [[0, 0, 1]] * 20}, "more givens than cells"),
    ],
)
def test_hostile_descriptions_give_a_puzzle_error(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        adjacent_from_dict(_description(**changes))


def test_the_signs_reader_refuses_an_adjacent_description() -> None:
    with pytest.raises(PuzzleError, match="futoshiki-adjacent"):
        futoshiki.from_dict(_description())


def test_sizes_outside_the_range_are_refused() -> None:
    with pytest.raises(PuzzleError, match="between 4 and 16"):
        generate_adjacent(size=17, seed=1)
    with pytest.raises(PuzzleError, match="between 4 and 16"):
        generate_adjacent(size=3, seed=1)


def test_play_accepts_the_values_of_the_grid() -> None:
    made = generate_adjacent(size=5, seed=2)
    state = latin_play.empty_state(made.puzzle)
    open_cell = next((r, c) for r in range(5) for c in range(5) if (r, c) not in made.puzzle.givens)
    value = made.solution[open_cell[0]][open_cell[1]]
    outcome = latin_play.apply_action(
        made.puzzle, made.solution, state, "entry", {"cell": list(open_cell), "value": value}
    )
    assert outcome.state["entries"][open_cell[0]][open_cell[1]] == value


def _act(api: APIClient, attempt_id: str, step: int, kind: str, payload: dict[str, Any]) -> Any:
    body = {"step": step, "kind": kind, "payload": payload}
    return api.post(f"{URL}{attempt_id}/actions/", body, format="json")


def test_the_api_creates_and_plays_one_to_solved(api: APIClient) -> None:
    response = api.post(URL, {"kind": ADJACENT_KIND, "size": 5, "seed": 11}, format="json")
    assert response.status_code == 201, response.json()
    attempt = response.json()
    assert attempt["puzzle"]["mode"] == "adjacent"
    assert "bars" in attempt["puzzle"]
    solution = generate_adjacent(size=5, seed=11).solution
    givens = {(r, c) for r, c, _ in attempt["puzzle"]["givens"]}
    step = 0
    for r in range(5):
        for c in range(5):
            if (r, c) in givens:
                continue
            answer = _act(
                api, attempt["id"], step, "entry", {"cell": [r, c], "value": solution[r][c]}
            )
            assert answer.status_code == 201, answer.json()
            step += 1
    assert answer.json()["attempt"]["status"] == "solved"


def test_the_api_refuses_bad_sizes_and_levels(api: APIClient) -> None:
    too_big = api.post(URL, {"kind": ADJACENT_KIND, "size": 40}, format="json")
    assert too_big.status_code == 400
    assert too_big.json()["error"]["code"] == "invalid_request"
    unknown = api.post(URL, {"kind": ADJACENT_KIND, "difficulty": "fiendish"}, format="json")
    assert unknown.status_code == 400
