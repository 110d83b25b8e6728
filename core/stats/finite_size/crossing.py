"""Method 1: the crossings of adjacent-L curves (numpy only).

For each pair of neighbouring sizes the difference of their empirical
logits, d(p) = logit P_L'(p) - logit P_L(p) (L' > L), is negative below the
threshold and positive above. The crossing is the change of sign from
- to +, found as the rising root of a weighted parabola through the bracket
and two rates on each side (``_local_root``; linear interpolation between
the two bracketing rates when that fails); when noise makes the sign change
more than once, the split that leaves the fewest rates on the wrong side is
taken (and the count of sign changes is reported). An exact zero is no
crossing. The combined crossing is the inverse-variance-weighted mean of the
pairs' crossings, each pair's weight 1 / s^2 with s the width of its own
bootstrap percentile interval. A pair whose curves meet at a shallow angle
has a crossing that noise moves a long way, often into another interval of
the grid; with a plain mean such a pair sets the width of the combined
interval however well the others are measured. The quantile range is robust
(a few far-off resamples do not move it) and, unlike the interquartile
range, sees a crossing that jumps between grid intervals in a minority of
resamples. The weights are computed once and applied unchanged to the
estimate and to every resample, so the percentile interval of the combined
value carries the correlation between pairs that share a size (the weights'
own sampling error is left out, a second-order effect; the synthetic-data
tests check the coverage). ``combine="mean"`` gives the plain mean, for
comparison. Any combination assumes the pairs measure one crossing; when
their intervals do not all overlap (finite-size drift) the message says so,
since the combined interval does not include that drift.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .bootstrap import FloatArray, _contain, _percentile
from .records import CrossingEstimate, PairCrossing

COMBINE = ("weighted", "mean")
"""How the pairs' crossings are combined (see ``threshold_from_rates``)."""
LOCAL_FITS = ("quadratic", "line")
"""The curve through each pair's bracket and its neighbours (see ``_local_root``)."""


def _pair_crossings(
    d: FloatArray, rates: FloatArray, variance: FloatArray | None = None,
    fit: str = "quadratic",
) -> tuple[FloatArray, NDArray[np.int64], NDArray[np.int64]]:
    """The - to + crossing of each row of ``d`` (NaN: no comparison at that rate).

    Returns (crossing, index of the lower rate, sign changes), each per row;
    crossing NaN and index -1 where the row does not cross. With ``variance``
    (of each ``d``), the crossing inside the chosen bracket is refined by a
    local weighted parabola or line (``fit``, see ``_local_root``).
    """
    rows, columns = d.shape
    sign = np.sign(np.nan_to_num(d, nan=0.0))
    valid = sign != 0
    positive = np.cumsum(sign > 0, axis=1)  # positives in columns <= c
    negative = np.cumsum(sign < 0, axis=1)
    total_negative = negative[:, -1] if columns else np.zeros(rows)
    index = np.where(valid, np.arange(columns), -1)
    last_valid = np.maximum.accumulate(index, axis=1)  # last valid column <= c
    reverse = np.where(valid, np.arange(columns), columns)[:, ::-1]
    next_valid = np.minimum.accumulate(reverse, axis=1)[:, ::-1]  # first valid column >= c
    best = np.full(rows, np.inf)
    crossing = np.full(rows, np.nan)
    lower_index = np.full(rows, -1)
    changes = np.zeros(rows, dtype=np.int64)
    take = np.arange(rows)
    for c in range(1, columns):
        a = last_valid[:, c - 1]
        b = next_valid[:, c]
        ok = (a >= 0) & (b < columns)
        a_safe = np.where(ok, a, 0)
        b_safe = np.where(ok, b, 0)
        sa = sign[take, a_safe]
        sb = sign[take, b_safe]
        adjacent = ok & (b == c) & (sa * sb < 0)  # count each consecutive pair once
        changes += adjacent
        candidate = ok & (sa < 0) & (sb > 0)
        wrong = positive[take, a_safe] + (total_negative - negative[take, a_safe])
        better = candidate & (wrong < best)
        if not better.any():
            continue
        da = d[take, a_safe]
        db = d[take, b_safe]
        ra = rates[a_safe]
        rb = rates[b_safe]
        with np.errstate(invalid="ignore", divide="ignore"):
            value = ra + (rb - ra) * (-da) / (db - da)
        best = np.where(better, wrong, best)
        crossing = np.where(better, value, crossing)
        lower_index = np.where(better, a_safe, lower_index)
    if variance is not None and columns > 2:
        refined = _local_root(d, variance, rates, lower_index, last_valid, next_valid, fit)
        crossing = np.where(np.isfinite(refined), refined, crossing)
    return crossing, lower_index, changes


