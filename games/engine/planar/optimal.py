"""Maximum-likelihood decoding of the planar board: the probability of each logical class.

The noise (``lattice.py``): every edge independently has an error with
probability p, of a value uniform on 1 .. d - 1. An error set ``x`` (a value
in Z_d per edge, 0 for none) weighs ``prod_e w(x_e)`` with ``w(0) = 1 - p``
and ``w(a) = p / (d - 1)``. What a decoder sees are the board's charges (the
values, mod d); the logical class of an error set is the charge it carries
rightwards across the left side, mod d (``PlanarGame.charge``), so there are
d classes. ``class_probabilities`` sums the weights of every error set with
the board's charges, class by class, and normalises: the posterior of the
classes. A correction wins exactly when it undoes the true class, so playing
a correction of the most likely class is the best any decoder can do.

The sum is a transfer matrix across the columns. The state at cut k (the line
left of column k) is the vector ``h`` of the values on the L horizontal edges
crossing it, written as prefix sums ``g_r = h_0 + ... + h_r`` (mod d). Column
c maps ``h_in`` to ``h_out = h_in + s - v_r + v_{r-1}`` (``s`` the column's
charges, ``v_r`` the vertical edge below row r); in prefix sums the vertical
edge below row r shifts ``g_r`` alone, by ``-v_r``, and the charges shift
every ``g_r`` by the column's prefix charge. Summing a vertical edge out is
then one operation along one axis: ``z * psi + q * psi.sum(axis)`` (with
``q = p / (d - 1)`` and ``z = 1 - p - q``, since ``w = q + z [v = 0]``), and
the weights of the horizontal edges at the next cut are one elementwise
product with a fixed tensor. The last axis, ``g_{L-1}``, is the total charge
crossing the cut: no vertical edge touches it, and at the right side it
tells the class (the charge across the left side plus the charges of the
whole board). The work is about ``3 L^2 d^L`` array operations per board and
the memory ``d^L`` numbers; each column's state is rescaled to its largest
entry, so nothing underflows.

Exact reach: boards with ``d^L <= EXACT_STATES`` (2^22 states, 32 MB), that
is d = 2 up to L = 22, d = 3 up to 13, d = 4 up to 11, d = 5 up to 9,
d = 6 to 8 up to 7 and d = 9 and 10 up to L = 6. Larger boards are refused
(``TooLargeForExact``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..errors import InvalidRuleSet

# The most states (d^L) the exact transfer matrix holds: 2^22 float64, 32 MB.
EXACT_STATES = 1 << 22


class TooLargeForExact(InvalidRuleSet):
    """The board has more than ``EXACT_STATES`` transfer states (d^L)."""


def exact_reaches(*, size: int, modulus: int) -> bool:
    """Whether the exact transfer matrix decodes L = ``size`` boards of Z_``modulus``."""
    return bool(modulus**size <= EXACT_STATES)


def _edge_weights(rate: float, modulus: int) -> tuple[float, float]:
    """``(w(0), w(a))``: no error, and one given error value a != 0."""
    return 1.0 - rate, rate / (modulus - 1)


@lru_cache(maxsize=16)
def _cut_weights(size: int, modulus: int, rate: float) -> NDArray[np.float64]:
    """The weight of a cut's L horizontal edges, indexed by their prefix sums g_0 .. g_{L-1}.

    ``W[g] = prod_r w(g_r - g_{r-1})`` (g_{-1} = 0). Read only: it is cached.
    """
    clean, error = _edge_weights(rate, modulus)
    single = np.full(modulus, error)
    single[0] = clean
    steps = np.arange(modulus)
    # pair[a, b] = w(b - a): the weight of the edge whose prefix sums go a -> b.
    pair = single[(steps[None, :] - steps[:, None]) % modulus]
    weights = single.reshape((modulus,) + (1,) * (size - 1))
    for row in range(1, size):
        shape = [1] * size
        shape[row - 1], shape[row] = modulus, modulus
        weights = weights * pair.reshape(shape)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    weights.setflags(write=False)
    return weights


def _checked(values: object, *, size: int, modulus: int, rate: float) -> NDArray[np.int64]:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidRuleSet("the size must be a positive integer")
    if isinstance(modulus, bool) or not isinstance(modulus, int) or not 2 <= modulus <= 10:
        raise InvalidRuleSet("the modulus must be an integer from 2 to 10")
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 < rate <= 1:
        raise InvalidRuleSet("the error rate must be above 0 and at most 1")
    board = np.asarray(values, dtype=np.int64)
    if board.shape != (size * size,):
        raise InvalidRuleSet(f"a board of size {size} has {size * size} values")
    if bool(((board < 0) | (board >= modulus)).any()):
        raise InvalidRuleSet(f"values must be 0 to {modulus - 1}")
    if not exact_reaches(size=size, modulus=modulus):
        raise TooLargeForExact(
            f"exact decoding holds d^L <= {EXACT_STATES} states; d = {modulus}, L = {size} "
            f"needs {modulus**size}"
        )
    return board.reshape(size, size)


def class_probabilities(values: object, *, size: int, modulus: int,
                        rate: float) -> NDArray[np.float64]:
    """The posterior probability of each logical class 0 .. d - 1 given the board's values.

    ``values`` are the L x L charges in row-major order (``PlanarGame.values``).
    Entry c is the probability that the noise carried charge c rightwards
    across the left side (``PlanarGame.charge`` of a game whose corrections
    carried none). The entries sum to 1. Exact, for ``exact_reaches`` boards.
    """
    board = _checked(values, size=size, modulus=modulus, rate=float(rate))
    rate = float(rate)
    clean, error = _edge_weights(rate, modulus)
    # A vertical edge summed out along its axis: w(v) = error + (clean - error) [v = 0].
    keep = clean - error
    weights = _cut_weights(size, modulus, rate)
    prefix = np.cumsum(board, axis=0) % modulus  # prefix[r, c]: charges of rows 0..r, column c
    # Row r's axis is worked on as the middle of three (before it, it, after it). So that
    # NumPy's inner loops stay long, the first half of the rows is worked on in the natural
    # order of the axes and the second half after moving the first half behind it (one
    # transpose); two buffers take turns as source and destination.
    half = (size + 1) // 2
    front, back = modulus**half, modulus ** (size - half)
    moved_weights = np.ascontiguousarray(weights.reshape(front, back).T).reshape(-1)
    psi = weights.reshape(-1) / weights.max()  # the left side's edges: the state at cut 0
    spare = np.empty_like(psi)
    summed = np.empty(modulus ** (size - 1))
    scale = 1.0
    for col in range(size):
        for row in range(size):
            if row == half:
                np.copyto(spare.reshape(back, front), psi.reshape(front, back).T)
                psi, spare = spare, psi
            position = row if row < half else row - half
            shape = (modulus**position, modulus, psi.size // modulus ** (position + 1))
            source, target = psi.reshape(shape), spare.reshape(shape)
            shift = int(prefix[row, col])
            if row < size - 1 and modulus == 2:
                # The same for d = 2 in fewer passes: a' = a + p (b - a), b' = b - p (b - a).
                change = summed.reshape(shape[0], shape[2])
                low, high = source[:, 0], source[:, 1]
                if scale != 1.0:
                    low *= 1.0 / scale
                    high *= 1.0 / scale
                    scale = 1.0
                np.subtract(high, low, out=change)
                change *= error
                np.add(low, change, out=target[:, shift])
                np.subtract(high, change, out=target[:, 1 - shift])
            elif row < size - 1:
                # Sum out the vertical edge below this row, and shift by the charges.
                total = summed.reshape(shape[0], shape[2])
                np.add(source[:, 0], source[:, 1], out=total)
                for value in range(2, modulus):
                    total += source[:, value]
                total *= error / scale
                for value in range(modulus):
                    np.multiply(source[:, (value - shift) % modulus], keep / scale,
                                out=target[:, value])
                    target[:, value] += total
                scale = 1.0
            else:
                # The total's axis has no vertical edge: shift it and weigh the next cut.
                cut = (moved_weights if size > half else weights.reshape(-1)).reshape(shape)
                for value in range(modulus):
                    np.multiply(source[:, (value - shift) % modulus], cut[:, value],
                                out=target[:, value])
            psi, spare = spare, psi
        if size > half:
            np.copyto(spare.reshape(front, back), psi.reshape(back, front).T)
            psi, spare = spare, psi
        scale = float(psi.max())
        if not scale > 0:  # only when p = 1 forbids every error set
            scale = 1.0
    # The last axis is the total charge crossing the right side: the class plus the board's.
    totals = psi.reshape(-1, modulus).sum(axis=0)
    total_charge = int(board.sum()) % modulus
    classes = totals[(total_charge - np.arange(modulus)) % modulus]
    norm = classes.sum()
    if not norm > 0:  # p = 1 and d = 2: only the board with every edge in error is possible
        raise InvalidRuleSet("no error set of positive probability has these charges")
    result: NDArray[np.float64] = classes / norm
    return result
