"""Locating the noise threshold of a decoder from lifetimes at several sizes.

Below the threshold a larger board protects better: a decoder's mean
lifetime grows with L. Above it a larger board only gives the noise more
room: the lifetime stops growing or shrinks. For each noise budget b the
slope of log(mean lifetime) against L is fitted by weighted least squares;
the threshold is the budget at which that slope crosses 0, found by linear
interpolation between the two neighbouring budgets whose slopes differ in
sign. A plateau hazard (a loss rate) may be given instead of a lifetime:
its log falls with L below the threshold, and the crossing is the same.

The swept ``budget`` may be any noise-strength parameter. Note that the
game's budget is noise per round for the whole board: at a fixed budget a
larger board is less dense, so lifetimes grow with L at every budget
(for the clustering bot at budgets 5.5 to 24 and L = 5, 7, 9 the slope
stayed between +0.3 and +0.4 per unit of L) and no crossing appears. A threshold
in the usual sense needs a sweep whose noise and moves per round both grow
with the area (a budget and a number of moves per cell), with that density
passed as ``budget``.

Its confidence interval comes from a bootstrap: the games of every (L, b)
point are resampled, the whole estimate is redone, and the percentile
interval of the resampled crossings is reported, with the share of
resamples that found a crossing at all. Points given only as a value and a
confidence interval are resampled parametrically instead (log-normally with
the standard error the interval implies). The result is reproducible from
``seed``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .intervals import quantile, resample, z_for
from .survival import check_lifetimes, km_mean_median


@dataclass(frozen=True)
class ThresholdPoint:
    """One (size, budget) cell of a sweep.

    Either ``lifetimes`` (one per game; ``observed`` marks the games whose
    loss was seen, default all) or a summary ``value`` (a mean lifetime or a
    plateau hazard) with its confidence ``interval`` at ``level``.
    """

    size: int
    budget: float
    lifetimes: tuple[float, ...] = ()
    observed: tuple[bool, ...] | None = None
    value: float | None = None
    interval: tuple[float, float] | None = None
    level: float = 0.95

    def __post_init__(self) -> None:
        object.__setattr__(self, "lifetimes", tuple(self.lifetimes))
        if self.observed is not None:
            object.__setattr__(self, "observed", tuple(self.observed))
        if self.lifetimes:
            check_lifetimes(self.lifetimes, self.observed)
        elif self.value is None or self.interval is None:
            raise ValueError("a point needs lifetimes, or a value and its interval")
        elif not self.value > 0:
            raise ValueError("a summary value must be positive (its log is fitted)")


@dataclass(frozen=True, slots=True)
class SlopeFit:
    budget: float
    slope: float  # d log(value) / dL
    stderr: float
    sizes: tuple[int, ...]


@dataclass(frozen=True)
class ThresholdEstimate:
    threshold: float | None  # None: no crossing in the swept range
    lower: float | None  # percentile bootstrap interval
    upper: float | None
    level: float
    slopes: tuple[SlopeFit, ...]
    crossing_fraction: float  # share of bootstrap resamples that found a crossing
    message: str
    crossings: tuple[float, ...] = field(default=())  # every sign change, low budget first


def estimate_threshold(
    points: Iterable[ThresholdPoint | tuple[Any, ...]],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> ThresholdEstimate:
    """The budget at which log(lifetime) stops growing with L (see the module notes).

    ``points`` are ``ThresholdPoint``s, or tuples ``(size, budget, lifetimes)``
    (raw games) or ``(size, budget, value, (lower, upper))`` (summaries).
    """
    cells = [_as_point(p) for p in points]
    z = z_for(level)
    excluded = [(p, reason) for p in cells if (reason := _uninformative(p))]
    cells = [p for p in cells if not _uninformative(p)]
    left_out = "".join(
        f"; left out: L={p.size} budget {p.budget:g} ({reason})" for p, reason in excluded
    )
    observations = [_observe(p) for p in cells]
    slopes = _slopes(cells, observations)
    if len(slopes) < 2:
        return ThresholdEstimate(
            None, None, None, level, tuple(slopes), 0.0,
            "no threshold: needs at least two budgets, each at two or more sizes with "
            "informative games" + left_out,
        )
    crossings = _crossings(slopes)
    if not crossings:
        low, high = slopes[0].budget, slopes[-1].budget
        if all(s.slope > 0 for s in slopes):
            trend = (f"lifetime grows with L at every budget (below threshold everywhere; "
                     f"the threshold is above {high:g})")
        elif all(s.slope < 0 for s in slopes):
            trend = (f"lifetime falls with L at every budget (above threshold everywhere; "
                     f"the threshold is below {low:g})")
        else:
            trend = "the slope in L never changes sign from growing to falling"
        return ThresholdEstimate(
            None, None, None, level, tuple(slopes), 0.0,
            f"no threshold between {low:g} and {high:g}: {trend}" + left_out,
        )
    rng = random.Random(seed)
    found = []
    for _ in range(n_resamples):
        resampled = [_observe(p, rng, z) for p in cells]
        again = _crossings(_slopes(cells, resampled))
        if again:
            found.append(again[0])
    fraction = len(found) / n_resamples
    if found:
        found.sort()
        alpha = 1 - level
        lower: float | None = min(quantile(found, alpha / 2), crossings[0])
        upper: float | None = max(quantile(found, 1 - alpha / 2), crossings[0])
    else:
        lower = upper = None
    message = "crossing found"
    if len(crossings) > 1:
        message += f"; the slope changes sign {len(crossings)} times: the first is reported"
    if fraction < level:
        message += (f"; only {fraction:.0%} of the resamples found a crossing, "
                    "so the interval is too narrow")
    first_pair = next(i for i, (a, b) in enumerate(itertools.pairwise(slopes))
                      if a.budget <= crossings[0] <= b.budget)
    if first_pair in (0, len(slopes) - 2):
        message += "; the crossing is at the edge of the swept range"
    return ThresholdEstimate(crossings[0], lower, upper, level, tuple(slopes), fraction,
                             message + left_out, tuple(crossings))


def _uninformative(p: ThresholdPoint) -> str:
    """Why a point says nothing about the trend: every game censored, or lost at once."""
    if not p.lifetimes:
        return ""
    observed = p.observed or (True,) * len(p.lifetimes)
    if not any(observed):
        return "every game was censored"
    if all(observed) and max(p.lifetimes) <= 1:
        return "every game was lost in the first round"
    return ""


def _as_point(p: ThresholdPoint | tuple[Any, ...]) -> ThresholdPoint:
    if isinstance(p, ThresholdPoint):
        return p
    if len(p) == 3:
        return ThresholdPoint(int(p[0]), float(p[1]), lifetimes=tuple(p[2]))
    if len(p) == 4:
        return ThresholdPoint(int(p[0]), float(p[1]), value=float(p[2]),
                              interval=(float(p[3][0]), float(p[3][1])))
    raise ValueError(f"cannot read a threshold point from {p!r}")


def _observe(p: ThresholdPoint, rng: random.Random | None = None,
             z: float = 1.96) -> tuple[float, float]:
    """(log value, variance of the log value) for one point, resampled if ``rng``."""
    if p.lifetimes:
        observed = p.observed or (True,) * len(p.lifetimes)
        pairs = list(zip(p.lifetimes, observed, strict=True))
        if rng is not None:
            pairs = resample(pairs, rng)
        n = len(pairs)
        if all(o for _, o in pairs):
            mean = sum(d for d, _ in pairs) / n
        else:
            mean = km_mean_median(pairs)[0]
        var = sum((d - mean) ** 2 for d, _ in pairs) / (n - 1) if n > 1 else 0.0
        mean = max(mean, 1e-12)
        return math.log(mean), max(var / n / (mean * mean), 1e-12)
    value, interval = p.value, p.interval
    if value is None or interval is None:
        raise ValueError("a point needs lifetimes, or a value and its interval")
    se = (interval[1] - interval[0]) / (2 * z_for(p.level)) / value
    log_value = math.log(value)
    if rng is not None:
        log_value = rng.gauss(log_value, se)
    return log_value, max(se * se, 1e-12)


def _slopes(cells: Sequence[ThresholdPoint],
            observations: Sequence[tuple[float, float]]) -> list[SlopeFit]:
    by_budget: dict[float, list[tuple[int, float, float]]] = {}
    for p, (y, var) in zip(cells, observations, strict=True):
        by_budget.setdefault(p.budget, []).append((p.size, y, var))
    fits = []
    for budget in sorted(by_budget):
        rows = by_budget[budget]
        if len({size for size, _, _ in rows}) < 2:
            continue
        weights = [1 / var for _, _, var in rows]
        total = sum(weights)
        x_bar = sum(w * x for w, (x, _, _) in zip(weights, rows, strict=True)) / total
        y_bar = sum(w * y for w, (_, y, _) in zip(weights, rows, strict=True)) / total
        sxx = sum(w * (x - x_bar) ** 2 for w, (x, _, _) in zip(weights, rows, strict=True))
        sxy = sum(
            w * (x - x_bar) * (y - y_bar) for w, (x, y, _) in zip(weights, rows, strict=True)
        )
        fits.append(SlopeFit(budget, sxy / sxx, math.sqrt(1 / sxx),
                             tuple(sorted({x for x, _, _ in rows}))))
    return fits


def _crossings(slopes: Sequence[SlopeFit]) -> list[float]:
    """Budgets where the slope changes sign, by linear interpolation, low budget first.

    Only a strict change of sign counts: a slope of exactly 0 (as when every game
    of a budget was stopped at the same cap) is no crossing.
    """
    found = []
    for a, b in itertools.pairwise(slopes):
        if a.slope * b.slope < 0:
            found.append(a.budget + a.slope * (b.budget - a.budget) / (a.slope - b.slope))
    return found
