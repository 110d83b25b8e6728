"""Drawing a KenKen's cages for generation: their shapes, operations and repairs.

Engine version 1 grows cages from random pairs (:func:`grow_cages`); versions 2
and 3 draw cage sizes and grow them (:func:`grow_cages_v2`). Both pick each
cage's operation from the solution and, when a puzzle has a second solution,
change the cages where the two differ. Apart from the generators, which decide
when to draw, repair or stop; every draw here comes from the generator's Rng,
in the same order as ever, so that a seed gives the same puzzle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from puzzles.engines.common import neighbours
from puzzles.engines.kenken.cages import (
    ALL_OPERATIONS,
    MULTIPLY_ONLY,
    Cage,
    _tuples,
    operation_result,
)
from puzzles.engines.latin import Cell, Grid
from puzzles.engines.rng import Rng

# A cell stays alone in a one-cell cage with this chance (numerator, denominator).
SINGLE_CELL_CHANCE = (1, 10)
# A puzzle with two solutions has the operations of its differing cages drawn again up
# to OPERATION_DRAWS times before cages are split; CAGE_DRAWS cage layouts are tried on
# each solution grid before a new grid is drawn.
OPERATION_DRAWS = 3
CAGE_DRAWS = 8

# The largest cage engine versions 2 and 3 draw (below LARGE_GRID_FROM_SIZE, by default).
V2_MAX_CAGE = 6
# Relative weights of the cage sizes drawn by grow_cages_v2 (sizes above max_cage are skipped).
CAGE_SIZE_WEIGHTS = ((2, 30), (3, 30), (4, 20), (5, 12), (6, 8))
# One-cell cages allowed per puzzle (a cell boxed in by full cages, or a repair).
MAX_SINGLE_CELL_CAGES = 1
# The same for multiplication only, whose repairs cannot draw another operation.
MULTIPLY_SINGLE_CELL_CAGES = 1


def _max_single_cell_cages(operations: tuple[str, ...]) -> int:
    return MAX_SINGLE_CELL_CAGES if operations == ALL_OPERATIONS else MULTIPLY_SINGLE_CELL_CAGES


# A cage with more fillings than this takes the other of + and x when it has fewer.
MAX_FILLINGS = 1000


def grow_cages(size: int, rng: Rng, max_cage: int) -> list[list[Cell]]:
    """Cages grown from random pairs that merge when they touch (see the package's docstring)."""
    owner: dict[Cell, int] = {}
    cages: list[list[Cell]] = []
    directions = [(0, -1), (0, 1), (-1, 0), (1, 0)]
    for r in range(size):
        for c in range(size):
            if (r, c) in owner:
                continue
            order = directions[:]
            rng.shuffle(order)
            joined = False
            if not rng.chance(*SINGLE_CELL_CHANCE):
                for dr, dc in order:
                    other = (r + dr, c + dc)
                    if not (0 <= other[0] < size and 0 <= other[1] < size):
                        continue
                    if other not in owner:
                        owner[other] = owner[(r, c)] = len(cages)
                        cages.append([(r, c), other])
                        joined = True
                        break
                    number = owner[other]
                    if len(cages[number]) < max_cage:
                        cages[number].append((r, c))
                        owner[(r, c)] = number
                        joined = True
                        break
            if not joined:
                owner[(r, c)] = len(cages)
                cages.append([(r, c)])
    return [sorted(cells) for cells in cages]


def pick_operation(
    cells: Sequence[Cell],
    solution: Grid,
    rng: Rng,
    avoid: str = "",
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> Cage:
    """An operation for a cage, with its target from the solution."""
    values = [solution[r][c] for r, c in cells]
    if len(cells) == 1:
        return Cage(tuple(cells), "=", values[0])
    if operations == MULTIPLY_ONLY:
        # Nothing to draw: the product is the only clue.
        return Cage(tuple(cells), "x", math.prod(values))
    if len(cells) == 2:
        big, small = max(values), min(values)
        choices = ["-", "-", "+", "x"]
        if big % small == 0:
            choices += ["/", "/", "/"]
    else:
        choices = ["+", "x"]
    if avoid and any(op != avoid for op in choices):
        choices = [op for op in choices if op != avoid]
    op = rng.choice(choices)
    target = operation_result(op, values)
    assert target is not None  # noqa: S101 - the choices above always apply
    return Cage(tuple(cells), op, target)


def _contiguous(cells: Sequence[Cell]) -> bool:
    if not cells:
        return False
    seen = {cells[0]}
    frontier = [cells[0]]
    while frontier:
        cell = frontier.pop()
        for other in cells:
            if other not in seen and neighbours(cell, other):
                seen.add(other)
                frontier.append(other)
    return len(seen) == len(cells)


def _split_off(
    cages: list[Cage],
    differing: set[Cell],
    solution: Grid,
    rng: Rng,
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> bool:
    """Give one cell where two solutions differ a one-cell cage of its own; False if none can."""
    options = []
    for number, cage in enumerate(cages):
        if len(cage.cells) < 2:
            continue
        for cell in cage.cells:
            rest = [c for c in cage.cells if c != cell]
            if cell in differing and _contiguous(rest):
                options.append((number, cell, rest))
    if not options:
        return False
    number, cell, rest = rng.choice(options)
    cages[number] = pick_operation(rest, solution, rng, operations=operations)
    cages.append(pick_operation([cell], solution, rng, operations=operations))
    return True


def _pick_v2(
    cells: Sequence[Cell],
    solution: Grid,
    rng: Rng,
    avoid: str = "",
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> Cage:
    """:func:`pick_operation`, but a cage of three cells or more whose target would have
    more than MAX_FILLINGS fillings takes the other operation (+ or x) when that has fewer
    (a large + cage is slow to analyse and, for a player, mostly a sum to remember)."""
    cage = pick_operation(cells, solution, rng, avoid, operations)
    if (
        operations != ALL_OPERATIONS
        or len(cells) < 3
        or len(_tuples(len(solution), cage.cells, cage.op, cage.target)) <= MAX_FILLINGS
    ):
        return cage
    values = [solution[r][c] for r, c in cells]
    other_op = "x" if cage.op == "+" else "+"
    target = operation_result(other_op, values)
    assert target is not None  # noqa: S101 - + and x apply to any cage
    other = Cage(cage.cells, other_op, target)
    if len(_tuples(len(solution), other.cells, other_op, target)) < len(
        _tuples(len(solution), cage.cells, cage.op, cage.target)
    ):
        return other
    return cage


def _draw_cage_size(rng: Rng, max_cage: int) -> int:
    weights = [(k, w) for k, w in CAGE_SIZE_WEIGHTS if k <= max_cage]
    pick = rng.below(sum(w for _, w in weights))
    for k, w in weights:
        if pick < w:
            return k
        pick -= w
    return weights[-1][0]


def _grid_neighbours(cell: Cell, size: int) -> list[Cell]:
    r, c = cell
    out = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [(a, b) for a, b in out if 0 <= a < size and 0 <= b < size]


def grow_cages_v2(size: int, rng: Rng, max_cage: int) -> list[list[Cell]]:
    """Cages of drawn sizes (2 to ``max_cage``), grown cell by cell into free neighbours.

    A cell left alone joins a neighbouring cage that has room; only a cell boxed
    in by full cages stays a one-cell cage.
    """
    owner: dict[Cell, int] = {}
    cages: list[list[Cell]] = []
    order = [(r, c) for r in range(size) for c in range(size)]
    rng.shuffle(order)
    for cell in order:
        if cell in owner:
            continue
        number = len(cages)
        target = _draw_cage_size(rng, max_cage)
        cells = [cell]
        owner[cell] = number
        while len(cells) < target:
            frontier = sorted(
                {n for c in cells for n in _grid_neighbours(c, size) if n not in owner}
            )
            if not frontier:
                break
            chosen = rng.choice(frontier)
            cells.append(chosen)
            owner[chosen] = number
        cages.append(cells)
    for number, cells in enumerate(cages):
        if len(cells) != 1:
            continue
        options = sorted(
            {
                owner[n]
                for n in _grid_neighbours(cells[0], size)
                if len(cages[owner[n]]) < max_cage and owner[n] != number
            }
        )
        if options:
            into = rng.choice(options)
            cages[into].append(cells[0])
            owner[cells[0]] = into
            cages[number] = []
    return [sorted(cells) for cells in cages if cells]


def _halves(cells: Sequence[Cell], start: Cell, rng: Rng) -> tuple[list[Cell], list[Cell]] | None:
    """Split a cage in two contiguous parts of two cells or more, one grown from ``start``."""
    want = len(cells) // 2
    part = [start]
    while len(part) < want:
        frontier = sorted({o for c in part for o in cells if o not in part and neighbours(c, o)})
        if not frontier:
            return None
        part.append(rng.choice(frontier))
    rest = [c for c in cells if c not in part]
    if len(part) < 2 or len(rest) < 2 or not _contiguous(rest):
        return None
    return sorted(part), rest


def _split_v2(
    cages: list[Cage],
    differing: set[Cell],
    solution: Grid,
    rng: Rng,
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> bool:
    """Split a cage where two solutions differ: in two halves if it has 4 cells or more,
    else (once per puzzle) one cell off; False if neither can be done."""
    halves = []
    for number, cage in enumerate(cages):
        if len(cage.cells) >= 4:
            for cell in cage.cells:
                if cell in differing:
                    found = _halves(cage.cells, cell, rng)
                    if found is not None:
                        halves.append((number, found))
    if halves:
        number, (part, rest) = rng.choice(halves)
        cages[number] = _pick_v2(rest, solution, rng, operations=operations)
        cages.append(_pick_v2(part, solution, rng, operations=operations))
        return True
    singles = sum(1 for cage in cages if len(cage.cells) == 1)
    if singles >= _max_single_cell_cages(operations):
        return False
    return _split_off(cages, differing, solution, rng, operations)
