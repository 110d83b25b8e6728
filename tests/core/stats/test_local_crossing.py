"""Each pair's crossing from a local weighted curve (a parabola): as often right, and narrower."""

from __future__ import annotations

import numpy as np
import pytest

from core.stats import RatePoint, threshold_from_rates

# CPU-heavy: bin/test runs it in its second pass, without coverage's tracer
# (which makes pure-Python loops several times slower).
pytestmark = pytest.mark.slow

P_C = 0.10
SIZES = (8, 12, 16)
RATES = tuple(round(0.07 + 0.01 * k, 4) for k in range(7))


def sweep(rng: np.random.Generator, shots: int = 2000) -> list[RatePoint]:
    """Curves crossing exactly at P_C (nu = 1.5, with curvature), as a planar sweep's would."""
    points = []
    for size in SIZES:
        for rate in RATES:
            x = (rate - P_C) * size ** (1 / 1.5)
            failure = 1 / (1 + np.exp(-(-2.0 + 12 * x + 20 * x * x)))
            points.append(RatePoint(size, rate, int(rng.binomial(shots, failure)), shots))
    return points


def test_the_local_line_keeps_the_coverage_and_narrows_the_interval():
    rng = np.random.default_rng(7)
    held = {False: 0, True: 0}
    widths: dict[bool, list[float]] = {False: [], True: []}
    for repeat in range(60):
        points = sweep(rng)
        for local in (False, True):
            crossing = threshold_from_rates(
                points, n_resamples=200, seed=repeat, local=local
            ).crossing
            assert crossing.lower is not None
            assert crossing.upper is not None
            held[local] += crossing.lower <= P_C <= crossing.upper
            widths[local].append(crossing.upper - crossing.lower)
    assert held[True] >= 54  # 90% of 60 at least, for a 95% interval
    assert np.median(widths[True]) < 0.92 * np.median(widths[False])


def test_a_bracket_without_neighbours_keeps_the_interpolation():
    # Two rates only: nothing to fit a line through beyond the bracket itself.
    points = [
        RatePoint(8, 0.09, 300, 2000),
        RatePoint(8, 0.11, 500, 2000),
        RatePoint(12, 0.09, 200, 2000),
        RatePoint(12, 0.11, 600, 2000),
    ]
    local = threshold_from_rates(points, n_resamples=50, seed=1).crossing
    plain = threshold_from_rates(points, n_resamples=50, seed=1, local=False).crossing
    assert local.value == plain.value
