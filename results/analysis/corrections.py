"""A planar game's net correction as a chain on the lattice's edges, and two corrections compared.

Pure Python, no Django. Every move of a planar game carries a number ``v``
along one edge of the lattice (``games.engine.planar.lattice``), or off the
board through a side edge. Summed over the game, the moves make a *chain*:
for each edge ``e`` the net charge carried from its first end
(``first[e]``, the upper or left one, or the outside on the left side) to its
second end, mod d. The order of the moves and the way round a number went
within one edge pair cancel out; what is left is the correction the player
applied to the board.

Two corrections that clean the same board differ by a chain whose boundary
is zero at every cell: a cycle, possibly ending on the left and right sides.
Such a cycle is either a sum of plaquette loops (stabilisers, which change
nothing) plus a number ``k`` of left-to-right crossings, and ``k`` (mod d) is
its flux across any vertical cut. So two corrections are in the same
*homology class* exactly when they carry the same charge across the left
side (cut 0), which is also when the two games end with the same logical
charge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.planar import OUTSIDE, lattice

# A recorded move as the chain needs it: (from_row, from_col, to_row, to_col, value).
ChainMove = tuple[int, int, int, int, int]


def net_chain(*, size: int, modulus: int, moves: Iterable[ChainMove]) -> tuple[int, ...]:
    """The net charge carried along each edge (first end to second end), mod ``modulus``.

    ``to_col`` -1 or ``size`` is a move off the board through the left or right side.
    Raises ``ValueError`` for a move that does not follow one edge of the board.
    """
    geometry = lattice(size)
    chain = [0] * geometry.edges
    for from_row, from_col, to_row, to_col, value in moves:
        if not (0 <= from_row < size and 0 <= from_col < size):
            raise ValueError(f"move from ({from_row}, {from_col}) is off the {size} x {size} board")
        source = from_row * size + from_col
        if to_row == from_row and to_col == -1 and from_col == 0:
            edge = geometry.left_edge(from_row)
        elif to_row == from_row and to_col == size and from_col == size - 1:
            edge = geometry.right_edge(from_row)
        elif (
            0 <= to_row < size
            and 0 <= to_col < size
            and (abs(to_row - from_row) + abs(to_col - from_col) == 1)
        ):
            edge = geometry.edge_of(source, to_row * size + to_col)
        else:
            raise ValueError(
                f"move ({from_row}, {from_col}) -> ({to_row}, {to_col}) follows no edge"
            )
        sign = 1 if geometry.first[edge] == source else -1
        chain[edge] = (chain[edge] + sign * value) % modulus
    return tuple(chain)


def boundary(*, size: int, modulus: int, chain: Sequence[int]) -> tuple[int, ...]:
    """The charge each cell receives from ``chain`` (its second ends gain, first ends lose)."""
    geometry = lattice(size)
    cells = [0] * (size * size)
    for edge, value in enumerate(chain):
        if not value:
            continue
        first, second = geometry.first[edge], geometry.second[edge]
        if first != OUTSIDE:
            cells[first] = (cells[first] - value) % modulus
        if second != OUTSIDE:
            cells[second] = (cells[second] + value) % modulus
    return tuple(cells)


def flux(*, size: int, modulus: int, chain: Sequence[int], cut: int = 0) -> int:
    """The net charge ``chain`` carries rightwards across the vertical cut ``cut`` (0..L)."""
    if not 0 <= cut <= size:
        raise ValueError(f"cut {cut} is not one of 0..{size}")
    # The horizontal edge at position ``cut`` of each row crosses the cut, left to right.
    return sum(chain[row * (size + 1) + cut] for row in range(size)) % modulus


@dataclass(frozen=True, slots=True)
class Agreement:
    """How two corrections of the same board compare."""

    same_class: bool  # they differ by stabilisers only (the same homology class)
    same_chain: bool  # the same net charge on every edge


def compare_corrections(
    *, size: int, modulus: int, first: Sequence[int], second: Sequence[int]
) -> Agreement:
    """Compare two net corrections that both clean the same board.

    Raises ``ValueError`` when they do not leave the same charges on the cells
    (they cannot both clean one board): their difference must be a cycle.
    """
    if len(first) != len(second):
        raise ValueError("the two chains are of different boards")
    difference = [(a - b) % modulus for a, b in zip(first, second, strict=True)]
    if any(boundary(size=size, modulus=modulus, chain=difference)):
        raise ValueError("the two corrections do not clean the same board")
    return Agreement(
        same_class=flux(size=size, modulus=modulus, chain=difference) == 0,
        same_chain=not any(difference),
    )
