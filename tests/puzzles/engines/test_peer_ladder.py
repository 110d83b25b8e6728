"""Engine version 3's ladder, after the levels of Keen and Unequal: each rung on a
hand-made position that needs exactly it."""

from __future__ import annotations

import pytest

from puzzles.engines import futoshiki, kenken
from puzzles.engines.grading import (
    LADDER_V2,
    LADDER_V3,
    any_subsets,
    closure,
    grade,
    level_of,
    x_wing,
)
from puzzles.engines.latin import bit, mask_of
from puzzles.engines.peer_techniques import BIVALUE_CHAIN, FISH, bivalue_chain, fish
from puzzles.engines.solver import CAGE_ARITHMETIC, OPERATOR_CHAIN, propagate


def _l_cage_puzzle() -> kenken.KenKen:
    # The L-shaped cage (0,0) (0,1) (1,0) with + 10 on 4x4 has two fillings, 2,4,4 and
    # 4,3,3: per cell (0,0) is 2 or 4, (0,1) and (1,0) are 3 or 4; the cage's digits
    # are 2, 3 and 4.
    return kenken.KenKen(
        4,
        [
            kenken.Cage(((0, 0), (0, 1), (1, 0)), "+", 10),
            kenken.Cage(((0, 2), (0, 3)), "+", 3),
            kenken.Cage(((1, 1), (1, 2), (1, 3)), "+", 6),
            kenken.Cage(((2, 0), (2, 1), (2, 2), (2, 3)), "+", 10),
            kenken.Cage(((3, 0), (3, 1), (3, 2), (3, 3)), "+", 10),
        ],
    )


def test_keen_easy_knows_a_cages_digits_and_normal_which_cell_takes_which():
    puzzle = _l_cage_puzzle()
    easy, normal = puzzle.narrow_stages()
    digits = puzzle.initial_candidates()
    assert easy(digits)
    assert digits[0] == digits[1] == digits[4] == mask_of(2, 3, 4)
    assert digits[2] == digits[3] == mask_of(1, 2)
    per_cell = puzzle.initial_candidates()
    assert normal(per_cell)
    assert per_cell[0] == mask_of(2, 4)
    assert per_cell[1] == per_cell[4] == mask_of(3, 4)


def test_a_puzzle_solved_by_the_cages_positions_is_normal_not_easy():
    made = kenken.generate(size=4, seed=3, difficulty="normal")
    puzzle = made.puzzle
    assert closure(puzzle, level=1).status == "stuck"
    assert closure(puzzle, level=2).status == "solved"
    found = grade(puzzle)
    assert (found.rank, found.label, found.hardest) == (2, "normal", CAGE_ARITHMETIC)


def test_unequal_trivial_ignores_the_signs_and_easy_uses_them():
    puzzle = futoshiki.Futoshiki(4, {}, [futoshiki.Relation((0, 0), (0, 1), "<")])
    trivial, easy = puzzle.narrow_stages()
    cands = puzzle.initial_candidates()
    assert trivial(cands) is False
    assert cands == puzzle.initial_candidates()
    assert easy(cands)
    assert cands[0] == mask_of(1, 2, 3)
    assert cands[1] == mask_of(2, 3, 4)


def test_a_futoshiki_that_needs_its_signs_is_easy_and_one_of_givens_only_trivial():
    needs_signs = futoshiki.generate(size=5, seed=2, difficulty="easy")
    assert closure(needs_signs.puzzle, level=1).status == "stuck"
    assert grade(needs_signs.puzzle).hardest == OPERATOR_CHAIN
    givens_only = futoshiki.generate(size=5, seed=2, difficulty="trivial")
    assert closure(givens_only.puzzle, level=1).status == "solved"
    assert grade(givens_only.puzzle).label == "trivial"


def test_adjacent_easy_narrows_only_from_placed_values():
    # Bars (0,0)-(0,1) and (0,1)-(0,2); every other pair of neighbours is not one apart.
    puzzle = futoshiki.AdjacentFutoshiki(5, {(0, 0): 3}, [((0, 0), (0, 1)), ((0, 1), (0, 2))])
    trivial, from_placed, every = puzzle.narrow_stages()
    cands = puzzle.initial_candidates()
    propagate(puzzle, cands, trivial)
    placed = list(cands)
    assert from_placed(placed)
    assert placed[1] == mask_of(2, 4)  # across the bar from the 3
    assert placed[5] == mask_of(1, 5)  # below the 3, no bar: not 2 or 4 (3 is in its column)
    assert placed[2] == cands[2] == mask_of(1, 2, 4, 5)  # no placed neighbour: unchanged
    full = list(placed)
    assert every(full)
    # Across the bar from (0,1)'s 2 or 4: 1, 3 or 5, and 3 is in the row already.
    assert full[2] == mask_of(1, 5)


