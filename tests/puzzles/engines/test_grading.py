"""Engine version 2's grading ladder: each technique on a hand-made position that needs
exactly it (version 3's, after Keen's and Unequal's levels: test_peer_ladder.py)."""

from __future__ import annotations

import pytest

from puzzles.engines import futoshiki, kenken
from puzzles.engines.grading import (
    CAGE_MUST_CONTAIN,
    DOUBLE_SIGN,
    FORCING_CHAIN,
    HIDDEN_PAIR,
    HIDDEN_SUBSET,
    LADDER_V2,
    NAKED_SUBSET,
    SIGN_CHAIN_BOUNDS,
    X_WING,
    cage_must_contain,
    closure,
    double_sign,
    forcing_chain,
    grade,
    larger_subsets,
    level_of,
    pairs,
    sign_chain_bounds,
    solves_at,
    x_wing,
)
from puzzles.engines.latin import PuzzleError, bit, mask_of
from puzzles.engines.solver import NAKED_PAIR, propagate


def _blank(size: int) -> futoshiki.Futoshiki:
    """A grid with no givens and no signs: only the Latin rule."""
    return futoshiki.Futoshiki(size, {}, [])


def _signs(size: int, *relations: tuple[tuple[int, int], tuple[int, int], str]):
    return futoshiki.Futoshiki(size, {}, [futoshiki.Relation(a, b, op) for a, b, op in relations])


def _basic(puzzle) -> list[int]:
    """Level 1 in bulk; the position must be stuck there (nothing left for level 1)."""
    cands = puzzle.initial_candidates()
    assert propagate(puzzle, cands)
    again = list(cands)
    assert propagate(puzzle, again)
    assert again == cands
    return cands


def test_naked_pair_removes_its_two_values_from_the_line():
    puzzle = _blank(4)
    cands = [puzzle.geometry.full] * 16
    cands[0] = cands[1] = mask_of(1, 2)
    step = pairs(puzzle, cands)
    assert step is not None
    assert step.technique == NAKED_PAIR
    assert step.removed == {2: mask_of(1, 2), 3: mask_of(1, 2)}


def test_hidden_pair_keeps_only_its_two_values_in_its_two_cells():
    puzzle = _blank(5)
    cands = [puzzle.geometry.full] * 25
    cands[0], cands[1] = mask_of(1, 2, 3), mask_of(1, 2, 4)
    cands[2] = cands[3] = cands[4] = mask_of(3, 4, 5)
    step = pairs(puzzle, cands)
    assert step is not None
    assert step.technique == HIDDEN_PAIR
    assert step.removed == {0: bit(3), 1: bit(4)}


def test_a_triple_is_beyond_pairs_and_found_by_larger_subsets():
    puzzle = _blank(6)
    cands = [puzzle.geometry.full] * 36
    cands[0], cands[1], cands[2] = mask_of(1, 2), mask_of(2, 3), mask_of(1, 3)
    assert pairs(puzzle, cands) is None
    step = larger_subsets(puzzle, cands)
    assert step is not None
    assert step.technique in (NAKED_SUBSET, HIDDEN_SUBSET)
    assert step.removed == {3: mask_of(1, 2, 3), 4: mask_of(1, 2, 3), 5: mask_of(1, 2, 3)}


def test_x_wing_removes_the_value_from_the_two_columns():
    puzzle = _blank(4)
    cands = [puzzle.geometry.full] * 16
    for index in (2, 3, 10, 11):  # value 1 only in columns 0 and 1 of rows 0 and 2
        cands[index] = mask_of(2, 3, 4)
    assert pairs(puzzle, cands) is None
    assert larger_subsets(puzzle, cands) is None
    step = x_wing(puzzle, cands)
    assert step is not None
    assert step.technique == X_WING
    assert step.removed == {4: bit(1), 5: bit(1), 12: bit(1), 13: bit(1)}


def test_cage_must_contain_clears_the_digit_from_the_rest_of_the_row_and_column():
    # L-shaped cage (0,0) (0,1) (1,0) with + 10 on 4x4: its fillings are 2,4,4 and
    # 4,3,3 (a, b, c), so 4 is in row 0 and in column 0 within the cage either way.
    cages = [
        kenken.Cage(((0, 0), (0, 1), (1, 0)), "+", 10),
        kenken.Cage(((0, 2), (0, 3)), "+", 3),
        kenken.Cage(((1, 1), (1, 2), (1, 3)), "+", 6),
        kenken.Cage(((2, 0), (2, 1), (2, 2), (2, 3)), "+", 10),
        kenken.Cage(((3, 0), (3, 1), (3, 2), (3, 3)), "+", 10),
    ]
    puzzle = kenken.KenKen(4, cages)
    cands = [puzzle.geometry.full] * 16
    cands[0], cands[1], cands[4] = mask_of(2, 4), mask_of(3, 4), mask_of(3, 4)
    assert pairs(puzzle, cands) is None
    assert larger_subsets(puzzle, cands) is None
    step = cage_must_contain(puzzle, cands)
    assert step is not None
    assert step.technique == CAGE_MUST_CONTAIN
    assert step.removed == {2: bit(4), 3: bit(4)}
    cands[2] &= ~bit(4)
    cands[3] &= ~bit(4)
    step = cage_must_contain(puzzle, cands)
    assert step is not None
    assert step.removed == {8: bit(4), 12: bit(4)}


