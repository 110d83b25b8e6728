"""The puzzle engines: random numbers, Latin squares, reading puzzles, solving, hints, tags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzles.engines import futoshiki, kenken, latin_play
from puzzles.engines.latin import PuzzleError, bit, random_latin_square
from puzzles.engines.registry import KINDS, get_kind
from puzzles.engines.rng import Rng
from puzzles.engines.solver import (
    CAGE_ARITHMETIC,
    HIDDEN_SINGLE,
    NAKED_SINGLE,
    NOT_JUSTIFIED,
    OPERATOR_CHAIN,
    TECHNIQUE_LEVELS,
    count_solutions,
    find_hint,
    justify_entry,
    plain_backtracking_count,
    solve_logically,
)

GOLDEN = Path(__file__).parent / "fixtures" / "golden.jsonl"


def test_rng_is_deterministic_and_draws_every_value():
    a, b = Rng(42), Rng(42)
    draws = [a.below(6) for _ in range(600)]
    assert draws == [b.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert [Rng(43).below(6) for _ in range(20)] != draws[:20]


def test_rng_refuses_negative_seeds_and_empty_ranges():
    with pytest.raises(ValueError, match="non-negative"):
        Rng(-1)
    with pytest.raises(ValueError, match="positive"):
        Rng(1).below(0)


@pytest.mark.parametrize("size", range(3, 10))
def test_random_latin_square_is_latin(size):
    grid = random_latin_square(size, Rng(size))
    full = set(range(1, size + 1))
    assert all(set(row) == full for row in grid)
    assert all({grid[r][c] for r in range(size)} == full for c in range(size))


def test_generation_is_the_same_as_recorded_for_engine_version_1():
    """Recorded attempts are replayed from the seed: generation must never change."""
    for line in GOLDEN.read_text().splitlines():
        recorded = json.loads(line)
        kind = get_kind(recorded["kind"])
        extra = {}
        if recorded["engine_version"] != kind.engine_version:
            extra["engine_version"] = recorded["engine_version"]
        again = kind.generate(
            size=recorded["size"],
            seed=recorded["seed"],
            difficulty=recorded.get("requested_difficulty"),
            **extra,
        ).to_dict()
        recorded.pop("requested_difficulty", None)
        assert again == recorded


def test_kenken_reads_back_what_it_writes():
    made = kenken.generate(size=5, seed=3)
    again = kenken.from_dict(json.loads(json.dumps(made.to_dict())))
    assert again.to_dict() == made.puzzle.to_dict()
    assert again.is_solution(made.solution)


def test_futoshiki_reads_back_what_it_writes():
    made = futoshiki.generate(size=5, seed=3)
    again = futoshiki.from_dict(json.loads(json.dumps(made.to_dict())))
    assert again.to_dict() == made.puzzle.to_dict()
    assert again.is_solution(made.solution)


def _kenken(cages):
    return {"kind": "kenken", "size": 3, "cages": cages}


FULL_3 = [
    {"cells": [[0, 0], [0, 1]], "op": "+", "target": 3},
    {"cells": [[0, 2], [1, 2]], "op": "+", "target": 5},
    {"cells": [[1, 0]], "op": "=", "target": 3},
    {"cells": [[1, 1]], "op": "=", "target": 1},
    {"cells": [[2, 0], [2, 1], [2, 2]], "op": "+", "target": 6},
]


@pytest.mark.parametrize(
    ("cages", "message"),
    [
        (FULL_3[:4], "in no cage"),
        ([*FULL_3, {"cells": [[0, 0]], "op": "=", "target": 1}], "is in cage 0 and in cage 5"),
        ([{**FULL_3[0], "op": "%"}, *FULL_3[1:]], "unknown operation"),
        ([{**FULL_3[4], "op": "-"}, *FULL_3[:4]], "two-cell cages only"),
        ([{"cells": [[0, 0], [1, 1]], "op": "+", "target": 3}, *FULL_3[1:]], "not contiguous"),
        ([{"cells": [[0, 0], [0, 5]], "op": "+", "target": 3}, *FULL_3[1:]], "at most 2"),
        ([{"cells": [[0, 0], [0, 1]], "op": "+", "target": "3"}, *FULL_3[1:]], "integer"),
        ([{"cells": [[0, 0], [0, 1]], "op": "+", "target": 0}, *FULL_3[1:]], "at least 1"),
        ([{"cells": [[0, 0]], "op": "+", "target": 1}], "one-cell cage"),
        ("nope", "non-empty list"),
    ],
)
def test_kenken_refuses_malformed_puzzles(cages, message):
    with pytest.raises(PuzzleError, match=message):
        kenken.from_dict(_kenken(cages))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"size": 3}, "at least 4"),
        ({"size": 4, "givens": [[0, 0, 5]]}, "at most 4"),
        ({"size": 4, "givens": [[0, 0, 1], [0, 0, 2]]}, "given twice"),
        ({"size": 4, "relations": [{"a": [0, 0], "b": [1, 1], "op": "<"}]}, "neighbouring"),
        ({"size": 4, "relations": [{"a": [0, 0], "b": [0, 1], "op": "="}]}, "'<' or '>'"),
        (
            {
                "size": 4,
                "relations": [
                    {"a": [0, 0], "b": [0, 1], "op": "<"},
                    {"a": [0, 1], "b": [0, 0], "op": "<"},
                ],
            },
            "same cells",
        ),
        ({"size": 4, "relations": [{"a": [0, 0], "op": "<"}]}, r"\[row, col\]"),
    ],
)
def test_futoshiki_refuses_malformed_puzzles(data, message):
    with pytest.raises(PuzzleError, match=message):
        futoshiki.from_dict(data)


def test_counting_stops_at_the_limit():
    empty_signs = futoshiki.Futoshiki(4, {}, [])
    assert count_solutions(empty_signs, limit=2).count == 2
    assert count_solutions(empty_signs, limit=5).count == 5


def test_cage_arithmetic_keeps_only_fitting_values():
    puzzle = kenken.from_dict(_kenken(FULL_3))
    result = solve_logically(puzzle, max_level=TECHNIQUE_LEVELS[CAGE_ARITHMETIC])
    # The one-cell cages give 3 and 1 in row 1; 5 = 3 + 2 down column 2 follows.
    assert count_solutions(puzzle).count == 1
    assert result.status == "solved"
    assert puzzle.is_solution(puzzle.grid_from_masks(result.cands))
    assert {step.technique for step in result.steps} <= {
        NAKED_SINGLE,
        HIDDEN_SINGLE,
        CAGE_ARITHMETIC,
    }


def test_operator_chain_trims_both_ends_of_a_chain():
    # a < b < c < d along the first row of a 4 x 4: the row is forced to 1 2 3 4.
    relations = [futoshiki.Relation((0, c), (0, c + 1), "<") for c in range(3)]
    puzzle = futoshiki.Futoshiki(4, {}, relations)
    cands = puzzle.initial_candidates()
    puzzle.narrow(cands)
    assert cands[:4] == [bit(1), bit(2), bit(3), bit(4)]


def test_logical_solution_of_generated_puzzles_is_their_solution():
    latin_kinds = [kind for kind in KINDS.values() if kind.play is latin_play]
    assert len(latin_kinds) >= 3  # KenKen, Futoshiki and their variants
    for kind in latin_kinds:
        for seed in range(5):
            made = kind.generate(size=5, seed=seed)
            result = solve_logically(made.puzzle)
            assert result.status == "solved"
            assert made.puzzle.grid_from_masks(result.cands) == made.solution


def test_plain_backtracking_agrees_on_a_generated_puzzle():
    made = kenken.generate(size=4, seed=11)
    assert plain_backtracking_count(made.puzzle) == 1


def test_hints_in_the_order_of_seed_003():
    relations = [futoshiki.Relation((0, c), (0, c + 1), "<") for c in range(3)]
    puzzle = futoshiki.Futoshiki(4, {}, relations)
    empty = [[0] * 4 for _ in range(4)]
    hint = find_hint(puzzle, empty)
    assert hint is not None
    assert (hint.kind, hint.cell, hint.value) == ("single_candidate", (0, 0), 1)
    # A 4 in (1, 0) and 3 in (2, 0) leave (0, 0) with nothing once the chain applies.
    wrong = [row[:] for row in empty]
    wrong[1][0] = 1
    hint = find_hint(puzzle, wrong)
    assert hint is not None
    assert hint.kind == "no_candidate"
    assert hint.cell[0] == 0


def test_hint_single_place_in_a_row():
    puzzle = futoshiki.Futoshiki(4, {}, [])
    grid = [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    hint = find_hint(puzzle, grid)
    assert hint is not None
    assert (hint.kind, hint.cell, hint.value) == ("single_place", (0, 3), 1)


def test_entries_are_tagged_with_the_simplest_justifying_technique():
    relations = [futoshiki.Relation((0, c), (0, c + 1), "<") for c in range(3)]
    puzzle = futoshiki.Futoshiki(4, {}, relations)
    empty = [[0] * 4 for _ in range(4)]
    assert justify_entry(puzzle, empty, (0, 0), 1) == OPERATOR_CHAIN
    assert justify_entry(puzzle, empty, (0, 0), 2) == NOT_JUSTIFIED
    assert justify_entry(puzzle, empty, (1, 0), 2) == NOT_JUSTIFIED
    row_done = [[1, 2, 3, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    grid = [row[:] for row in row_done]
    grid[1] = [2, 1, 4, 0]
    assert justify_entry(puzzle, grid, (1, 3), 3) == NAKED_SINGLE


def test_registry_refuses_unknown_kinds():
    with pytest.raises(PuzzleError, match="unknown puzzle kind"):
        get_kind("sudoku")


def test_a_sub_kind_is_graded_on_the_ladder_of_the_base_kind_the_registry_names():
    from puzzles.engines.grading import LADDER_OF, ladder_kind

    sub_kinds = {kind.name: kind.base_kind for kind in KINDS.values() if kind.base_kind}
    assert sub_kinds == LADDER_OF
    for name, base_kind in sub_kinds.items():
        assert ladder_kind(name) == base_kind
        assert base_kind in KINDS
        assert not KINDS[base_kind].base_kind  # one step to a kind of its own
