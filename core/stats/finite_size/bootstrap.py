"""The pieces both methods' parametric bootstraps share: logits and percentile intervals.

Intervals come from a parametric bootstrap: every point's failures are
redrawn (for the crossings from Binomial(trials, failures / trials), for
the scaling fit from the fitted model, its correction term included) and
both estimates are redone, all resamples at once. Percentile intervals; a
value outside its own interval (possible with a percentile interval) widens
the interval to contain it.

The empirical logit is ``log((k + 1/2) / (n - k + 1/2))`` (Haldane and
Anscombe), finite at k = 0; its variance is ``1/(k + 1/2) + 1/(n - k + 1/2)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


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
