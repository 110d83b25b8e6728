"""KenKen: a Latin square split into cages, each with an operation and a target.

Rules: every row and column holds 1..N once; the values of a cage give its
target by its operation: ``+`` and ``x`` for any cage, ``-`` and ``/`` for
two-cell cages only (the larger value over the smaller), and ``=`` for a
one-cell cage, whose target is its value.

Generation (after seed 002, "Calcoolation", made to give unique puzzles):
a random Latin square; cages grown from random pairs, walking the grid row
by row: a cell without a cage is paired with a random neighbour, joining the
neighbour's cage when it has one (up to ``max_cage`` cells), so cages merge
when they touch; then an operation per cage. The solution counter then
decides: with more than one solution, the operations of the cages where two
solutions differ are drawn again; after a few tries a cell where they differ is split off into a
one-cell cage (at most N times), and failing that the cages are drawn again,
until the puzzle has exactly one solution. That is engine version 1
(:func:`generate_v1`, kept unchanged).

Version 2 (:func:`generate`) draws cage sizes from 2 to 6 cells and grows
each into free neighbours, so that one-cell cages are rare (at most one from
the repairs); it splits cages in halves rather than splitting cells off, and
aims for a level of :mod:`puzzles.engines.grading` by merging cages (too
easy) or splitting them and changing operations (too hard), keeping the
puzzle unique at every change.

KenKen with multiplication only (the kind MULTIPLY_KIND, class
:class:`MultiplyKenKen`) is the same engine with MULTIPLY_ONLY as its
operations: every cage of two cells or more is a product; its descriptions
say so ("operations": ["x"]). It starts at engine version 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from typing import Any, ClassVar

from puzzles.engines.base import Generated
from puzzles.engines.common import neighbours, read_grid, require_cell, require_int, require_mapping
from puzzles.engines.grading import (
    SEARCH_RANK,
    Grade,
    Ladder,
    closure,
    grade,
    label_of,
    ladder_for,
    level_of,
)
from puzzles.engines.latin import (
    Cell,
    ConstraintStep,
    Grid,
    LatinPuzzle,
    Narrow,
    PuzzleError,
    bit,
    keep_only,
    random_latin_square,
)
from puzzles.engines.rng import Rng
from puzzles.engines.solver import (
    CAGE_ARITHMETIC,
    DIFFICULTY_MAX_LEVEL,
    Difficulty,
    count_solutions,
    rate,
)

KIND = "kenken"
# The sub-kind whose cages are all products (Keen's "multiplication only"): a kind of its
# own, generated and checked by this module with MULTIPLY_ONLY as its operations.
MULTIPLY_KIND = "kenken-multiply"
# The operations of a cage of two cells or more ("=" is the one-cell cage's, in both).
ALL_OPERATIONS = ("+", "-", "x", "/")
MULTIPLY_ONLY = ("x",)
ENGINE_VERSION = 3
# Engine versions that ``generate`` can still reproduce (stored puzzles keep their own).
# Versions 2 and 3 draw puzzles alike and grade them on different ladders
# (puzzles.engines.grading: LADDER_V2, and LADDER_V3 after Keen's levels).
ENGINE_VERSIONS = (1, 2, 3)
MIN_SIZE = 3
MAX_SIZE = 9
DEFAULT_SIZE = 4
DEFAULT_MAX_CAGE = 4
OPS = ("+", "-", "x", "/", "=")
OP_ALIASES = {"*": "x", "\u00d7": "x", "\u00f7": "/", "\u2212": "-"}
# A cell stays alone in a one-cell cage with this chance (numerator, denominator).
SINGLE_CELL_CHANCE = (1, 10)
OPERATION_DRAWS = 3
CAGE_DRAWS = 8
DIFFICULTY_ATTEMPTS = 12
# Puzzles read from files are refused beyond these (a huge cage would take
# forever to analyse): cells per cage, and partial fillings looked at per cage.
MAX_CAGE_CELLS = 8
MAX_CAGE_NODES = 300_000
# Cage filtering results kept per puzzle (the solver meets the same candidates often).
MEMO_SIZE = 200_000
# A cage filtering that leaves at most this many fillings reads them one by one.
FEW_FILLINGS = 6


@dataclass(frozen=True)
class Cage:
    cells: tuple[Cell, ...]
    op: str
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"cells": [list(c) for c in self.cells], "op": self.op, "target": self.target}

    def holds(self, values: Sequence[int]) -> bool:
        return operation_result(self.op, values) == self.target


def operation_result(op: str, values: Sequence[int]) -> int | None:
    """What the values give by the operation; None if the operation does not apply."""
    if op == "=":
        return values[0] if len(values) == 1 else None
    if op == "+":
        return sum(values)
    if op == "x":
        product = 1
        for v in values:
            product *= v
        return product
    if len(values) != 2:
        return None
    big, small = max(values), min(values)
    if op == "-":
        return big - small
    if op == "/":
        return big // small if big % small == 0 else None
    return None


def _cage_tuples(size: int, cage: Cage) -> list[tuple[int, ...]]:
    """Every assignment of bits to the cage's cells that meets its target and the Latin rule."""
    return _tuples(size, cage.cells, cage.op, cage.target)


