"""The threshold from failure probabilities, by two methods side by side (numpy only).

The data are points ``(L, p, failures, trials)``: for a one-shot family the
shots that failed out of the shots that finished; for a sustained family the
losses out of the game-rounds at risk of the hazard plateau (each game-round
a Bernoulli trial, as in the plateau's Wilson interval). Below the threshold
a bigger board fails less often, above it more often, so the curves of
failure against ``p`` for different L cross at the threshold ``p_th``.

1. **Crossings of adjacent-L curves.** For each pair of neighbouring sizes
   the difference of their empirical logits, d(p) = logit P_L'(p) -
   logit P_L(p) (L' > L), is negative below the threshold and positive above.
   The crossing is the change of sign from - to +, found as the rising
   root of a weighted parabola through the bracket and two rates on each
   side (``_local_root``; linear interpolation between the two bracketing
   rates when that fails); when noise
   makes the sign change more than once, the split that leaves the fewest
   rates on the wrong side is taken (and the count of sign changes is
   reported). An exact zero is no crossing. The headline value is the
   inverse-variance-weighted mean of the pairs' crossings, each pair's
   weight 1 / s^2 with s the width of its own bootstrap percentile
   interval. A pair whose curves meet at a shallow angle has a crossing
   that noise moves a long way, often into another interval of the grid;
   with a plain mean such a pair sets the width of the combined interval
   however well the others are measured. The quantile range is robust (a
   few far-off resamples do not move it) and, unlike the interquartile
   range, sees a crossing that jumps between grid intervals in a minority
   of resamples. The weights are computed once and applied unchanged to
   the estimate and to every resample, so the percentile interval of the
   combined value carries the correlation between pairs that share a size
   (the weights' own sampling error is left out, a second-order effect;
   the synthetic-data tests check the coverage). ``combine="mean"`` gives
   the plain mean, for comparison. Any combination assumes the pairs
   measure one crossing; when their intervals do not all overlap (finite-
   size drift) the message says so, since the combined interval does not
   include that drift.
2. **Finite-size scaling.** ``logit P = f(x)``, ``x = (p - p_th) L^(1/nu)``,
   with f a quadratic ``a + b x + c x^2``, fitted by weighted least squares
   on the empirical logits (weights: the inverse of their delta-method
   variance). The logit link keeps f a low-order polynomial over a range
   that runs from almost no failures to almost all; near the threshold it
   is the usual quadratic in P to first order. ``(p_th, 1/nu)`` are found by
   a profile search on a grid, refined three times; ``a, b, c`` are linear
   given them. The fit's quality is chi^2 per degree of freedom.

   With four sizes or more the fit has a correction-to-scaling term:
   ``logit P = a + b x + c x^2 + d L^-omega`` with omega fixed at 1 (the
   ``D L^(-1/mu)`` of Wang, Harrington and Preskill 2003, its exponent not
   fitted: four or five sizes cannot pin it down). ``d`` is linear too, so
   the search is unchanged. Such a term moves the crossings of small sizes
   off ``p_th``; left out, it pulls the fit's ``p_th`` by about one of its
   own standard errors while chi^2 stays near one per degree of freedom (a
   change of ``p_th`` and ``nu`` absorbs most of it), so a test of the term
   finds it only when it is large, and a fit that added the term only when
   the test found it would keep the too-narrow interval. The term is
   therefore always in (with four sizes or more), at the price of a wider
   interval. With three sizes it is all but collinear with ``p_th`` (the
   interval grows about sixfold) and with two it cannot be identified at
   all: there the fit has no term, and its message says that it assumes no
   finite-size drift. The term is called significant (finite-size drift)
   when chi^2 falls by more than the chi^2 quantile of one degree of freedom
   at the interval's level (3.84 at 95%) when it is added; the report's
   message names drift then, or when the pairs' crossings move one way with
   L beyond their own intervals (``pairs_drift``).

**The headline** (``ThresholdReport.headline``, the estimate a summary quotes
first) is the scaling fit with its correction term when there are four sizes
or more; otherwise the crossing, labelled a *finite-size estimate*. On
synthetic curves shaped like the planar runs with a 1.2/L drift of the
crossing (``bench/coverage.py``) only the corrected fit kept its 95%
interval's coverage: the crossings estimate where curves of these sizes
cross, and a fit of three sizes has no term for the drift.

Intervals come from a parametric bootstrap: every point's failures are
redrawn (for the crossings from Binomial(trials, failures / trials), for
the scaling fit from the fitted model, its correction term included) and
both estimates are redone, all resamples at once. Percentile intervals; a
value outside its own interval (possible with a percentile interval) widens
the interval to contain it.

A point where every game was censored (no trials) or every game failed
says nothing about the trend and is left out of both methods, by name. No
crossing in the swept range gives no number at all, only the direction:
failure falling with L everywhere (below threshold everywhere) or rising
(above threshold everywhere). A crossing in the first or last interval of
the swept rates is flagged as at the edge of the range.

The empirical logit is ``log((k + 1/2) / (n - k + 1/2))`` (Haldane and
Anscombe), finite at k = 0; its variance is ``1/(k + 1/2) + 1/(n - k + 1/2)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from ..intervals import wilson_interval, z_for

FloatArray = NDArray[np.float64]

MU_RANGE = (0.1, 3.0)
"""The search range of 1/nu (nu from 1/3 to 10)."""

GRID = 31  # points per axis of the coarse grid
REFINE = 7  # points per axis of each refinement
REFINEMENTS = 3
CORRECTION_OMEGA = 1.0
"""The exponent of the correction-to-scaling term ``d L^-omega`` (fixed, not fitted)."""
CORRECTION_SIZES = 4
"""The fewest sizes with which the scaling fit includes the correction term."""
COMBINE = ("weighted", "mean")
LOCAL_FITS = ("quadratic", "line")
"""The curve through each pair's bracket and its neighbours (see ``_local_root``)."""
"""How the pairs' crossings are combined (see ``threshold_from_rates``)."""


