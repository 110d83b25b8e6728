"""The mean of a handful of numbers with its Student t 95% interval (scipy for the quantile).

Used for the class odds of planar boards (``results.comparison``): one value
per board, each a probability (or a difference of two), averaged across
boards. The interval is mean ± t(0.975, n - 1) · s / √n with s the sample
standard deviation, cut to the range the values can take (``low``..``high``).
With fewer than two values there is no interval. The boards are the unit:
the interval says how far the mean over these boards may lie from the mean
over boards like them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy.stats import t as student_t


@dataclass(frozen=True, slots=True)
class Mean:
    """The mean of ``n`` values and its 95% interval (None without one)."""

    n: int
    mean: float | None
    lower: float | None
    upper: float | None


def mean_interval(values: Sequence[float], *, low: float = 0.0, high: float = 1.0,
                  level: float = 0.95) -> Mean:
    """The mean of ``values`` and its Student t interval at ``level``, inside ``low``..``high``.

    Raises ``ValueError`` for a value that is not a finite number in ``low``..``high``.
    """
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    numbers: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("each value must be a number")
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"each value must lie between {low} and {high}")
        numbers.append(float(value))
    n = len(numbers)
    if n == 0:
        return Mean(0, None, None, None)
    mean = math.fsum(numbers) / n
    if n == 1:
        return Mean(1, mean, None, None)
    variance = math.fsum((x - mean) ** 2 for x in numbers) / (n - 1)
    half = float(student_t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(variance / n)
    return Mean(n, mean, max(low, mean - half), min(high, mean + half))
