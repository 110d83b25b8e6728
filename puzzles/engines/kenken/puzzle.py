"""The KenKen puzzle: its cages on a Latin square, their propagation, and its JSON.

:class:`KenKen` checks its cages and narrows candidates by them for the solver
and the grader (a memo of cage filterings keeps the search fast);
:class:`MultiplyKenKen` is the multiplication-only sub-kind. JSON in
(:func:`from_dict`) and out (``to_dict``, :func:`generated_dict`) is here too.
Generation lives in :mod:`puzzles.engines.kenken.generator`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from puzzles.engines.base import Generated
from puzzles.engines.common import read_grid, require_cell, require_int, require_mapping
from puzzles.engines.kenken.cages import (
    ALL_OPERATIONS,
    MULTIPLY_ONLY,
    OP_ALIASES,
    Cage,
    _cage_tuples,
    _check_cage,
    _supports,
)
from puzzles.engines.latin import (
    Cell,
    ConstraintStep,
    Grid,
    LatinPuzzle,
    Narrow,
    PuzzleError,
    keep_only,
)
from puzzles.engines.solver import CAGE_ARITHMETIC, Difficulty

KIND = "kenken"
# The sub-kind whose cages are all products (Keen's "multiplication only"): a kind of its
# own, generated and checked by this package with MULTIPLY_ONLY as its operations.
MULTIPLY_KIND = "kenken-multiply"
ENGINE_VERSION = 3
# Engine versions that ``generate`` can still reproduce (stored puzzles keep their own).
# Versions 2 and 3 draw puzzles alike and grade them on different ladders
# (puzzles.engines.grading: LADDER_V2, and LADDER_V3 after Keen's levels).
ENGINE_VERSIONS = (1, 2, 3)
MIN_SIZE = 3
MAX_SIZE = 9
DEFAULT_SIZE = 4
# Cage filtering results kept per puzzle (the solver meets the same candidates often).
MEMO_SIZE = 200_000
# A cage filtering that leaves at most this many fillings reads them one by one.
FEW_FILLINGS = 6


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
