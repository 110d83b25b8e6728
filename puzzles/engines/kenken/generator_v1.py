"""KenKen generation, engine version 1, kept unchanged so that its puzzles can be
regenerated from their seed.

Apart from :mod:`puzzles.engines.kenken.generator` because nothing here may
change: a stored version-1 puzzle must come back the same from its seed.
"""

from __future__ import annotations

from puzzles.engines.base import Generated
from puzzles.engines.kenken.drawing import (
    CAGE_DRAWS,
    OPERATION_DRAWS,
    _split_off,
    grow_cages,
    pick_operation,
)
from puzzles.engines.kenken.puzzle import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, KenKen, generated_dict
from puzzles.engines.latin import Grid, PuzzleError, random_latin_square
from puzzles.engines.rng import Rng
from puzzles.engines.solver import DIFFICULTY_MAX_LEVEL, Difficulty, count_solutions, rate

# The largest cage of version 1, and the unique puzzles it draws looking for a difficulty.
DEFAULT_MAX_CAGE = 4
DIFFICULTY_ATTEMPTS = 12


def _unique_kenken(size: int, rng: Rng, max_cage: int) -> tuple[KenKen, Grid]:
    """Draw until unique: operations again where solutions differ, then split a cell off."""
    while True:
        solution = random_latin_square(size, rng)
        for _ in range(CAGE_DRAWS):
            groups = grow_cages(size, rng, max_cage)
            cages = [pick_operation(cells, solution, rng) for cells in groups]
            for repair in range(OPERATION_DRAWS + size):
                puzzle = KenKen(size, cages)
                found = count_solutions(puzzle, limit=2)
                if found.count == 1:
                    return puzzle, solution
                other = next(s for s in found.solutions if s != solution)
                differing = {
                    (r, c)
                    for r in range(size)
                    for c in range(size)
                    if other[r][c] != solution[r][c]
                }
                if repair >= OPERATION_DRAWS:
                    if not _split_off(cages, differing, solution, rng):
                        break
                    continue
                for number, cage in enumerate(cages):
                    if differing.intersection(cage.cells):
                        cages[number] = pick_operation(cage.cells, solution, rng, avoid=cage.op)


def _distance(level: int, label: str) -> int:
    top = DIFFICULTY_MAX_LEVEL[label]
    bottom = max((v for v in DIFFICULTY_MAX_LEVEL.values() if v < top), default=0) + 1
    if level < bottom:
        return bottom - level
    return max(0, level - top)


def generate_v1(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    max_cage: int = DEFAULT_MAX_CAGE,
) -> Generated[KenKen, Difficulty]:
    """Engine version 1 (kept unchanged so that its puzzles can be regenerated from their seed).

    With ``difficulty``, up to DIFFICULTY_ATTEMPTS unique puzzles are drawn and
    the first of that difficulty is kept (else the closest one).
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    if difficulty is not None and difficulty not in DIFFICULTY_MAX_LEVEL:
        raise PuzzleError(f"difficulty must be one of {', '.join(DIFFICULTY_MAX_LEVEL)}")
    if not 2 <= max_cage <= 6:
        raise PuzzleError("max_cage must be between 2 and 6")
    rng = Rng(seed)
    best: Generated[KenKen, Difficulty] | None = None
    for _ in range(DIFFICULTY_ATTEMPTS if difficulty else 1):
        puzzle, solution = _unique_kenken(size, rng, max_cage)
        rating = rate(puzzle)
        assert rating is not None  # noqa: S101 - a unique puzzle is solved with search
        candidate = Generated(
            puzzle, seed, solution, rating, engine_version=1, describe=generated_dict
        )
        if difficulty is None or rating.label == difficulty:
            return candidate
        if best is None or _distance(rating.level, difficulty) < _distance(
            best.difficulty.level, difficulty
        ):
            best = candidate
    assert best is not None  # noqa: S101
    return best
