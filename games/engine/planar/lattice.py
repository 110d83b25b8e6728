"""The planar code's lattice: cells, edges in their documented order, and the noise.

An L x L board of cells (row-major, ``cell = row * L + col``). Every pair of
neighbouring cells is joined by an edge, and so is every cell of the first
and of the last column to the outside (``OUTSIDE``) through the left or the
right side: 2L^2 edges in all, 2L(L - 1) inside and 2L on the sides. Top and
bottom are closed. This is the matching graph of a planar surface code with
rough left and right boundaries. As a code it is (L + 1) x L: the logical the
game measures, a chain from one side to the other, has weight L + 1 (its
shortest has L + 1 edges, the two side edges included), and the other
logical, a cut from top to bottom, weight L (one edge per row).

The edge order (``docs/rules.md``, "The planar family"):

1. the *horizontal* edges, row by row from the top, each row from the left:
   position ``k = 0 .. L`` of row ``r`` joins column ``k - 1`` to column
   ``k``, where column ``-1`` and column ``L`` are the outside (so ``k = 0``
   is the left side's edge and ``k = L`` the right side's);
2. then the *vertical* edges, ``(r, c)`` to ``(r + 1, c)`` in row-major order
   of their upper cell.

A horizontal edge at position ``k`` crosses the vertical *cut* ``k``: the
line left of column ``k`` (cut 0 is the left side, cut L the right side).

The noise (one round): the first ``2L^2`` outputs of the shot's SplitMix64
stream decide, edge by edge in that order, whether the edge has an error
(output ``< floor(p * 2^64)``); then, for each edge with an error in the same
order, its value ``a = 1 + below(d - 1)`` is drawn (no draw when ``d = 2``:
``a = 1``). The error adds ``+a`` to the edge's upper or left end and ``-a``
to the other, mod d; the outside end is not tracked. Drawing every
occurrence first lets NumPy draw a whole board at once; the values are the
same as one draw at a time (a test checks it against ``SplitMix64``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..rng import MASK64, SplitMix64, rejection_limit

OUTSIDE = -1

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@dataclass(frozen=True, slots=True)
class Lattice:
    """The edges of an L x L planar board, in the documented order.

    ``first[e]`` is the upper or left end of edge ``e`` and ``second[e]`` the
    other (``OUTSIDE`` for the outside end of a side edge); ``cut[e]`` is the
    vertical cut a horizontal edge crosses, ``-1`` for a vertical edge.
    ``between`` finds an edge by its two ends (``OUTSIDE`` for the outside).
    """

    size: int
    first: tuple[int, ...]
    second: tuple[int, ...]
    cut: tuple[int, ...]
    between: dict[tuple[int, int], int]

    @property
    def edges(self) -> int:
        return len(self.first)

    def left_edge(self, row: int) -> int:
        return row * (self.size + 1)

    def right_edge(self, row: int) -> int:
        return row * (self.size + 1) + self.size

    def edge_of(self, a: int, b: int) -> int:
        """The edge joining ``a`` and ``b`` (cells or ``OUTSIDE``), either way round."""
        edge = self.between.get((a, b))
        if edge is None:
            edge = self.between[(b, a)]
        return edge


@lru_cache(maxsize=64)
def lattice(size: int) -> Lattice:
    """The lattice of an L x L board (cached: it is immutable)."""
    first: list[int] = []
    second: list[int] = []
    cut: list[int] = []
    for row in range(size):
        for k in range(size + 1):
            first.append(row * size + k - 1 if k > 0 else OUTSIDE)
            second.append(row * size + k if k < size else OUTSIDE)
            cut.append(k)
    for row in range(size - 1):
        for col in range(size):
            first.append(row * size + col)
            second.append((row + 1) * size + col)
            cut.append(-1)
    between: dict[tuple[int, int], int] = {}
    for edge, (a, b) in enumerate(zip(first, second, strict=True)):
        # The two side edges of a 1-column board would share their ends; L >= 3 here.
        between[(a, b)] = edge
    return Lattice(size, tuple(first), tuple(second), tuple(cut), between)


def _splitmix(seed: int, start: int, count: int) -> NDArray[np.uint64]:
    """Outputs ``start + 1 .. start + count`` of the SplitMix64 stream seeded ``seed``."""
    k = np.arange(start + 1, start + count + 1, dtype=np.uint64)
    z = k * _GOLDEN_GAMMA + np.uint64(seed)  # uint64 wraps modulo 2**64, as SplitMix64 does
    z ^= z >> np.uint64(30)
    z *= _MIX1
    z ^= z >> np.uint64(27)
    z *= _MIX2
    z ^= z >> np.uint64(31)
    return z


def error_limit(rate: float) -> int:
    """``floor(p * 2^64)``: an output below it is an error (p * 2**64 is exact in binary)."""
    return int(rate * 18446744073709551616.0)


def draw_noise(*, size: int, modulus: int, rate: float, seed: int) -> list[tuple[int, int]]:
    """The noise of one planar board: ``(edge, a)`` for each edge with an error, in edge order."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError("seed must be an integer from 0 to 2**64 - 1")
    edges = 2 * size * size
    limit = error_limit(rate)
    if limit >= 1 << 64:
        hit = np.arange(edges)
    else:
        hit = np.flatnonzero(_splitmix(seed, 0, edges) < np.uint64(limit))
    count = int(hit.size)
    if modulus == 2 or count == 0:
        return [(int(e), 1) for e in hit.tolist()]
    values = _values(seed, edges, count, modulus - 1)
    return list(zip(hit.tolist(), values, strict=True))


def _values(seed: int, start: int, count: int, n: int) -> list[int]:
    """``count`` draws of ``1 + below(n)`` from output ``start + 1`` on, rejection exact."""
    limit = rejection_limit(n)
    raw = _splitmix(seed, start, count)
    if limit >= 1 << 64 or not bool((raw >= np.uint64(limit)).any()):
        return (raw % np.uint64(n) + np.uint64(1)).tolist()  # type: ignore[no-any-return]
    # A rejection (probability under 2^-60 per draw for n <= 9): finish one draw at a time.
    stream = SplitMix64(seed)
    stream.state = (seed + start * int(_GOLDEN_GAMMA)) & MASK64
    return [1 + stream.below(n) for _ in range(count)]


def apply_noise(values: list[int], crossings: list[int], noise: list[tuple[int, int]], *,
                size: int, modulus: int) -> None:
    """Add the errors to the board's values and the cuts' charges (both mod ``modulus``).

    An error ``a`` on a horizontal edge moves ``a`` leftwards across its cut:
    the charge carried rightwards across that cut changes by ``-a``.
    """
    geometry = lattice(size)
    first, second, cut = geometry.first, geometry.second, geometry.cut
    for edge, a in noise:
        upper, lower = first[edge], second[edge]
        if upper != OUTSIDE:
            values[upper] = (values[upper] + a) % modulus
        if lower != OUTSIDE:
            values[lower] = (values[lower] - a) % modulus
        k = cut[edge]
        if k >= 0:
            crossings[k] = (crossings[k] - a) % modulus