def _local_root(d: FloatArray, variance: FloatArray, rates: FloatArray,
                lower_index: NDArray[np.int64], last_valid: NDArray[np.int64],
                next_valid: NDArray[np.int64], fit: str = "quadratic") -> FloatArray:
    """Where a weighted curve through d at the bracket and its neighbours is 0.

    The bracket is the pair of valid rates around the chosen sign change. With
    ``fit="line"`` its neighbours are the valid rates just outside it (up to
    four points) and the curve a straight line; with ``fit="quadratic"`` (the
    default) two valid rates on each side (up to six points) and a parabola,
    its rising root taken. Weights 1 / variance. Interpolating between the two
    bracketing points alone makes a resampled crossing jump with the noise of
    two points; a line through four narrows it, but d is curved near the
    crossing whenever the scaling function is (a quadratic term in the
    logit), and a line or chord through a curved d misses its root to one
    side: on synthetic curves shaped like the planar runs by about 0.0025,
    two thirds of the estimate's own standard deviation, which cut the
    coverage of a 95% interval to 75% with four sizes. The parabola has no
    such bias. NaN (the caller keeps the interpolation) with too few points
    (three for a line, four for a parabola), no rising root, or a root
    outside those points.
    """
    rows, columns = d.shape
    take = np.arange(rows)
    has = lower_index >= 0
    a = np.where(has, lower_index, 0)
    b = next_valid[take, np.minimum(a + 1, columns - 1)]

    def previous(index: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.where(index > 0, last_valid[take, np.maximum(index - 1, 0)], -1)

    def following(index: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.where((index >= 0) & (index + 1 < columns),
                        next_valid[take, np.clip(index + 1, 0, columns - 1)], columns)

    before = previous(a)
    after = following(b)
    if fit == "line":
        window = np.stack([before, a, b, after], axis=1)
        needed, degree = 3, 1
    else:
        before2 = np.where(before >= 0, previous(before), -1)
        after2 = np.where(after < columns, following(after), columns)
        window = np.stack([before2, before, a, b, after, after2], axis=1)
        needed, degree = 4, 2
    present = (window >= 0) & (window < columns) & has[:, None]
    safe = np.clip(window, 0, columns - 1)
    x = rates[safe]
    y = d[take[:, None], safe]
    centre = (rates[a] + rates[np.clip(b, 0, columns - 1)]) / 2
    spread = float(np.ptp(rates)) or 1.0
    u = (x - centre[:, None]) / spread  # centred and scaled: a well-conditioned fit
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(present & np.isfinite(y), 1.0 / variance[take[:, None], safe], 0.0)
        w = np.where(np.isfinite(w), w, 0.0)
        y = np.where(w > 0, y, 0.0)
        design = np.stack([u**k for k in range(degree + 1)], axis=-1)  # (rows, points, k)
        weighted = design * w[..., None]
        normal = np.swapaxes(weighted, 1, 2) @ design + np.eye(degree + 1) * 1e-12
        right = (np.swapaxes(weighted, 1, 2) @ y[..., None])[..., 0]
        enough = (w > 0).sum(axis=1) >= needed
        normal = np.where(enough[:, None, None], normal, np.eye(degree + 1))
        coefficients = np.linalg.solve(normal, right[..., None])[..., 0]
        c0, c1 = coefficients[:, 0], coefficients[:, 1]
        c2 = coefficients[:, 2] if degree == 2 else np.zeros(rows)
        # The rising root of c0 + c1 u + c2 u^2, in a form that stays finite as c2 -> 0:
        # u = -2 c0 / (c1 + sqrt(c1^2 - 4 c0 c2)), where the slope is +sqrt(...) > 0.
        root_term = np.sqrt(c1 * c1 - 4 * c0 * c2)
        rising = c1 + root_term
        root = centre + spread * (-2 * c0 / rising)
    low = np.min(np.where(present, x, np.inf), axis=1)
    high = np.max(np.where(present, x, -np.inf), axis=1)
    ok = (has & enough & np.isfinite(root_term) & (rising > 0) & np.isfinite(root)
          & (root >= low) & (root <= high))
    return np.where(ok, root, np.nan)


def pair_weights(crossings: FloatArray, level: float = 0.95) -> FloatArray:
    """Inverse-variance weights of the pairs, from their resampled crossings.

    ``crossings`` is (pairs, resamples + 1), row 0 of each the estimate. Each
    pair's spread is the width of the central ``level`` range of its
    resampled crossings (those in which it crossed), that is of its own
    percentile interval: a robust measure (a few far-off resamples do not
    move a quantile) that also sees what the interquartile range misses when
    noise makes a pair's crossing jump between intervals of the grid (a
    narrow main mode with a wide spread of others). For a normal
    distribution it is 2 x 1.96 standard deviations. The weights are the
    inverse squares, normalised to sum to 1. A pair whose spread cannot be
    measured (fewer than two finite resamples) gets the widest measured
    spread; a spread of 0 is raised to a millionth of the widest, so that no
    pair takes all the weight by a rounding accident.
    """
    resampled = crossings[:, 1:]
    alpha = 1 - level
    spreads = np.full(crossings.shape[0], np.nan)
    for row in range(crossings.shape[0]):
        finite = resampled[row][np.isfinite(resampled[row])]
        if finite.size >= 2:
            low, high = np.quantile(finite, [alpha / 2, 1 - alpha / 2])
            spreads[row] = high - low
    measured = spreads[np.isfinite(spreads)]
    widest = float(measured.max()) if measured.size and measured.max() > 0 else 1.0
    spreads = np.where(np.isfinite(spreads), spreads, widest)
    spreads = np.maximum(spreads, widest * 1e-6)
    weights = 1.0 / spreads**2
    return np.asarray(weights / weights.sum(), dtype=np.float64)


def _combine(stacked: FloatArray, combine: str, level: float) -> FloatArray:
    """The combined crossing of every row of resamples: one fixed set of weights for all."""
    if combine == "mean":
        return np.asarray(stacked.mean(axis=0), dtype=np.float64)
    weights = pair_weights(stacked, level)
    return np.asarray(weights @ stacked, dtype=np.float64)  # NaN stays NaN


def _crossings(
    y: FloatArray, usable: NDArray[np.bool_], informative: NDArray[np.bool_],
    rates: FloatArray, sizes: Sequence[int], level: float, combine: str = "weighted",
    variance: FloatArray | None = None, fit: str = "quadratic",
) -> CrossingEstimate:
    """Crossings of every neighbouring pair; ``y`` and ``variance`` (of each logit) are
    (resamples + 1, sizes, rates)."""
    pairs = []
    values = []
    for i in range(len(sizes) - 1):
        mask = usable[i] & usable[i + 1] & (informative[i] | informative[i + 1])
        d = y[:, i + 1, :] - y[:, i, :]
        d = np.where(mask[None, :], d, np.nan)
        pair_variance = (None if variance is None
                         else variance[:, i + 1, :] + variance[:, i, :])
        crossing, lower_index, changes = _pair_crossings(d, rates, pair_variance, fit)
        estimate = float(crossing[0])
        resampled = crossing[1:]
        fraction = float(np.isfinite(resampled).mean()) if resampled.size else 0.0
        if math.isfinite(estimate):
            low, high = _contain(estimate, _percentile(resampled, level))
            valid_columns = np.flatnonzero(mask)
            a = int(lower_index[0])
            b = int(valid_columns[valid_columns > a].min())
            edge = a == int(valid_columns.min()) or b == int(valid_columns.max())
            pairs.append(PairCrossing((sizes[i], sizes[i + 1]), estimate, low, high, fraction,
                                      int(changes[0]), bool(edge)))
            values.append(crossing)
        else:
            pairs.append(PairCrossing((sizes[i], sizes[i + 1]), None, None, None, fraction,
                                      int(changes[0]), False))
    if not values:
        return CrossingEstimate(None, None, None, level, 0.0, False, tuple(pairs),
                                "the curves do not cross")
    stacked = np.vstack(values)  # (pairs crossing, resamples + 1)
    mean = _combine(stacked, combine, level)  # NaN where some crossing pair did not cross again
    value = float(mean[0])
    fraction = float(np.isfinite(mean[1:]).mean()) if mean.size > 1 else 0.0
    interval = _percentile(mean[1:], level)
    low, high = _contain(value, interval)
    edge = any(p.edge for p in pairs if p.value is not None)
    notes = []
    missing = [p for p in pairs if p.value is None]
    if missing:
        notes.append("no crossing for " + ", ".join(f"L={a},{b}" for a, b in
                                                     (p.sizes for p in missing)))
    noisy = [p for p in pairs if p.sign_changes > 1]
    if noisy:
        notes.append("the sign changes more than once for " + ", ".join(
            f"L={p.sizes[0]},{p.sizes[1]}" for p in noisy))
    crossed = [p for p in pairs if p.lower is not None and p.upper is not None]
    if len(crossed) > 1 and (max(p.lower for p in crossed if p.lower is not None)
                             > min(p.upper for p in crossed if p.upper is not None)):
        notes.append("the pairs' crossings disagree (their intervals do not all overlap: the "
                     "crossing drifts with L, which the combined interval does not include)")
    if fraction < level:
        notes.append(f"only {fraction:.0%} of the resamples crossed again: the interval is "
                     "too narrow")
    if edge:
        notes.append("a crossing lies at the edge of the swept range")
    message = "crossing found" + ("; " + "; ".join(notes) if notes else "")
    return CrossingEstimate(value, low, high, level, fraction, edge, tuple(pairs), message)



def pairs_drift(pairs: Sequence[PairCrossing]) -> bool:
    """Whether the pairs' crossings move one way with L, beyond their own intervals.

    True when at least two neighbouring pairs cross, their crossings (in order of size)
    all move the same way, and the first pair's interval and the last's do not overlap.
    """
    crossed = [(p.value, p.lower, p.upper) for p in pairs
               if p.value is not None and p.lower is not None and p.upper is not None]
    if len(crossed) < 2:
        return False
    steps = np.diff([value for value, _, _ in crossed])
    if not (np.all(steps > 0) or np.all(steps < 0)):
        return False
    (_, first_lower, first_upper), (_, last_lower, last_upper) = crossed[0], crossed[-1]
    return first_upper < last_lower or last_upper < first_lower
