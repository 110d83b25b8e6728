"""Confidence intervals: Wilson score intervals and the percentile bootstrap.

Only the standard library is used. Bootstrap resamples are drawn with
``random.Random(seed).random()``, whose output Python guarantees to be the
same for a given seed on every platform and release, so a bootstrap
interval is reproducible from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import Any, NamedTuple

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959963984540054."""


def z_for(level: float) -> float:
    """The two-sided normal quantile for a confidence ``level`` in (0, 1)."""
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / trials``.

    With p = s/n: centre = (p + z^2/2n) / (1 + z^2/n) and
    half-width = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n). With no trials
    nothing is known and the interval is (0, 1).
    """
    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer")
    if successes > trials:
        raise ValueError("successes cannot exceed trials")
    if not z > 0:
        raise ValueError("z must be positive")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == trials else min(1.0, centre + half)
    return (lower, upper)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted values, interpolating linearly.

    The usual default of spreadsheets, R (type 7) and numpy: position
    h = (n - 1) q between the order statistics.
    """
    if not sorted_values:
        raise ValueError("no values")
    if not 0 <= q <= 1:
        raise ValueError("q must be between 0 and 1")
    h = (len(sorted_values) - 1) * q
    below = math.floor(h)
    above = min(below + 1, len(sorted_values) - 1)
    return sorted_values[below] + (h - below) * (sorted_values[above] - sorted_values[below])


class BootstrapCI(NamedTuple):
    estimate: float  # the statistic on the original values
    lower: float
    upper: float
    level: float
    n_resamples: int  # resamples whose statistic was defined (not None or NaN)


def resample(values: Sequence[Any], rng: random.Random) -> list[Any]:
    """One bootstrap resample: ``len(values)`` draws with replacement."""
    draw = rng.random
    n = len(values)
    return [values[int(draw() * n)] for _ in range(n)]


def bootstrap_many(
    values: Sequence[Any],
    statistic: Callable[[Sequence[Any]], Sequence[float | None]],
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> list[BootstrapCI]:
    """Percentile bootstrap intervals of each component of a vector statistic.

    ``statistic`` returns several numbers at once (computed from the same
    resamples). A component may be ``None`` (or NaN) when it is undefined on
    a resample (say a median survival time that is never reached); such
    resamples are left out of that component's interval and the count of the
    ones used is reported. An interval with no defined resample is NaN.
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError("n_resamples must be a positive integer")
    if not values:
        raise ValueError("no values to resample")
    alpha = 1 - level
    z_for(level)  # validates the level
    estimates = [math.nan if e is None else float(e) for e in statistic(values)]
    rng = random.Random(seed)
    collected: list[list[float]] = [[] for _ in estimates]
    for _ in range(n_resamples):
        results = statistic(resample(values, rng))
        for bucket, result in zip(collected, results, strict=True):
            if result is not None and not math.isnan(result):
                bucket.append(float(result))
    intervals = []
    for bucket, estimate in zip(collected, estimates, strict=True):
        if bucket:
            bucket.sort()
            lower, upper = quantile(bucket, alpha / 2), quantile(bucket, 1 - alpha / 2)
        else:
            lower = upper = math.nan
        intervals.append(BootstrapCI(estimate, lower, upper, level, len(bucket)))
    return intervals


def bootstrap_ci(
    values: Sequence[Any],
    statistic: Callable[[Sequence[Any]], float | None],
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> BootstrapCI:
    """The percentile bootstrap interval of ``statistic(values)``, reproducible from ``seed``.

    ``values`` may hold anything the statistic understands, for example
    ``(duration, observed)`` pairs so that whole games are resampled.
    """
    (interval,) = bootstrap_many(
        values, lambda sample: (statistic(sample),), n_resamples=n_resamples, seed=seed,
        level=level,
    )
    return interval