def _tuples(size: int, cells: tuple[Cell, ...], op: str, target: int) -> list[tuple[int, ...]]:
    return _tuples_of_shape(size, _clash_shape(cells), op, target)


def _clash_shape(cells: Sequence[Cell]) -> tuple[tuple[int, ...], ...]:
    """Per cell of a cage, the earlier cells in its row or column: all that its fillings
    depend on besides the operation and target, so cages of one shape share them."""
    return tuple(
        tuple(j for j in range(i) if cells[j][0] == cells[i][0] or cells[j][1] == cells[i][1])
        for i in range(len(cells))
    )


@lru_cache(maxsize=8192)
def _tuples_of_shape(
    size: int, clash: tuple[tuple[int, ...], ...], op: str, target: int
) -> list[tuple[int, ...]]:
    k = len(clash)
    out: list[tuple[int, ...]] = []
    chosen = [0] * k
    cage = Cage(tuple((0, i) for i in range(k)), op, target)  # for its check of the values

    nodes = 0

    def extend(pos: int, acc: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_CAGE_NODES:
            raise PuzzleError(f"a cage of {k} cells with {op}{target} has too many fillings")
        if pos == k:
            ok = acc == target if op in ("+", "x") else cage.holds(chosen)
            if ok:
                out.append(tuple(bit(v) for v in chosen))
            return
        used = 0
        for j in clash[pos]:
            used |= bit(chosen[j])
        left = k - pos - 1
        for v in range(1, size + 1):
            if used & bit(v):
                continue
            if op == "+":
                nxt = acc + v
                if nxt + left > target:
                    break
                if nxt + left * size < target:
                    continue
            elif op == "x":
                nxt = acc * v
                if target % nxt:
                    continue
            else:
                nxt = acc
            chosen[pos] = v
            extend(pos + 1, nxt)
        chosen[pos] = 0

    extend(0, 0 if op == "+" else 1)
    return out


def _supports(
    size: int, cells: tuple[Cell, ...], op: str, target: int
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Per cell of the cage, per value (by bit length of its bit, index 0 unused): the set
    of the cage's fillings (as bits of one integer, by filling number) that put that value
    there; and the set of all fillings."""
    return _supports_of_shape(size, _clash_shape(cells), op, target)


@lru_cache(maxsize=8192)
def _supports_of_shape(
    size: int, clash: tuple[tuple[int, ...], ...], op: str, target: int
) -> tuple[tuple[tuple[int, ...], ...], int]:
    tuples = _tuples_of_shape(size, clash, op, target)
    support = [[0] * (size + 1) for _ in clash]
    for number, filling in enumerate(tuples):
        flag = 1 << number
        for j, b in enumerate(filling):
            support[j][b.bit_length()] |= flag
    return tuple(tuple(row) for row in support), (1 << len(tuples)) - 1


def _reader(cells: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function giving the values at ``cells`` of a list, as a tuple (one cell too)."""
    if len(cells) == 1:
        (only,) = cells
        return lambda values: (values[only],)
    return itemgetter(*cells)


class KenKen(LatinPuzzle):
    kind = KIND
    operations: ClassVar[tuple[str, ...]] = ALL_OPERATIONS
    engine_version = ENGINE_VERSION
    constraint_technique = CAGE_ARITHMETIC
    min_size = MIN_SIZE
    max_size = MAX_SIZE

    def __init__(self, size: int, cages: Sequence[Cage]) -> None:
        super().__init__(size)
        self.cages = tuple(cages)
        owner: dict[Cell, int] = {}
        for number, cage in enumerate(self.cages):
            _check_cage(size, cage, number)
            if len(cage.cells) > 1 and cage.op not in self.operations:
                raise PuzzleError(
                    f"cage {number}: {self.kind} cages use {' '.join(self.operations)} only"
                )
            for cell in cage.cells:
                if cell in owner:
                    raise PuzzleError(
                        f"cell {list(cell)} is in cage {owner[cell]} and in cage {number}"
                    )
                owner[cell] = number
        missing = [[r, c] for r in range(size) for c in range(size) if (r, c) not in owner]
        if missing:
            raise PuzzleError(f"cell {missing[0]} is in no cage")
        g = self.geometry
        self._cage_data = [
            (tuple(g.index(c) for c in cage.cells), _cage_tuples(size, cage)) for cage in self.cages
        ]
        self._supports = [
            (cells, *_supports(size, cage.cells, cage.op, cage.target))
            for (cells, _), cage in zip(self._cage_data, self.cages, strict=True)
        ]
        self._unions: list[list[dict[int, int]]] = [[{} for _ in cage.cells] for cage in self.cages]
        # Per cage: a reader of its cells' candidates as one tuple, and the memo of its
        # filterings by that tuple (the solver meets the same candidates again and again).
        self._readers: list[Callable[[Sequence[int]], tuple[int, ...]]] = [
            _reader(cells) for cells, _ in self._cage_data
        ]
        self._memos: list[dict[tuple[int, ...], tuple[int, ...]]] = [{} for _ in self.cages]
        self._memo_entries = 0

    def _narrowed(self, cands: list[int], number: int) -> tuple[int, ...]:
        """The cage's cells' candidates that some fitting assignment still uses (memoised)."""
        key = self._readers[number](cands)
        memo = self._memos[number]
        found = memo.get(key)
        if found is None:
            found = self._remember(memo, key, cands, number)
        return found

    def _remember(
        self,
        memo: dict[tuple[int, ...], tuple[int, ...]],
        key: tuple[int, ...],
        cands: list[int],
        number: int,
    ) -> tuple[int, ...]:
        if self._memo_entries >= MEMO_SIZE:
            for old in self._memos:
                old.clear()
            self._memo_entries = 0
        found = memo[key] = tuple(self._filter(cands, number))
        self._memo_entries += 1
        return found

    def _filter(self, cands: list[int], number: int) -> list[int]:
        # The fillings that fit: per cell, the union of the fillings that put one of its
        # candidates there (kept per candidate mask), intersected over the cells. The
        # sets are big integers, by filling number, so a cage of a thousand fillings
        # costs a few dozen operations rather than a pass over its fillings.
        cells, support, everything = self._supports[number]
        unions = self._unions[number]
        fit = everything
        for j, i in enumerate(cells):
            m = cands[i]
            chosen = unions[j].get(m)
            if chosen is None:
                chosen = 0
                by_value = support[j]
                rest = m
                while rest:
                    low = rest & -rest
                    chosen |= by_value[low.bit_length()]
                    rest ^= low
                unions[j][m] = chosen
            fit &= chosen
            if not fit:
                return [0] * len(cells)
        new = [0] * len(cells)
        if fit.bit_count() <= FEW_FILLINGS:
            tuples = self._cage_data[number][1]
            while fit:
                low = fit & -fit
                for j, b in enumerate(tuples[low.bit_length() - 1]):
                    new[j] |= b
                fit ^= low
            return new
        for j, i in enumerate(cells):
            by_value = support[j]
            rest = cands[i]
            while rest:
                low = rest & -rest
                if by_value[low.bit_length()] & fit:
                    new[j] |= low
                rest ^= low
        return new

    def narrow(self, cands: list[int]) -> bool | None:
        # The body of _narrowed, inlined: the solver calls this for every cage at every
        # step of its search, and most calls find their answer in the memo.
        changed = False
        for number, (cells, _) in enumerate(self._cage_data):
            current = self._readers[number](cands)
            memo = self._memos[number]
            new = memo.get(current)
            if new is None:
                new = self._remember(memo, current, cands, number)
            if new != current:
                impossible = False
                for i, m in zip(cells, new, strict=True):
                    if cands[i] != m:
                        cands[i] = m
                        changed = True
                        if m == 0:
                            impossible = True
                if impossible:
                    return None
        return changed

    def narrow_cage_digits(self, cands: list[int]) -> bool | None:
        """Keen's Easy: each cage's cells keep only the digits that some fitting filling
        puts somewhere in the cage (which digits, not which cell takes which)."""
        changed = False
        for number, (cells, _) in enumerate(self._cage_data):
            digits = 0
            for mask in self._narrowed(cands, number):
                digits |= mask
            for i in cells:
                narrowed = keep_only(cands, i, digits)
                if narrowed is None:
                    return None
                changed = changed or narrowed
        return changed

    def narrow_stages(self) -> tuple[Narrow, ...]:
        return (self.narrow_cage_digits, self.narrow)

    def constraint_step(self, cands: list[int]) -> ConstraintStep | None:
        for number, (cells, _) in enumerate(self._cage_data):
            new = self._narrowed(cands, number)
            if any(cands[i] != m for i, m in zip(cells, new, strict=True)):
                return ConstraintStep(
                    CAGE_ARITHMETIC, list(cells), dict(zip(cells, new, strict=True))
                )
        return None

    def constraint_groups(self) -> list[tuple[tuple[Cell, ...], Callable[[list[int]], bool]]]:
        return [(cage.cells, cage.holds) for cage in self.cages]

    def cage_fillings(self) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
        """Per cage: its cell indexes and every filling (one bit per cell) that meets its target."""
        return self._cage_data

    def constraints_hold(self, grid: Grid) -> bool:
        return all(cage.holds([grid[r][c] for r, c in cage.cells]) for cage in self.cages)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "size": self.size,
            "engine_version": ENGINE_VERSION,
            "cages": [cage.to_dict() for cage in self.cages],
        }
        if self.operations != ALL_OPERATIONS:
            data["operations"] = list(self.operations)
        return data


class MultiplyKenKen(KenKen):
    """KenKen whose cages of two cells or more are all products."""

    kind = MULTIPLY_KIND
    operations = MULTIPLY_ONLY


def puzzle_class(operations: Sequence[str]) -> type[KenKen]:
    """The KenKen class for a set of operations (only the full set and "x" alone exist)."""
    ops = tuple(operations)
    if ops == ALL_OPERATIONS:
        return KenKen
    if ops == MULTIPLY_ONLY:
        return MultiplyKenKen
    raise PuzzleError(
        f"operations must be {' '.join(ALL_OPERATIONS)} or {' '.join(MULTIPLY_ONLY)} alone"
    )


def _check_cage(size: int, cage: Cage, number: int) -> None:
    what = f"cage {number}"
    if not cage.cells:
        raise PuzzleError(f"{what} has no cells")
    if len(set(cage.cells)) != len(cage.cells):
        raise PuzzleError(f"{what} lists a cell twice")
    if cage.op not in OPS:
        raise PuzzleError(f"{what}: unknown operation {cage.op!r} (one of {' '.join(OPS)})")
    k = len(cage.cells)
    if k > MAX_CAGE_CELLS:
        raise PuzzleError(f"{what} has more than {MAX_CAGE_CELLS} cells")
    if cage.op == "=" and k != 1:
        raise PuzzleError(f"{what}: '=' is for one-cell cages only")
    if k == 1 and cage.op != "=":
        raise PuzzleError(f"{what}: a one-cell cage has the operation '='")
    if cage.op in "-/" and k != 2:
        raise PuzzleError(f"{what}: '{cage.op}' is for two-cell cages only")
    if cage.target < 1:
        raise PuzzleError(f"{what}: the target must be positive")
    # contiguous
    seen = {cage.cells[0]}
    frontier = [cage.cells[0]]
    while frontier:
        cell = frontier.pop()
        for other in cage.cells:
            if other not in seen and neighbours(cell, other):
                seen.add(other)
                frontier.append(other)
    if len(seen) != k:
        raise PuzzleError(f"{what}: its cells are not contiguous")


def from_dict(data: Mapping[str, Any], *, operations: Sequence[str] | None = None) -> KenKen:
    """A KenKen from its JSON description (extra keys such as the solution are ignored here).

    The operations are ``operations`` if given, else the description's "operations"
    list (absent: all of them; the multiplication-only kind names it, or its kind does).
    """
    data = require_mapping(data, "the puzzle")
    if operations is None:
        raw_ops = data.get("operations")
        if raw_ops is None:
            raw_ops = MULTIPLY_ONLY if data.get("kind") == MULTIPLY_KIND else ALL_OPERATIONS
        if not isinstance(raw_ops, list | tuple):
            raise PuzzleError("operations must be a list of operation names")
        names = [OP_ALIASES.get(o, o) for o in raw_ops if isinstance(o, str)]
        if len(names) != len(raw_ops):
            raise PuzzleError("operations must be a list of operation names")
        operations = names
    cls = puzzle_class(operations)
    size = require_int(data.get("size"), "size", MIN_SIZE, MAX_SIZE)
    raw_cages = data.get("cages")
    if not isinstance(raw_cages, list) or not raw_cages:
        raise PuzzleError("cages must be a non-empty list")
    cages = []
    for number, raw in enumerate(raw_cages):
        raw = require_mapping(raw, f"cage {number}")
        cells_raw = raw.get("cells")
        if not isinstance(cells_raw, list) or not cells_raw:
            raise PuzzleError(f"cage {number}: cells must be a non-empty list")
        if len(cells_raw) > size * size:
            raise PuzzleError(f"cage {number}: too many cells")
        cells = tuple(require_cell(c, size, f"cage {number} cell") for c in cells_raw)
        op = raw.get("op")
        if not isinstance(op, str):
            raise PuzzleError(f"cage {number}: op must be a string")
        op = OP_ALIASES.get(op, op)
        target = require_int(raw.get("target"), f"cage {number} target", 1, 9**9)
        cages.append(Cage(cells, op, target))
    return cls(size, cages)


def from_dict_multiply(data: Mapping[str, Any]) -> KenKen:
    """A multiplication-only KenKen from its JSON description (any other cage is refused)."""
    return from_dict(data, operations=MULTIPLY_ONLY)


def read_solution(data: Mapping[str, Any], size: int) -> Grid | None:
    if data.get("solution") is None:
        return None
    return read_grid(data["solution"], size, "solution")


# -- generation ---------------------------------------------------------------


def grow_cages(size: int, rng: Rng, max_cage: int) -> list[list[Cell]]:
    """Cages grown from random pairs that merge when they touch (see the module's docstring)."""
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


def generated_dict(made: Generated[KenKen, Difficulty]) -> dict[str, Any]:
    """A generated KenKen's JSON: the puzzle's cages with the seed, solution and rating."""
    data = made.puzzle.to_dict()
    out = {
        "kind": data["kind"],
        "size": data["size"],
        "seed": made.seed,
        "engine_version": made.engine_version,
        "cages": data["cages"],
        "solution": made.solution,
        "difficulty": made.difficulty.to_dict(),
    }
    if "operations" in data:
        out["operations"] = data["operations"]
    return out


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


# -- generation, engine version 2: cage shapes and graded levels -----------------

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
# Unique puzzles drawn per request for a level, and changes tried on each to move
# it towards the level: both fixed, so that a seed always gives the same puzzle.
LEVEL_ATTEMPTS = 24
LEVEL_TWEAKS = 10
# From this size up, cages have at most LARGE_GRID_MAX_CAGE cells unless asked otherwise:
# a six-cell + or x cage on an 8 x 8 or 9 x 9 grid has hundreds to thousands of
# fillings, and puzzles with several of them took 30 to 70 s to prove unique (median
# 9 x 9 time with five-cell cages at most: under a second; bench/puzzle_levels.py).
LARGE_GRID_FROM_SIZE = 8
LARGE_GRID_MAX_CAGE = 5
# Keen's Easy knows only which digits a cage holds: on a large grid few puzzles with
# five-cell cages are that easy, and aiming at it took 7.5 s median with 2 hits in 5
# on 9 x 9 (engine version 3, bench/puzzle_levels.py). From LARGE_GRID_FROM_SIZE up,
# engine version 3 draws cages of at most three cells for "easy" (asked for without
# max_cage).
EASY_LARGE_GRID_MAX_CAGE = 3


def default_max_cage(size: int) -> int:
    """The largest cage engine version 2 draws on a grid of this size by default."""
    return LARGE_GRID_MAX_CAGE if size >= LARGE_GRID_FROM_SIZE else V2_MAX_CAGE


# Proving a large grid unique can take minutes when its cages are big and loose. From
# this size up, the proof gets a budget of search nodes (of count_solutions); a puzzle
# not proved unique within it is treated as ambiguous and changed (the exact proof
# still decides every puzzle that is kept). Smaller grids never needed the budget.
PROOF_BUDGET_FROM_SIZE = 8
PROOF_NODE_LIMIT = 150


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


def _differing(puzzle: KenKen, solution: Grid) -> set[Cell] | None:
    """None if ``puzzle`` is proved to have exactly one solution, else the cells where a
    second one differs; from PROOF_BUDGET_FROM_SIZE up, a puzzle whose proof needs more
    than PROOF_NODE_LIMIT search nodes counts as not proved, and the cells returned are
    those of its cage with the most fillings (the likeliest cause), to be changed."""
    n = puzzle.size
    large = n >= PROOF_BUDGET_FROM_SIZE
    found = count_solutions(
        puzzle,
        limit=2,
        max_nodes=PROOF_NODE_LIMIT if large else None,
        known=solution if large else None,
    )
    if found.count == 1 and found.complete:
        return None
    other = next((s for s in found.solutions if s != solution), None)
    if other is None:
        fillings = puzzle.cage_fillings()
        widest = max(range(len(fillings)), key=lambda k: len(fillings[k][1]))
        return set(puzzle.cages[widest].cells)
    return {(r, c) for r in range(n) for c in range(n) if other[r][c] != solution[r][c]}


def _unique_v2(
    size: int, rng: Rng, max_cage: int, operations: tuple[str, ...], ladder: Ladder
) -> tuple[KenKen, Grid]:
    """A unique KenKen: operations drawn again where solutions differ, then cages split
    (multiplication only: split at once, a product has no other operation to draw)."""
    cls = puzzle_class(operations)
    draws = OPERATION_DRAWS if operations == ALL_OPERATIONS else 0
    while True:
        solution = random_latin_square(size, rng)
        for _ in range(CAGE_DRAWS):
            groups = grow_cages_v2(size, rng, max_cage)
            cages = [_pick_v2(cells, solution, rng, operations=operations) for cells in groups]
            for repair in range(draws + size):
                puzzle = cls(size, cages)
                # Sound deductions that fill the grid prove it unique (no count needed).
                if closure(puzzle, level=1, ladder=ladder).status == "solved":
                    return puzzle, solution
                differing = _differing(puzzle, solution)
                if differing is None:
                    return puzzle, solution
                if repair >= draws:
                    if not _split_v2(cages, differing, solution, rng, operations):
                        break
                    continue
                for number, cage in enumerate(cages):
                    if differing.intersection(cage.cells):
                        cages[number] = _pick_v2(cage.cells, solution, rng, avoid=cage.op)


def _merge(
    cages: list[Cage],
    solution: Grid,
    rng: Rng,
    max_cage: int,
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> list[Cage] | None:
    """Two touching cages made one (at most ``max_cage`` cells), with a new operation."""
    options = []
    for a, b in combinations(range(len(cages)), 2):
        if len(cages[a].cells) + len(cages[b].cells) > max_cage:
            continue
        if any(neighbours(x, y) for x in cages[a].cells for y in cages[b].cells):
            options.append((a, b))
    if not options:
        return None
    a, b = rng.choice(options)
    merged = _pick_v2(sorted(cages[a].cells + cages[b].cells), solution, rng, operations=operations)
    return [cage for k, cage in enumerate(cages) if k not in (a, b)] + [merged]


def _ease(
    cages: list[Cage], solution: Grid, rng: Rng, operations: tuple[str, ...] = ALL_OPERATIONS
) -> list[Cage] | None:
    """One cage split in two halves, or a cage's operation drawn again (multiplication
    only: a cage split in halves, there being no other operation)."""
    big = [k for k, cage in enumerate(cages) if len(cage.cells) >= 4]
    if operations != ALL_OPERATIONS:
        rng.shuffle(big)
        for number in big:
            cage = cages[number]
            found = _halves(cage.cells, rng.choice(cage.cells), rng)
            if found is not None:
                part, rest = found
                out = [c for k, c in enumerate(cages) if k != number]
                return [
                    *out,
                    _pick_v2(rest, solution, rng, operations=operations),
                    _pick_v2(part, solution, rng, operations=operations),
                ]
        return None
    if big and rng.chance(1, 2):
        number = rng.choice(big)
        cage = cages[number]
        found = _halves(cage.cells, rng.choice(cage.cells), rng)
        if found is not None:
            part, rest = found
            out = [c for k, c in enumerate(cages) if k != number]
            return [*out, _pick_v2(rest, solution, rng), _pick_v2(part, solution, rng)]
    multi = [k for k, cage in enumerate(cages) if len(cage.cells) >= 2]
    if not multi:
        return None
    number = rng.choice(multi)
    out = list(cages)
    out[number] = _pick_v2(cages[number].cells, solution, rng, avoid=cages[number].op)
    return out


def _aim(
    puzzle: KenKen,
    solution: Grid,
    graded: Grade,
    target: int,
    rng: Rng,
    max_cage: int,
    operations: tuple[str, ...],
    ladder: Ladder,
) -> tuple[KenKen, Grade]:
    """Move a unique puzzle towards the target level: merge cages when it is too easy,
    split cages or change operations when it is too hard; every change keeps it unique.
    Returns the puzzle and its grade (``graded``, that of ``puzzle``, if nothing changed)."""
    rank = graded.rank
    cages = list(puzzle.cages)
    for _ in range(LEVEL_TWEAKS):
        if rank == target:
            break
        changed = (
            _merge(cages, solution, rng, max_cage, operations)
            if rank < target
            else _ease(cages, solution, rng, operations)
        )
        if changed is None:
            break
        trial = type(puzzle)(puzzle.size, changed)
        # A puzzle the techniques solve without search is unique: only a puzzle that
        # needs search is counted.
        trial_grade = grade(trial, ladder=ladder)
        new_rank = trial_grade.rank
        if new_rank >= SEARCH_RANK and _differing(trial, solution) is not None:
            continue
        if (rank < target and new_rank <= target) or (rank > target and target <= new_rank <= rank):
            puzzle, cages, rank, graded = trial, changed, new_rank, trial_grade
    return puzzle, graded


def generate(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    max_cage: int | None = None,
    engine_version: int = ENGINE_VERSION,
    operations: Sequence[str] = ALL_OPERATIONS,
) -> Generated[KenKen, Difficulty]:
    """A KenKen with exactly one solution, the same for the same arguments.

    With ``difficulty`` (a level of :mod:`puzzles.engines.grading`), the puzzle is
    rated exactly that level, or PuzzleError says which levels were reached
    instead after LEVEL_ATTEMPTS unique puzzles. ``max_cage`` defaults to
    :func:`default_max_cage` (engine version 1: DEFAULT_MAX_CAGE).
    ``engine_version=1`` gives the puzzles of engine version 1 (:func:`generate_v1`).
    ``operations=MULTIPLY_ONLY`` gives the multiplication-only sub-kind (from engine
    version 2 on).
    """
    ops = tuple(operations)
    cls = puzzle_class(ops)
    if engine_version == 1 and ops == ALL_OPERATIONS:
        return generate_v1(
            size=size,
            seed=seed,
            difficulty=difficulty,
            max_cage=DEFAULT_MAX_CAGE if max_cage is None else max_cage,
        )
    if engine_version not in (2, 3):
        versions = ENGINE_VERSIONS if cls is KenKen else (2, 3)
        raise PuzzleError(f"engine_version must be one of {', '.join(map(str, versions))}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    ladder = ladder_for(cls.kind, engine_version)
    target = None if difficulty is None else level_of(cls.kind, difficulty, ladder=ladder)
    if max_cage is None:
        max_cage = default_max_cage(size)
        if engine_version >= 3 and target == 1 and size >= LARGE_GRID_FROM_SIZE:
            max_cage = EASY_LARGE_GRID_MAX_CAGE
    if not 2 <= max_cage <= 6:
        raise PuzzleError("max_cage must be between 2 and 6")
    rng = Rng(seed)
    reached: dict[str, int] = {}
    for _ in range(LEVEL_ATTEMPTS if target else 1):
        puzzle, solution = _unique_v2(size, rng, max_cage, ops, ladder)
        # The grade of the puzzle kept is reused for its rating rather than computed again.
        graded = grade(puzzle, ladder=ladder)
        if target is not None:
            puzzle, graded = _aim(puzzle, solution, graded, target, rng, max_cage, ops, ladder)
        if target is None or graded.rank == target:
            return Generated(
                puzzle,
                seed,
                solution,
                graded.difficulty(puzzle),
                engine_version=engine_version,
                describe=generated_dict,
            )
        label = label_of(cls.kind, graded.rank, ladder=ladder)
        reached[label] = reached.get(label, 0) + 1
    assert difficulty is not None  # noqa: S101
    got = ", ".join(f"{label} {count}" for label, count in reached.items())
    title = "KenKen" if cls is KenKen else "KenKen (multiplication only)"
    raise PuzzleError(
        f"no {size}x{size} {title} rated {label_of(cls.kind, target or 1, ladder=ladder)} "
        f"from seed {seed} "
        f"in {LEVEL_ATTEMPTS} tries (reached: {got}); try another seed or size"
    )


def generate_multiply(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    max_cage: int | None = None,
    engine_version: int = ENGINE_VERSION,
) -> Generated[KenKen, Difficulty]:
    """A multiplication-only KenKen (the kind MULTIPLY_KIND): :func:`generate` with
    ``operations=MULTIPLY_ONLY``."""
    return generate(
        size=size,
        seed=seed,
        difficulty=difficulty,
        max_cage=max_cage,
        engine_version=engine_version,
        operations=MULTIPLY_ONLY,
    )
