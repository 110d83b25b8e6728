"""The solution counter against a plain backtracking counter, on small random puzzles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.engines import futoshiki, kenken
from puzzles.engines.latin import random_latin_square
from puzzles.engines.rng import Rng
from puzzles.engines.solver import count_solutions, plain_backtracking_count, solve_logically

LIMIT = 6


@st.composite
def small_kenken(draw: st.DrawFn) -> kenken.KenKen:
    size = draw(st.integers(3, 4))
    rng = Rng(draw(st.integers(0, 2**32)))
    solution = random_latin_square(size, rng)
    groups = kenken.grow_cages(size, rng, draw(st.integers(2, 4)))
    cages = [kenken.pick_operation(cells, solution, rng) for cells in groups]
    # Some targets off by one, so that puzzles without a solution are drawn too.
    bumped = draw(st.lists(st.integers(0, len(cages) - 1), max_size=2))
    for number in bumped:
        cage = cages[number]
        cages[number] = kenken.Cage(cage.cells, cage.op, cage.target + 1)
    return kenken.KenKen(size, cages)


@st.composite
def small_futoshiki(draw: st.DrawFn) -> futoshiki.Futoshiki:
    size = 4
    cells = [(r, c) for r in range(size) for c in range(size)]
    given_cells = draw(st.lists(st.sampled_from(cells), max_size=4, unique=True))
    givens = {cell: draw(st.integers(1, size)) for cell in given_cells}
    pairs = [((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=8, unique=True))
    relations = [futoshiki.Relation(a, b, draw(st.sampled_from("<>"))) for a, b in chosen]
    return futoshiki.Futoshiki(size, givens, relations)


@settings(max_examples=60, deadline=None)
@given(small_kenken())
def test_kenken_counts_agree_with_plain_backtracking(puzzle):
    fast = count_solutions(puzzle, limit=LIMIT)
    assert fast.count == plain_backtracking_count(puzzle, limit=LIMIT)
    assert all(puzzle.is_solution(grid) for grid in fast.solutions)


@settings(max_examples=60, deadline=None)
@given(small_futoshiki())
def test_futoshiki_counts_agree_with_plain_backtracking(puzzle):
    fast = count_solutions(puzzle, limit=LIMIT)
    assert fast.count == plain_backtracking_count(puzzle, limit=LIMIT)
    assert all(puzzle.is_solution(grid) for grid in fast.solutions)


@settings(max_examples=40, deadline=None)
@given(st.one_of(small_kenken(), small_futoshiki()))
def test_logical_solver_never_removes_the_solution(puzzle):
    """Every technique is sound: when there is one solution, the solver ends on it."""
    counted = count_solutions(puzzle, limit=2)
    result = solve_logically(puzzle)
    if counted.count == 1:
        assert result.status == "solved"
        assert puzzle.grid_from_masks(result.cands) == counted.solutions[0]
    elif counted.count == 0:
        assert result.status == "contradiction"
