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

Exact reach: boards with ``d^L <= EXACT_STATES`` (2^20 states, 8 MB), that
is d = 2 up to L = 20, d = 3 up to 12, d = 4 up to 10, d = 5 up to 8,
d = 6 and 7 up to 7 and d = 8 to 10 up to L = 6 (``class_probabilities``
refuses larger boards with ``TooLargeForExact``). Beyond, the same state is
held as a matrix product state cut to a bond dimension
(``truncated_class_probabilities``), the bond doubled until the class
probabilities stop moving (``converged_class_probabilities``);
``posterior`` picks the method.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..errors import InvalidRuleSet

# The most states (d^L) the exact transfer matrix holds: 2^20 float64, 8 MB (about 1 s
# of work for d = 2, L = 20, beyond which the truncated contraction is faster).
EXACT_STATES = 1 << 20


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


def _checked_board(values: object, *, size: int, modulus: int, rate: float) -> NDArray[np.int64]:
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
    return board.reshape(size, size)


def _classes(totals: NDArray[np.float64], board: NDArray[np.int64],
             modulus: int) -> NDArray[np.float64]:
    """The class probabilities from the weights of the total charge crossing the right side.

    That total is the class (the charge across the left side) plus the board's.
    """
    total_charge = int(board.sum()) % modulus
    classes = totals[(total_charge - np.arange(modulus)) % modulus]
    norm = classes.sum()
    if not norm > 0:  # p = 1 and d = 2: only the board with every edge in error is possible
        raise InvalidRuleSet("no error set of positive probability has these charges")
    result: NDArray[np.float64] = classes / norm
    return result


def class_probabilities(values: object, *, size: int, modulus: int,
                        rate: float) -> NDArray[np.float64]:
    """The posterior probability of each logical class 0 .. d - 1 given the board's values.

    ``values`` are the L x L charges in row-major order (``PlanarGame.values``).
    Entry c is the probability that the noise carried charge c rightwards
    across the left side (``PlanarGame.charge`` of a game whose corrections
    carried none). The entries sum to 1. Exact, for ``exact_reaches`` boards.
    """
    board = _checked_board(values, size=size, modulus=modulus, rate=rate)
    if not exact_reaches(size=size, modulus=modulus):
        raise TooLargeForExact(
            f"exact decoding holds d^L <= {EXACT_STATES} states; d = {modulus}, L = {size} "
            f"needs {modulus**size}"
        )
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
    # The last axis is the total charge crossing the right side.
    return _classes(psi.reshape(-1, modulus).sum(axis=0), board, modulus)


# -- truncated: a matrix product state ------------------------------------------------------

# The class probabilities of the truncated contraction are accepted once doubling the bond
# dimension moves none of them by more than this, or at the largest bond (the cost grows
# as the cube of the bond times d^3: bond 64 at d = 10 already takes seconds).
TOLERANCE = 1e-4
FIRST_BOND = 8
MAX_BOND = 64


def _pair_weights(rate: float, modulus: int) -> NDArray[np.float64]:
    """``pair[a, b] = w(b - a)``: the weight of an edge whose prefix sums go from a to b."""
    clean, error = _edge_weights(rate, modulus)
    single = np.full(modulus, error)
    single[0] = clean
    steps = np.arange(modulus)
    pair: NDArray[np.float64] = single[(steps[None, :] - steps[:, None]) % modulus]
    return pair