@dataclass(frozen=True, slots=True)
class RatePoint:
    """One (L, p) point: ``failures`` out of ``trials``; ``censored`` games counted in neither."""

    size: int
    rate: float
    failures: int
    trials: int
    censored: int = 0

    def __post_init__(self) -> None:
        for name in ("size", "failures", "trials", "censored"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if self.size < 1:
            raise ValueError("size must be positive")
        if self.failures > self.trials:
            raise ValueError("failures cannot exceed trials")
        if (isinstance(self.rate, bool) or not isinstance(self.rate, int | float)
                or not math.isfinite(self.rate)):
            raise ValueError(f"rate must be a finite number, got {self.rate!r}")

    @property
    def probability(self) -> float | None:
        return self.failures / self.trials if self.trials else None

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        return wilson_interval(self.failures, self.trials, z)

    @property
    def exclusion(self) -> str:
        """Why the point says nothing about the trend ("" when it is usable)."""
        if self.trials == 0:
            return "every game was censored" if self.censored else "no games"
        if self.failures == self.trials:
            return "every game failed"
        return ""


@dataclass(frozen=True, slots=True)
class ExcludedPoint:
    size: int
    rate: float
    reason: str

    def __str__(self) -> str:
        return f"L={self.size} p={self.rate:g} ({self.reason})"


@dataclass(frozen=True, slots=True)
class PairCrossing:
    """Where the curves of two neighbouring sizes cross (None: they do not)."""

    sizes: tuple[int, int]
    value: float | None
    lower: float | None
    upper: float | None
    fraction: float  # share of resamples in which this pair crossed
    sign_changes: int
    edge: bool


@dataclass(frozen=True)
class CrossingEstimate:
    value: float | None
    lower: float | None
    upper: float | None
    level: float
    fraction: float  # share of resamples in which every crossing pair crossed again
    edge: bool
    pairs: tuple[PairCrossing, ...]
    message: str


@dataclass(frozen=True)
class ScalingFit:
    p_th: float | None
    lower: float | None
    upper: float | None
    nu: float | None
    nu_lower: float | None
    nu_upper: float | None
    coefficients: tuple[float, float, float] | None  # a, b, c of f
    chi2: float | None
    dof: int
    points: int
    edge: bool  # the best fit sits at the edge of the searched p or nu range
    message: str
    correction: float | None = None  # d of the term d L^-omega in logit P; None: not fitted
    omega: float | None = None  # the fixed exponent of that term; None: not fitted
    drift: bool = False  # the correction term is significant (finite-size drift)

    @property
    def chi2_dof(self) -> float | None:
        if self.chi2 is None or self.dof < 1:
            return None
        return self.chi2 / self.dof


@dataclass(frozen=True, slots=True)
class Headline:
    """The estimate a summary quotes first (see ``_headline``).

    ``method``: "scaling" (the fit with its correction term, four sizes or more)
    or "crossing". ``finite_size``: a finite-size estimate, whose interval does
    not allow for drift of the crossing with L: quoted as such, not as the
    threshold.
    """

    method: str
    value: float
    lower: float
    upper: float
    finite_size: bool

    @property
    def label(self) -> str:
        return "finite-size estimate" if self.finite_size else "threshold"


@dataclass(frozen=True)
class ThresholdReport:
    crossing: CrossingEstimate
    scaling: ScalingFit
    excluded: tuple[ExcludedPoint, ...]
    direction: str  # "crossing", "below" (everywhere), "above" (everywhere), "unclear"
    rate_range: tuple[float, float] | None
    agree: bool | None  # the two intervals overlap; None when either is missing
    level: float
    message: str
    sizes: tuple[int, ...] = field(default=())
    drift: bool = False  # finite-size drift is seen (see ``_drift_note``); the message says so
    headline: Headline | None = None  # the estimate to quote first; None: no crossing


# -- helpers --------------------------------------------------------------------------


def empirical_logit(failures: FloatArray, trials: FloatArray) -> FloatArray:
    return np.asarray(np.log((failures + 0.5) / (trials - failures + 0.5)), dtype=np.float64)


def logit_variance(failures: FloatArray, trials: FloatArray) -> FloatArray:
    return np.asarray(1.0 / (failures + 0.5) + 1.0 / (trials - failures + 0.5),
                      dtype=np.float64)


def _percentile(values: FloatArray, level: float) -> tuple[float, float] | None:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None
    alpha = 1 - level
    low, high = np.quantile(finite, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def _contain(value: float, interval: tuple[float, float] | None) -> tuple[float, float]:
    if interval is None:
        return (value, value)
    return (min(interval[0], value), max(interval[1], value))


# -- 1. crossings ---------------------------------------------------------------------------


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


# -- 2. finite-size scaling ------------------------------------------------------------------


def _design(x: FloatArray, extra: FloatArray | None = None) -> FloatArray:
    """The columns of f (1, x, x^2) and, given, the correction column ``extra`` (per point)."""
    columns = [np.ones_like(x), x, x * x]
    if extra is not None:
        columns.append(np.broadcast_to(extra, x.shape))
    return np.stack(columns, axis=-1)


def _correction_column(sizes: FloatArray, omega: float | None) -> FloatArray | None:
    """``(L_min / L)^omega``: the correction L^-omega, scaled to 1 at the smallest size."""
    if omega is None:
        return None
    return np.asarray((sizes.min() / sizes) ** omega, dtype=np.float64)


def _profile(
    y: FloatArray, w: FloatArray, rates: FloatArray, log_sizes: FloatArray,
    p_grid: FloatArray, mu_grid: FloatArray, extra: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """chi^2 minimised over the linear coefficients for every resample and its own grid points.

    ``y``: (B, M); ``w``: (M,); ``p_grid``, ``mu_grid``: (B, G). Returns (B, G) and (B, G, k),
    k = 3, or 4 with the correction column.
    """
    x = (rates[None, None, :] - p_grid[:, :, None]) * np.exp(mu_grid[:, :, None]
                                                             * log_sizes[None, None, :])
    design = _design(x, extra)  # (B, G, M, k)
    k = design.shape[-1]
    weighted = design * w[None, None, :, None]
    normal = np.swapaxes(weighted, -1, -2) @ design  # (B, G, k, k)
    right = (np.swapaxes(weighted, -1, -2) @ y[:, None, :, None])[..., 0]  # (B, G, k)
    normal += np.eye(k) * 1e-12
    beta = np.linalg.solve(normal, right[..., None])[..., 0]
    total = (y * y) @ w
    chi2 = total[:, None] - np.einsum("bgi,bgi->bg", right, beta)
    return np.maximum(chi2, 0.0), beta.astype(np.float64, copy=False)


def _coarse(
    y: FloatArray, w: FloatArray, rates: FloatArray, log_sizes: FloatArray,
    p_grid: FloatArray, mu_grid: FloatArray, extra: FloatArray | None = None,
) -> FloatArray:
    """chi^2 on one grid shared by every resample: (B, G), by matrix products."""
    x = (rates[None, :] - p_grid[:, None]) * np.exp(mu_grid[:, None] * log_sizes[None, :])
    design = _design(x, extra)  # (G, M, k)
    k = design.shape[-1]
    weighted = design * w[None, :, None]
    normal = np.swapaxes(weighted, -1, -2) @ design + np.eye(k) * 1e-12  # (G, k, k)
    inverse = np.linalg.inv(normal)
    grid = p_grid.size
    right = (np.swapaxes(weighted, -1, -2).reshape(grid * k, -1) @ y.T)  # (G * k, B)
    right = right.reshape(grid, k, -1)
    explained = np.einsum("gib,gij,gjb->bg", right, inverse, right)
    chi2: FloatArray = np.maximum(((y * y) @ w)[:, None] - explained, 0.0)
    return chi2


def _fit_scaling(
    y: FloatArray, w: FloatArray, rates: FloatArray, sizes: FloatArray,
    p_range: tuple[float, float], omega: float | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, NDArray[np.bool_]]:
    """Best (p_th, mu, chi2, coefficients, at-edge) for each resample (row of ``y``).

    With ``omega`` the model has the correction column ``(L_min / L)^omega`` as a fourth
    linear coefficient (see ``_correction_column``).
    """
    resamples = y.shape[0]
    log_sizes = np.log(sizes)
    extra = _correction_column(sizes, omega)
    p_axis = np.linspace(p_range[0], p_range[1], GRID)
    mu_axis = np.linspace(MU_RANGE[0], MU_RANGE[1], GRID)
    pp, mm = np.meshgrid(p_axis, mu_axis, indexing="ij")
    flat_p, flat_mu = pp.ravel(), mm.ravel()
    p_step = p_axis[1] - p_axis[0]
    mu_step = mu_axis[1] - mu_axis[0]
    chi2 = _coarse(y, w, rates, log_sizes, flat_p, flat_mu, extra)
    pick = np.argmin(chi2, axis=1)
    best_p, best_mu = flat_p[pick], flat_mu[pick]
    edge = (np.isclose(best_p, p_range[0]) | np.isclose(best_p, p_range[1])
            | np.isclose(best_mu, MU_RANGE[0]) | np.isclose(best_mu, MU_RANGE[1]))
    offsets = np.linspace(-1.0, 1.0, REFINE)
    oo_p, oo_mu = np.meshgrid(offsets, offsets, indexing="ij")
    take = np.arange(resamples)
    best_chi2 = chi2[take, pick]
    beta = np.zeros((resamples, 3 if extra is None else 4))
    for _ in range(REFINEMENTS):
        grid_p = np.clip(best_p[:, None] + oo_p.ravel()[None, :] * p_step, *p_range)
        grid_mu = np.clip(best_mu[:, None] + oo_mu.ravel()[None, :] * mu_step, *MU_RANGE)
        chi2, coefficients = _profile(y, w, rates, log_sizes, grid_p, grid_mu, extra)
        pick = np.argmin(chi2, axis=1)
        best_chi2 = chi2[take, pick]
        best_p = grid_p[take, pick]
        best_mu = grid_mu[take, pick]
        beta = coefficients[take, pick]
        p_step *= 2.0 / (REFINE - 1)
        mu_step *= 2.0 / (REFINE - 1)
    return best_p, best_mu, best_chi2, beta, edge


def _fitted_probability(
    rates: FloatArray, sizes: FloatArray, p_th: float, mu: float, beta: FloatArray,
    omega: float | None,
) -> FloatArray:
    x = (rates - p_th) * sizes**mu
    logit = _design(x, _correction_column(sizes, omega)) @ beta
    return np.asarray(1 / (1 + np.exp(-logit)), dtype=np.float64)


def _scaling(
    failures: FloatArray, trials: FloatArray, rates: FloatArray, sizes: FloatArray,
    level: float, p_range: tuple[float, float], rng: np.random.Generator, n_resamples: int,
) -> ScalingFit:
    points = failures.size
    distinct = len(set(sizes.tolist()))
    if distinct < 2 or points - 5 < 1:
        return ScalingFit(None, None, None, None, None, None, None, None, max(points - 5, 0),
                          points, False, "too few usable points for a scaling fit (needs two "
                          "sizes and more than five points)")
    corrected = distinct >= CORRECTION_SIZES and points - 6 >= 1
    omega = CORRECTION_OMEGA if corrected else None
    dof = points - (6 if corrected else 5)
    # First fit the data alone with the empirical weights, then refit everything with
    # weights from that fit, the same for every resample (weights that follow each
    # resample's own counts would bias the fit toward the points that came out low).
    # The resamples are drawn from the fitted model (a parametric bootstrap under the
    # fit): drawn from the observed proportions instead, a point with no failure
    # would never vary and the interval would come out too narrow.
    y0 = empirical_logit(failures, trials)[None]
    p0, mu0, _, beta0, _ = _fit_scaling(y0, 1 / logit_variance(failures, trials), rates, sizes,
                                        p_range, omega)
    fitted = _fitted_probability(rates, sizes, float(p0[0]), float(mu0[0]), beta0[0], omega)
    w = trials * np.clip(fitted * (1 - fitted), 1e-4, None)
    drawn = rng.binomial(trials.astype(np.int64)[None], fitted[None],
                         size=(n_resamples, points)).astype(np.float64)
    y = np.concatenate([y0, empirical_logit(drawn, trials[None])])
    p_th, mu, chi2, beta, edge = _fit_scaling(y, w, rates, sizes, p_range, omega)
    value, value_mu = float(p_th[0]), float(mu[0])
    keep = ~edge[1:]
    p_low, p_high = _contain(value, _percentile(np.where(keep, p_th[1:], np.nan), level))
    mu_interval = _percentile(np.where(keep, mu[1:], np.nan), level)
    mu_low, mu_high = _contain(value_mu, mu_interval)
    coefficients = (float(beta[0, 0]), float(beta[0, 1]), float(beta[0, 2]))
    correction = None
    drift = False
    notes = []
    if omega is not None:
        # The fitted coefficient multiplies (L_min / L)^omega: d = that times L_min^omega.
        correction = float(beta[0, 3]) * float(sizes.min()) ** omega
        notes.append(f"correction term d L^-{omega:g} with d = {correction:.3g}")
        # Is the term significant? The fall in chi^2 when it is added (same data, same
        # weights), against the chi^2 quantile of one degree of freedom at ``level``.
        _, _, plain_chi2, _, _ = _fit_scaling(y0, w, rates, sizes, p_range)
        fall = float(plain_chi2[0]) - float(chi2[0])
        drift = fall > z_for(level) ** 2
        if drift:
            notes.append(f"finite-size drift: the correction term is significant (chi2 falls "
                         f"by {fall:.1f} with it)")
    elif distinct < CORRECTION_SIZES:
        notes.append(f"{distinct} sizes: a correction-to-scaling term needs "
                     f"{CORRECTION_SIZES}, so the fit assumes no finite-size drift")
    else:
        notes.append("too few points for a correction-to-scaling term, so the fit assumes no "
                     "finite-size drift")
    if edge[0]:
        notes.append("the best fit lies at the edge of the searched range")
    if coefficients[1] <= 0:
        notes.append("f falls with x: the data do not look like a threshold")
    edge_share = float(edge[1:].mean()) if edge.size > 1 else 0.0
    if edge_share > 1 - level:
        notes.append(f"{edge_share:.0%} of the resamples fitted at the edge of the range")
    quality = float(chi2[0]) / dof
    if quality > 3:
        notes.append(f"poor fit: chi2/dof = {quality:.1f}")
    message = "scaling fit; " + "; ".join(notes)
    return ScalingFit(value, p_low, p_high, 1 / value_mu, 1 / mu_high, 1 / mu_low, coefficients,
                      float(chi2[0]), dof, points, bool(edge[0]), message,
                      correction=correction, omega=omega, drift=drift)


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


def _drift_note(crossing: CrossingEstimate, scaling: ScalingFit) -> str:
    """The report's sentence on finite-size drift ("" when none is seen)."""
    moving = pairs_drift(crossing.pairs)
    if not (moving or scaling.drift):
        return ""
    crossed = ", ".join(f"{p.value:.4f} at {p.sizes[0]}-{p.sizes[1]}" for p in crossing.pairs
                        if p.value is not None)
    if moving:
        note = f"finite-size drift: the pair crossings move with L ({crossed})"
    else:
        note = (f"finite-size drift: the scaling fit's correction term is significant (pair "
                f"crossings {crossed})")
    if scaling.p_th is None or scaling.edge:
        return note
    if scaling.omega is not None:
        return (note + f"; the scaling fit includes a correction term d L^-{scaling.omega:g} "
                "and its interval is widened accordingly")
    return (note + "; the scaling fit has no correction term (too few sizes or points), so its "
            "interval leaves the drift out")


# -- both ---------------------------------------------------------------------------------------


def _direction(y0: FloatArray, usable: NDArray[np.bool_],
               informative: NDArray[np.bool_]) -> str:
    """"below" when failure falls with L at (nearly) every compared rate, "above" when it rises."""
    signs = []
    for i in range(y0.shape[0] - 1):
        mask = usable[i] & usable[i + 1] & (informative[i] | informative[i + 1])
        d = (y0[i + 1] - y0[i])[mask]
        signs.extend(np.sign(d[d != 0]).tolist())
    if not signs:
        return "unclear"
    rising = sum(1 for s in signs if s > 0)
    if rising == 0:
        return "below"
    if rising == len(signs):
        return "above"
    return "unclear"


def threshold_from_rates(
    points: Iterable[RatePoint],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    combine: str = "weighted",
    local: bool = True,
    local_fit: str = "quadratic",
    scaling_fit: bool = True,
) -> ThresholdReport:
    """Crossings and a scaling fit of failure against ``p``, per L (see the module notes).

    ``local``: each pair's crossing from a weighted curve through the bracket
    and its neighbouring rates (the default); False interpolates between the
    two bracketing rates only (kept for comparison). ``local_fit`` is that
    curve: ``"quadratic"`` (a parabola through two rates on each side, the
    default) or ``"line"`` (a line through one on each side, as before; kept
    for comparison).

    ``scaling_fit=False`` leaves the scaling fit out (most of the time a call takes), for a
    benchmark that reads the crossings alone.

    ``combine`` says how the pairs' crossings make the headline crossing:
    ``"weighted"`` (their inverse-variance-weighted mean, the default) or
    ``"mean"`` (their plain mean, kept for comparison).
    """
    if combine not in COMBINE:
        raise ValueError(f"combine must be one of {', '.join(COMBINE)}, got {combine!r}")
    if local_fit not in LOCAL_FITS:
        raise ValueError(f"local_fit must be one of {', '.join(LOCAL_FITS)}, got {local_fit!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError("n_resamples must be a positive integer")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    cells = list(points)
    seen: set[tuple[int, float]] = set()
    for p in cells:
        key = (p.size, float(p.rate))
        if key in seen:
            raise ValueError(f"two points for L={p.size} p={p.rate:g}")
        seen.add(key)
    excluded = tuple(ExcludedPoint(p.size, float(p.rate), p.exclusion)
                     for p in sorted(cells, key=lambda c: (c.size, c.rate)) if p.exclusion)
    sizes = sorted({p.size for p in cells})
    rates_list = sorted({float(p.rate) for p in cells})
    rate_range = (rates_list[0], rates_list[-1]) if rates_list else None
    no_crossing = CrossingEstimate(None, None, None, level, 0.0, False, (), "")
    no_fit = ScalingFit(None, None, None, None, None, None, None, None, 0, 0, False, "")
    usable_cells = [p for p in cells if not p.exclusion]
    if len({p.size for p in usable_cells}) < 2 or len({p.rate for p in usable_cells}) < 2:
        message = "no threshold: needs usable points at two or more sizes and rates"
        return ThresholdReport(no_crossing, no_fit, excluded, "unclear", rate_range, None, level,
                               _with_excluded(message, excluded), tuple(sizes))
    rates = np.array(rates_list)
    shape = (len(sizes), len(rates))
    failures = np.zeros(shape)
    trials = np.zeros(shape)
    usable = np.zeros(shape, dtype=bool)
    for p in cells:
        i, j = sizes.index(p.size), rates_list.index(float(p.rate))
        failures[i, j], trials[i, j] = p.failures, p.trials
        usable[i, j] = not p.exclusion
    informative = usable & (failures > 0)
    rng = np.random.default_rng(seed)
    probabilities = np.divide(failures, trials, out=np.zeros(shape), where=trials > 0)
    drawn = rng.binomial(trials.astype(np.int64)[None], probabilities[None],
                         size=(n_resamples, *shape)).astype(np.float64)
    all_failures = np.concatenate([failures[None], drawn])  # (B + 1, sizes, rates)
    y = empirical_logit(all_failures, trials[None])
    variance = logit_variance(all_failures, trials[None]) if local else None
    crossing = _crossings(y, usable, informative, rates, sizes, level, combine, variance,
                          local_fit)
    direction = "crossing" if crossing.value is not None else _direction(y[0], usable,
                                                                         informative)
    flat = usable.ravel()
    point_rates = np.broadcast_to(rates[None, :], shape).ravel()[flat]
    point_sizes = np.broadcast_to(np.array(sizes, dtype=np.float64)[:, None], shape).ravel()[flat]
    lo, hi = rates_list[0], rates_list[-1]
    if scaling_fit:
        scaling = _scaling(failures.ravel()[flat], trials.ravel()[flat], point_rates,
                           point_sizes, level, (lo, hi), rng, n_resamples)
    else:
        scaling = replace(no_fit, message="not fitted (scaling_fit=False)")
    if crossing.value is None:
        if scaling.p_th is not None:
            scaling = replace(scaling, p_th=None, lower=None, upper=None,
                              message="not reported: the curves do not cross in the swept range")
        if direction == "below":
            message = (f"no threshold between {lo:g} and {hi:g}: failure falls with L at every "
                       f"rate swept (below threshold everywhere; the threshold is above {hi:g})")
        elif direction == "above":
            message = (f"no threshold between {lo:g} and {hi:g}: failure rises with L at every "
                       f"rate swept (above threshold everywhere; the threshold is below {lo:g})")
        else:
            message = (f"no threshold between {lo:g} and {hi:g}: the curves of different L do "
                       "not cross from below to above")
        return ThresholdReport(crossing, scaling, excluded, direction, rate_range, None, level,
                               _with_excluded(message, excluded), tuple(sizes))
    agree = None
    if (scaling.lower is not None and scaling.upper is not None and not scaling.edge
            and crossing.lower is not None and crossing.upper is not None):
        agree = crossing.lower <= scaling.upper and scaling.lower <= crossing.upper
    percent = round(level * 100)
    headline = _headline(crossing, scaling)
    crossing_text = (f"{crossing.value:.4f}, {percent}% CI [{crossing.lower:.4f}, "
                     f"{crossing.upper:.4f}] from crossings")
    scaling_text = ""
    if scaling.p_th is not None and not scaling.edge:
        quality = scaling.chi2_dof
        scaling_text = (f"{scaling.p_th:.4f} [{scaling.lower:.4f}, {scaling.upper:.4f}] from "
                        f"finite-size scaling (nu = {scaling.nu:.2f}"
                        + (f", chi2/dof = {quality:.2f}" if quality is not None else "")
                        + (f", correction d L^-{scaling.omega:g} with d = "
                           f"{scaling.correction:.3g}"
                           if scaling.omega is not None and scaling.correction is not None
                           else "")
                        + ")")
    if headline is not None and headline.method == "scaling":
        scaling_text = scaling_text.replace(f" [{scaling.lower:.4f}", f", {percent}% CI "
                                            f"[{scaling.lower:.4f}", 1)
        message = (f"threshold p = {scaling_text}; crossings {crossing.value:.4f} "
                   f"[{crossing.lower:.4f}, {crossing.upper:.4f}] (a finite-size estimate: "
                   "the crossing of small sizes moves with L)")
    else:
        message = f"finite-size estimate p = {crossing_text}"
        message += (f"; {scaling_text}" if scaling_text
                    else f"; the scaling fit gives no value ({scaling.message})")
        if len(sizes) < CORRECTION_SIZES:
            message += (f"; not a threshold estimate: with {len(sizes)} sizes no interval "
                        f"allows for drift of the crossing with L (with {CORRECTION_SIZES} sizes "
                        "or more the scaling fit has a correction term and is the estimate)")
        else:
            message += ("; not a threshold estimate: the scaling fit with its correction term "
                        "gives no value, and the crossing's interval does not allow for its "
                        "drift with L")
    if agree is False:
        message += "; the two methods disagree (their intervals do not overlap)"
    if crossing.edge:
        message += "; the crossing is at the edge of the swept range: widen the range"
    drift_note = _drift_note(crossing, scaling)
    if drift_note:
        message += "; " + drift_note
    return ThresholdReport(crossing, scaling, excluded, direction, rate_range, agree, level,
                           _with_excluded(message, excluded), tuple(sizes), bool(drift_note),
                           headline)


def _headline(crossing: CrossingEstimate, scaling: ScalingFit) -> Headline | None:
    """The estimate to quote first: the corrected scaling fit, else a finite-size estimate.

    Measured on synthetic curves shaped like the planar runs (``bench/coverage.py``):
    under a drift of the crossing with L only the scaling fit with its correction term
    (four sizes or more) keeps its 95% interval's coverage; the crossings and a fit of
    three sizes estimate where curves of these sizes cross, not p_th.
    """
    if (scaling.p_th is not None and not scaling.edge and scaling.omega is not None
            and scaling.lower is not None and scaling.upper is not None):
        return Headline("scaling", scaling.p_th, scaling.lower, scaling.upper, False)
    if (crossing.value is not None and crossing.lower is not None
            and crossing.upper is not None):
        return Headline("crossing", crossing.value, crossing.lower, crossing.upper, True)
    return None


def _with_excluded(message: str, excluded: Sequence[ExcludedPoint]) -> str:
    if not excluded:
        return message
    return message + "; left out: " + ", ".join(str(e) for e in excluded)