def test_a_swordfish_is_a_fish_of_three_lines_that_the_x_wing_misses():
    # On 6x6, value 1 only in columns 0, 1 and 2 of rows 0, 1 and 2 (each row two of
    # them, no two rows the same two): 1 leaves those columns' cells in rows 3 to 5.
    puzzle = futoshiki.Futoshiki(6, {}, [])
    cands = [puzzle.geometry.full] * 36
    no_one = mask_of(2, 3, 4, 5, 6)
    for r, allowed in ((0, (0, 1)), (1, (1, 2)), (2, (0, 2))):
        for c in range(6):
            if c not in allowed:
                cands[r * 6 + c] = no_one
    assert x_wing(puzzle, cands) is None
    assert any_subsets(puzzle, cands) is None
    step = fish(puzzle, cands)
    assert step is not None
    assert step.technique == FISH
    assert step.removed == {r * 6 + c: bit(1) for r in (3, 4, 5) for c in (0, 1, 2)}


def test_a_bivalue_chain_removes_the_start_value_from_a_cell_that_sees_both_ends():
    # (0,0) is 1 or 2, (0,1) 2 or 3, (1,1) 1 or 3: if (0,0) is not 1 it is 2, so (0,1)
    # is 3 and (1,1) is 1. Either way (1,0), seeing (0,0) and (1,1), is not 1.
    puzzle = futoshiki.Futoshiki(4, {}, [])
    cands = [puzzle.geometry.full] * 16
    cands[0], cands[1], cands[5] = mask_of(1, 2), mask_of(2, 3), mask_of(1, 3)
    step = bivalue_chain(puzzle, cands)
    assert step is not None
    assert step.technique == BIVALUE_CHAIN
    assert step.removed == {4: bit(1)}
    assert step.cause == [0, 1, 5]


def test_a_chain_that_does_not_come_back_to_the_start_value_deduces_nothing():
    puzzle = futoshiki.Futoshiki(4, {}, [])
    cands = [puzzle.geometry.full] * 16
    cands[0], cands[1] = mask_of(1, 2), mask_of(2, 3)
    assert bivalue_chain(puzzle, cands) is None


@pytest.mark.parametrize(
    ("kind", "label", "rank"),
    [
        ("kenken", "easy", 1),
        ("kenken", "trivial", 1),
        ("kenken", "medium", 2),
        ("kenken", "tricky", 3),
        ("kenken", "expert", 5),
        ("futoshiki", "trivial", 1),
        ("futoshiki", "easy", 2),
        ("futoshiki", "medium", 2),
        ("futoshiki", "normal", 2),
        ("futoshiki", "tricky", 3),
        ("futoshiki", "hard", 3),
        ("futoshiki", "extreme", 4),
        ("futoshiki", "unreasonable", 5),
        ("futoshiki-adjacent", "trivial", 1),
        ("kenken-multiply", "unreasonable", 5),
    ],
)
def test_level_names_and_aliases_take_the_peers_rank(kind, label, rank):
    assert level_of(kind, label) == rank


def test_both_ladders_name_five_levels_and_keep_keens_names():
    for ladders in (LADDER_V2, LADDER_V3):
        for ladder in ladders.values():
            assert len(ladder.levels) == 5
    assert LADDER_V3["kenken"].levels == LADDER_V2["kenken"].levels
    assert LADDER_V3["futoshiki"].levels == ("trivial", "easy", "tricky", "extreme", "recursive")


@pytest.mark.parametrize("engine_version", [2, 3])
def test_each_engine_version_grades_its_puzzles_on_its_own_ladder(engine_version):
    made = futoshiki.generate(size=5, seed=7, difficulty="extreme", engine_version=engine_version)
    ladder = (LADDER_V2 if engine_version == 2 else LADDER_V3)["futoshiki"]
    assert made.to_dict()["engine_version"] == engine_version
    assert grade(made.puzzle, ladder=ladder).label == "extreme"
