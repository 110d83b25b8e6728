"""The game IDs of Simon Tatham's collection written for our puzzles, and the
readers of what its solvers print (bench/peer_format.py).

The expected IDs were worked out by hand from the format rules in the module
docstring; the property tests read IDs of generated puzzles back with small
decoders written here from the same rules.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.peer_format import (
    AMBIGUOUS,
    IMPOSSIBLE,
    STUCK,
    dominosa_id,
    keen_blocks,
    keen_id,
    parse_dominosa,
    parse_keen_grade,
    parse_keen_solution,
    parse_unequal,
    unequal_digit,
    unequal_id,
)
from puzzles.engines import kenken, twomino
from puzzles.engines.futoshiki import Futoshiki, Relation
from puzzles.engines.kenken import Cage, KenKen

# 1 2 3 / 2 3 1 / 3 1 2 in five cages:
#   A A B      A: 1+2 = 3     B: 3-1 = 2 (down the right edge)
#   C D B      C: 2x3 = 6     D: 3/1 = 3
#   C D E      E: the single cell 2
SMALL_KENKEN = KenKen(
    3,
    [
        Cage(((0, 0), (0, 1)), "+", 3),
        Cage(((0, 2), (1, 2)), "-", 2),
        Cage(((1, 0), (2, 0)), "x", 6),
        Cage(((1, 1), (2, 1)), "/", 3),
        Cage(((2, 2),), "=", 2),
    ],
)


def test_keen_id_of_a_hand_made_kenken() -> None:
    # Vertical lines row by row: A|A inside, then five separating ones: a _ _ _ _ _.
    # Horizontal lines column by column: A/C line, C/C inside, A/D line, D/D inside,
    # B/B inside, B/E line: _ a b; the closing line: _.  "_____" squeezes to "_5".
    # Clues by first cell: A (0,0), B (0,2), C (1,0), D (1,1), E (2,2).
    assert keen_id(SMALL_KENKEN) == "3:a_5ab_,a3s2m6d3a2"


def test_keen_clues_follow_the_first_cell_not_the_cage_order() -> None:
    reordered = KenKen(3, list(reversed(SMALL_KENKEN.cages)))
    assert keen_id(reordered) == keen_id(SMALL_KENKEN)


def test_keen_blocks_write_a_pair_of_letters_twice_and_longer_runs_with_a_count() -> None:
    # Columns as cages: the six vertical lines all separate ("_" six times), the six
    # horizontal ones are inside, so the closing line comes after a run of 6 ("f").
    columns = [[0, 1, 2], [0, 1, 2], [0, 1, 2]]
    assert keen_blocks(columns) == "_6f"
    # Rows as cages: six vertical lines inside, so the first horizontal line comes
    # after a run of 6 ("f"); it and the other five and the closing line separate.
    rows = [[0, 0, 0], [1, 1, 1], [2, 2, 2]]
    assert keen_blocks(rows) == "f_6"
    # Two dominoes on the left of the top rows: each row starts with an inside line
    # and a separating one ("a", twice, written twice); all nine lines after separate.
    dominoes = [[0, 0, 1], [2, 2, 3], [4, 5, 6]]
    assert keen_blocks(dominoes) == "aa_9"


def test_keen_blocks_refuse_a_run_the_format_cannot_say() -> None:
    one_cage = [[0] * 6 for _ in range(6)]
    with pytest.raises(ValueError, match="cannot be written"):
        keen_blocks(one_cage)


def test_unequal_id_of_a_hand_made_futoshiki() -> None:
    puzzle = Futoshiki(
        4,
        {(0, 0): 1, (3, 3): 2},
        [
            Relation((0, 1), (0, 2), "<"),  # (0,2) is greater than its left neighbour: L
            Relation((1, 0), (2, 0), ">"),  # (1,0) greater than the cell below: D
            Relation((2, 3), (1, 3), "<"),  # (1,3) greater than the cell below: D
            Relation((3, 1), (2, 1), ">"),  # (3,1) greater than the cell above: U
            Relation((3, 1), (3, 2), ">"),  # ... and than its right neighbour: R (after U)
        ],
    )
    assert unequal_id(puzzle) == "4:1,0,0L,0,0D,0,0,0D,0,0,0,0,0,0UR,0,2,"


def test_dominosa_id_sends_the_board_transposed() -> None:
    board = twomino.Puzzle(
        size=3,
        seed=None,
        grid=((0, 1, 2), (0, 1, 2), (1, 2, 0), (2, 0, 1)),
        locked=frozenset(),
        solution=(),
    )
    # Peer rows are our columns read downwards: 0012, 1120, 2201; n = N - 1 = 2.
    assert dominosa_id(board) == "2:001211202201"


# -- generated puzzles, read back ---------------------------------------------------


def _expand(blocks: str) -> list[int]:
    """The run lengths of a Keen block string (``_`` 0, ``a`` 1 ...), counts expanded."""
    runs: list[int] = []
    i = 0
    while i < len(blocks):
        letter = blocks[i]
        i += 1
        digits = ""
        while i < len(blocks) and blocks[i].isdigit():
            digits += blocks[i]
            i += 1
        value = 0 if letter == "_" else ord(letter) - ord("a") + 1
        runs += [value] * (int(digits) if digits else 1)
    return runs


def _read_keen_blocks(blocks: str, w: int) -> set[frozenset[tuple[int, int]]]:
    """The cages (as cell sets) that a Keen block string describes."""
    lines: list[tuple[tuple[int, int], tuple[int, int]]] = [
        ((r, c), (r, c + 1)) for r in range(w) for c in range(w - 1)
    ] + [((r, c), (r + 1, c)) for c in range(w) for r in range(w - 1)]
    parent = {(r, c): (r, c) for r in range(w) for c in range(w)}

    def root(cell: tuple[int, int]) -> tuple[int, int]:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    position = 0
    for run in _expand(blocks):
        for a, b in lines[position : position + run]:
            parent[root(a)] = root(b)
        position += run + 1  # the run, then the separating line
    assert position == len(lines) + 1  # the closing line is the last one
    groups: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for cell in parent:
        groups.setdefault(root(cell), set()).add(cell)
    return {frozenset(cells) for cells in groups.values()}


@settings(max_examples=15, deadline=None)
@given(size=st.integers(min_value=3, max_value=6), seed=st.integers(0, 10**6))
def test_keen_id_of_a_generated_kenken_reads_back_to_its_cages(size: int, seed: int) -> None:
    puzzle = kenken.generate(size=size, seed=seed).puzzle
    params, description = keen_id(puzzle).split(":")
    blocks, clues = description.split(",")
    assert params == str(size)
    assert _read_keen_blocks(blocks, size) == {frozenset(cage.cells) for cage in puzzle.cages}
    ordered = sorted(puzzle.cages, key=lambda cage: min(cage.cells))
    expected = "".join(
        {"+": "a", "=": "a", "x": "m", "-": "s", "/": "d"}[c.op] + str(c.target) for c in ordered
    )
    assert clues == expected


@settings(max_examples=10, deadline=None)
@given(size=st.integers(min_value=3, max_value=12), seed=st.integers(0, 10**6))
def test_dominosa_id_of_a_generated_board_reads_back_transposed(size: int, seed: int) -> None:
    board = twomino.generate(size=size, seed=seed)
    n, description = dominosa_id(board).split(":")
    numbers: list[int] = []
    i = 0
    while i < len(description):
        if description[i] == "[":
            end = description.index("]", i)
            numbers.append(int(description[i + 1 : end]))
            i = end + 1
        else:
            numbers.append(int(description[i]))
            i += 1
    assert int(n) == size - 1
    width = size + 1  # n + 2 columns, n + 1 rows
    assert len(numbers) == size * width
    assert all(
        numbers[c * width + r] == board.grid[r][c] for r in range(width) for c in range(size)
    )
    # The peer checks that each number occurs n + 2 times.
    assert all(numbers.count(v) == size + 1 for v in range(size))


# -- what the solvers print --------------------------------------------------------


def test_parse_keen_grade_reads_levels_and_other_verdicts() -> None:
    assert parse_keen_grade("Difficulty rating: Hard\n").level == "Hard"
    several = parse_keen_grade("Difficulty rating: ambiguous\n")
    assert (several.level, several.unique) == (AMBIGUOUS, False)
    none = parse_keen_grade("Difficulty rating: impossible (no solution exists)\n")
    assert (none.level, none.unique) == (IMPOSSIBLE, False)
    with pytest.raises(ValueError, match="no difficulty rating"):
        parse_keen_grade("keensolver: Invalid character in game description\n")


def test_parse_keen_solution_reads_the_grid() -> None:
    assert parse_keen_solution("1 2 3\n2 3 1\n3 1 2\n", 3) == [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
    assert parse_keen_solution("Unable to find a unique solution\n", 3) is None


def test_parse_unequal_reads_the_verdict_and_the_grid_after_it() -> None:
    text = (
        "    positional elimination, 3 in row 3:\n"
        "      placing 3 at (4,3)\n"
        "Game has difficulty Tricky.\n"
        "1 2<3 4\n"
        "       \n"
        "4 1 2 3\n"
        "v     v\n"
        "2 3 4 1\n"
        "  ^    \n"
        "3 4>1 2\n"
    )
    result = parse_unequal(text, 4)
    assert result.level == "Tricky"
    assert result.solution == [[1, 2, 3, 4], [4, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2]]
    several = parse_unequal("Game has multiple solutions.\n1 . \n    \n. . \n", 2)
    assert (several.level, several.solution) == (AMBIGUOUS, None)
    assert parse_unequal("Game is impossible.\n", 4).level == IMPOSSIBLE


def test_unequal_digits_from_order_10_start_at_0_and_go_on_with_letters() -> None:
    assert [unequal_digit(ch, 9) for ch in "19 ."] == [1, 9, None, None]
    assert [unequal_digit(ch, 11) for ch in "09AB "] == [1, 10, 11, 12, None]


def test_parse_dominosa_needs_the_solving_run_to_see_a_stuck_board() -> None:
    assert parse_dominosa("Difficulty rating: Basic\n", "+---+\n").level == "Basic"
    stuck = parse_dominosa(
        "Difficulty rating: Basic\n", "| 0   0 |\nCould not deduce a unique solution\n"
    )
    assert (stuck.level, stuck.unique) == (STUCK, False)
    assert parse_dominosa("Puzzle is inconsistent\n", "Puzzle is inconsistent\n").level == (
        IMPOSSIBLE
    )
