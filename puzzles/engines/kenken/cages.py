"""A KenKen cage and its arithmetic: the operations, and which fillings meet a target.

Apart from the puzzle because a cage knows nothing of a grid beyond its size:
its fillings depend only on its shape, operation and target, and are cached by
them for every puzzle (and generator) that meets the same cage. The checks of
a single cage read from a file (:func:`_check_cage`) are here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzles.engines.common import neighbours
from puzzles.engines.latin import Cell, PuzzleError, bit

# The operations of a cage of two cells or more ("=" is the one-cell cage's, in both).
ALL_OPERATIONS = ("+", "-", "x", "/")
MULTIPLY_ONLY = ("x",)
# Every operation a cage may have, and the spellings read from files for some of them.
OPS = ("+", "-", "x", "/", "=")
OP_ALIASES = {"*": "x", "\u00d7": "x", "\u00f7": "/", "\u2212": "-"}
# Puzzles read from files are refused beyond these (a huge cage would take
# forever to analyse): cells per cage, and partial fillings looked at per cage.
MAX_CAGE_CELLS = 8
MAX_CAGE_NODES = 300_000


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