def _weigh_cut(sites: list[NDArray[np.float64]],
               pair: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Multiply the state by the weights of a cut's edges, ``prod_r w(g_r - g_{r-1})``.

    Each site passes its prefix sum to the next through the bond (whose
    dimension grows d-fold), which weighs its own edge by the difference.
    """
    modulus = pair.shape[0]
    steps = np.arange(modulus)
    size = len(sites)
    weighed = []
    for row, site in enumerate(sites):
        left, _, right = site.shape
        if row == 0:
            # g_{-1} = 0: the first edge weighs w(g_0).
            tensor = site * pair[0][None, :, None]
        else:
            # tensor[(l, x), a, m] = site[l, a, m] * w(a - x), x the previous row's prefix sum.
            tensor = (site[:, None, :, :] * pair[None, :, :, None]).reshape(
                left * modulus, modulus, right)
        if row < size - 1:
            # The bond carries this row's prefix sum on: carried[l, a, (m, b)] = [a = b] ...
            carried = np.zeros((tensor.shape[0], modulus, right, modulus))
            carried[:, steps, :, steps] = tensor.transpose(1, 0, 2)
            tensor = carried.reshape(tensor.shape[0], modulus, right * modulus)
        weighed.append(tensor)
    return weighed


def _compress(sites: list[NDArray[np.float64]], bond: int) -> list[NDArray[np.float64]]:
    """The state with every bond cut to ``bond`` (left-orthogonal sweep, then SVD sweep)."""
    sites = list(sites)
    for row in range(len(sites) - 1):
        left, modulus, right = sites[row].shape
        q, r = np.linalg.qr(sites[row].reshape(left * modulus, right))
        sites[row] = q.reshape(left, modulus, -1)
        following = sites[row + 1]
        sites[row + 1] = (r @ following.reshape(following.shape[0], -1)).reshape(
            r.shape[0], modulus, following.shape[2])
    for row in range(len(sites) - 1, 0, -1):
        left, modulus, right = sites[row].shape
        u, s, vh = np.linalg.svd(sites[row].reshape(left, modulus * right), full_matrices=False)
        # Singular values at rounding level carry nothing: dropping them keeps bonds small.
        keep = max(1, min(bond, int((s > s[0] * 1e-15).sum()))) if s[0] > 0 else 1
        sites[row] = vh[:keep].reshape(keep, modulus, right)
        sites[row - 1] = sites[row - 1] @ (u[:, :keep] * s[:keep])
    peak = float(np.abs(sites[0]).max())
    if peak > 0:
        sites[0] = sites[0] / peak
    return sites


def truncated_class_probabilities(values: object, *, size: int, modulus: int, rate: float,
                                  bond: int) -> NDArray[np.float64]:
    """``class_probabilities`` by a matrix product state cut to bond dimension ``bond``.

    The state of the transfer matrix (module docstring) held as a product of
    one tensor per row (Bravyi, Suchara and Vargo, PRA 90, 032326 (2014), for
    this state): a vertical edge and the column's charges act on one row's
    tensor, the weights of a cut's edges join neighbouring rows and multiply
    the bonds by d, and the bonds are then cut back to ``bond`` by singular
    value decomposition. With ``bond`` at least d^(L/2) nothing is cut and the
    result is exact; below, it is an approximation that improves with ``bond``.
    """
    if isinstance(bond, bool) or not isinstance(bond, int) or bond < 1:
        raise InvalidRuleSet("the bond dimension must be a positive integer")
    board = _checked_board(values, size=size, modulus=modulus, rate=rate)
    rate = float(rate)
    pair = _pair_weights(rate, modulus)
    prefix = np.cumsum(board, axis=0) % modulus
    steps = np.arange(modulus)
    ones = np.ones((1, modulus, 1))
    sites = _compress(_weigh_cut([ones.copy() for _ in range(size)], pair), bond)
    for col in range(size):
        for row in range(size):
            shift = int(prefix[row, col])
            # new(g) = sum_b M[g, b] old(b): the vertical edge below (none on the last
            # row) summed out, then the shift by the column's charges.
            if row < size - 1:
                matrix = pair[(steps - shift) % modulus]
            else:
                matrix = (steps[None, :] == (steps[:, None] - shift) % modulus).astype(float)
            sites[row] = np.matmul(matrix, sites[row])
        sites = _compress(_weigh_cut(sites, pair), bond)
    vector = np.ones(1)
    for site in sites[:-1]:
        vector = vector @ site.sum(axis=1)
    totals = vector @ sites[-1][:, :, 0]
    # A cut state may give a class a slightly negative weight; it has none.
    return _classes(np.maximum(totals, 0.0), board, modulus)


def converged_class_probabilities(
    values: object, *, size: int, modulus: int, rate: float, tolerance: float = TOLERANCE,
    first_bond: int = FIRST_BOND, max_bond: int = MAX_BOND,
) -> tuple[NDArray[np.float64], int, float]:
    """The truncated class probabilities, the bond doubled from ``first_bond`` until stable.

    Returns the probabilities, the bond they were computed with and how far
    they moved from those of half that bond (the largest change of any class).
    The doubling stops when that change is at most ``tolerance`` or the bond
    reaches ``max_bond``.
    """
    bond = first_bond
    previous = truncated_class_probabilities(values, size=size, modulus=modulus, rate=rate,
                                             bond=bond)
    while True:
        bond *= 2
        current = truncated_class_probabilities(values, size=size, modulus=modulus, rate=rate,
                                                bond=bond)
        change = float(np.abs(current - previous).max())
        if change <= tolerance or bond >= max_bond:
            return current, bond, change
        previous = current


def posterior(values: object, *, size: int, modulus: int, rate: float) -> NDArray[np.float64]:
    """The class probabilities: exact where ``exact_reaches``, else converged truncated."""
    if exact_reaches(size=size, modulus=modulus):
        return class_probabilities(values, size=size, modulus=modulus, rate=rate)
    probabilities, _, _ = converged_class_probabilities(values, size=size, modulus=modulus,
                                                        rate=rate)
    return probabilities