def test_double_sign_raises_the_floor_of_a_cell_above_two_neighbours_of_its_row():
    # (0,0) < (0,1) > (0,2) on 5x5: the pair rule leaves (0,1) 2..5; it exceeds two
    # different values, so it is at least 3.
    puzzle = _signs(5, ((0, 0), (0, 1), "<"), ((0, 1), (0, 2), ">"))
    cands = _basic(puzzle)
    assert cands[1] == mask_of(2, 3, 4, 5)
    assert pairs(puzzle, cands) is None
    step = double_sign(puzzle, cands)
    assert step is not None
    assert step.technique == DOUBLE_SIGN
    assert step.removed == {1: bit(2)}


def test_double_sign_lowers_the_ceiling_of_a_cell_below_two_neighbours():
    # (0,0) > (1,0) < (2,0): (1,0) is below two different values, so at most 3.
    puzzle = _signs(5, ((0, 0), (1, 0), ">"), ((1, 0), (2, 0), "<"))
    cands = _basic(puzzle)
    assert cands[5] == mask_of(1, 2, 3, 4)
    step = double_sign(puzzle, cands)
    assert step is not None
    assert step.removed == {5: bit(4)}


def test_sign_chain_bounds_count_every_cell_of_the_line_below():
    # (0,0) < (0,1) > (0,2) > (0,3): three cells of row 0 lie below (0,1), so it is
    # at least 4; the pair rule gives 3..5 and the double-sign rule nothing more.
    puzzle = _signs(5, ((0, 0), (0, 1), "<"), ((0, 1), (0, 2), ">"), ((0, 2), (0, 3), ">"))
    cands = _basic(puzzle)
    assert cands[1] == mask_of(3, 4, 5)
    assert double_sign(puzzle, cands) is None
    assert pairs(puzzle, cands) is None
    step = sign_chain_bounds(puzzle, cands)
    assert step is not None
    assert step.technique == SIGN_CHAIN_BOUNDS
    assert step.removed == {1: bit(3)}


# Found by the generator and kept as fixed positions: seven signs on 4x4 that need a
# forcing chain, and thirteen on 5x5 that need search.
FORCING_4 = [
    ((0, 0), (1, 0), ">"),
    ((0, 1), (0, 2), "<"),
    ((1, 2), (1, 3), "<"),
    ((1, 3), (2, 3), "<"),
    ((2, 0), (2, 1), ">"),
    ((2, 2), (3, 2), "<"),
    ((3, 0), (3, 1), ">"),
]
SEARCH_5 = [
    ((0, 0), (1, 0), ">"),
    ((0, 1), (1, 1), ">"),
    ((0, 2), (0, 3), "<"),
    ((1, 2), (1, 3), ">"),
    ((1, 3), (1, 4), "<"),
    ((2, 0), (2, 1), ">"),
    ((2, 1), (2, 2), ">"),
    ((2, 4), (3, 4), ">"),
    ((3, 0), (3, 1), ">"),
    ((3, 0), (4, 0), ">"),
    ((4, 1), (4, 2), ">"),
    ((4, 2), (4, 3), "<"),
    ((4, 3), (4, 4), "<"),
]


V2 = LADDER_V2["futoshiki"]


def test_forcing_chain_solves_what_the_lower_levels_cannot():
    puzzle = _signs(4, *FORCING_4)
    stuck = closure(puzzle, level=3, ladder=V2)
    assert stuck.status == "stuck"
    step = forcing_chain(puzzle, stuck.cands)
    assert step is not None
    assert step.technique == FORCING_CHAIN
    assert closure(puzzle, level=4, ladder=V2).status == "solved"
    assert grade(puzzle, ladder=V2).label == "extreme"
    # Unequal's forcing chains follow two-candidate cells only: not enough here.
    assert grade(puzzle).label == "recursive"


def test_search_is_the_top_level():
    puzzle = _signs(5, *SEARCH_5)
    assert closure(puzzle, level=4, ladder=V2).status == "stuck"
    found = grade(puzzle, ladder=V2)
    assert (found.rank, found.label, found.hardest) == (5, "recursive", "search")
    assert solves_at(puzzle, 5, ladder=V2)
    assert not solves_at(puzzle, 4, ladder=V2)
    assert grade(puzzle).label == "recursive"


@pytest.mark.parametrize(
    ("kind", "label", "rank"),
    [
        ("kenken", "easy", 1),
        ("kenken", "medium", 2),
        ("kenken", "normal", 2),
        ("kenken", "unreasonable", 5),
        ("kenken", "expert", 5),
        ("futoshiki", "tricky", 2),
        ("futoshiki", "medium", 2),
        ("futoshiki", "hard", 3),
        ("futoshiki", "recursive", 5),
        ("futoshiki", "expert", 5),
        ("futoshiki", "unreasonable", 5),
        ("kenken", "tricky", 2),
    ],
)
def test_engine_version_2_names_and_aliases(kind, label, rank):
    assert level_of(kind, label, ladder=LADDER_V2[kind]) == rank


def test_an_unknown_level_is_refused_with_the_accepted_list():
    with pytest.raises(PuzzleError, match="futoshiki: difficulty must be one of trivial, easy"):
        level_of("futoshiki", "insane")
    with pytest.raises(PuzzleError, match="futoshiki: difficulty must be one of easy, tricky"):
        level_of("futoshiki", "insane", ladder=V2)
    with pytest.raises(PuzzleError, match="kenken: difficulty must be one of easy, normal"):
        level_of("kenken", "brutal")
