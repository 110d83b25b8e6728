"""200 generated puzzles of each kind across sizes 4 to 7: unique, and the stored solution fits."""

from __future__ import annotations

import pytest

from puzzles.engines import futoshiki, kenken
from puzzles.engines.base import Generated
from puzzles.engines.registry import KINDS
from puzzles.engines.solver import Difficulty, count_solutions

SIZES = (4, 5, 6, 7)
PER_SIZE = 50  # 4 sizes x 50 = 200 puzzles of each kind


def _cages_hold(made: Generated[kenken.KenKen, Difficulty]) -> None:
    grid = made.solution
    for cage in made.puzzle.cages:
        values = [grid[r][c] for r, c in cage.cells]
        assert kenken.operation_result(cage.op, values) == cage.target, cage
        if cage.op in "-/":
            assert len(cage.cells) == 2
        if cage.op == "=":
            assert len(cage.cells) == 1


def _signs_hold(made: Generated[futoshiki.Futoshiki, Difficulty]) -> None:
    grid = made.solution
    for rel in made.puzzle.relations:
        a = grid[rel.a[0]][rel.a[1]]
        b = grid[rel.b[0]][rel.b[1]]
        assert (a < b) if rel.op == "<" else (a > b), rel
    for (r, c), value in made.puzzle.givens.items():
        assert grid[r][c] == value


def _latin(grid: list[list[int]]) -> bool:
    n = len(grid)
    full = set(range(1, n + 1))
    return all(set(row) == full for row in grid) and all(
        {grid[r][c] for r in range(n)} == full for c in range(n)
    )


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_generated_kenken_are_unique_and_their_solution_fits(size):
    for seed in range(PER_SIZE):
        made = kenken.generate(size=size, seed=1000 + seed)
        assert _latin(made.solution)
        _cages_hold(made)
        assert count_solutions(made.puzzle, limit=2).count == 1
        assert max(len(c.cells) for c in made.puzzle.cages) <= kenken.default_max_cage(size)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_generated_futoshiki_are_unique_and_their_solution_fits(size):
    for seed in range(PER_SIZE):
        difficulty = ("easy", None)[seed % 2]  # these never give up (a level may)
        made = futoshiki.generate(size=size, seed=2000 + seed, difficulty=difficulty)
        assert _latin(made.solution)
        _signs_hold(made)
        assert count_solutions(made.puzzle, limit=2).count == 1


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_returns_the_shared_generated(name: str) -> None:
    """One type for every kind (puzzles.engines.base.Generated): the seed asked for, the
    kind's engine version, and the JSON the services store (with its solution), the same
    for the same seed."""
    kind = KINDS[name]
    size = min(kind.default_size, 5) if kind.min_size <= 5 else kind.default_size
    made = kind.generate(size=size, seed=12)
    assert type(made) is Generated
    assert made.seed == 12
    assert made.engine_version == kind.engine_version
    assert made.to_dict() == kind.generate(size=size, seed=12).to_dict()
    assert made.to_dict()["solution"]  # what the services store as the puzzle's solution
