"""Wilson intervals and the bootstrap: by hand and against scipy."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest
from scipy import stats as scipy_stats

from core.stats import bootstrap_ci, quantile, wilson_interval, z_for

Z = z_for(0.95)


def test_z_for():
    assert z_for(0.95) == pytest.approx(1.959963984540054)
    assert z_for(0.9) == pytest.approx(1.6448536269514722)
    with pytest.raises(ValueError, match="level"):
        z_for(1.0)


def test_wilson_by_hand():
    # 0 of 10, z = 1.96: the lower end is 0; upper = (0 + 3.8416/20 + 1.96 * sqrt(3.8416/400))
    # / (1 + 0.38416) = (0.19208 + 0.19208) / 1.38416 = 0.277540.
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277540), abs=1e-6)
    # 5 of 10: symmetric around 0.5; half = 1.96 * sqrt(0.025 + 0.009604) / 1.38416
    # = 1.96 * 0.186021 / 1.38416 = 0.263410.
    assert wilson_interval(5, 10) == pytest.approx((0.236590, 0.763410), abs=1e-6)
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="exceed"):
        wilson_interval(3, 2)
    with pytest.raises(ValueError, match="non-negative"):
        wilson_interval(-1, 2)
    with pytest.raises(ValueError, match="non-negative"):
        wilson_interval(1.5, 2)


@pytest.mark.parametrize(("k", "n"), [(0, 7), (1, 7), (3, 17), (50, 100), (99, 100), (12, 12),
                                      (7, 1000), (400, 20000)])
def test_wilson_matches_scipy(k, n):
    expected = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lower, upper = wilson_interval(k, n, z=Z)
    assert lower == pytest.approx(expected.low, abs=1e-12)
    assert upper == pytest.approx(expected.high, abs=1e-12)


def test_quantile_matches_numpy():
    rng = random.Random(3)
    values = sorted(rng.random() for _ in range(37))
    for q in (0.0, 0.025, 0.1, 0.5, 0.975, 1.0):
        assert quantile(values, q) == pytest.approx(float(np.percentile(values, 100 * q)))
    assert quantile([2.0], 0.3) == 2.0


def test_bootstrap_is_deterministic_and_sane():
    rng = random.Random(0)
    values = [rng.expovariate(1 / 30) for _ in range(80)]
    first = bootstrap_ci(values, statistics.mean, n_resamples=500, seed=42)
    assert bootstrap_ci(values, statistics.mean, n_resamples=500, seed=42) == first
    assert bootstrap_ci(values, statistics.mean, n_resamples=500, seed=43) != first
    assert first.estimate == pytest.approx(statistics.mean(values))
    assert first.lower < first.estimate < first.upper
    assert first.n_resamples == 500
    # A constant sample has a degenerate interval.
    constant = bootstrap_ci([7.0] * 10, statistics.mean, n_resamples=50, seed=1)
    assert (constant.lower, constant.upper) == (7.0, 7.0)
    # Undefined resamples are left out and counted.
    odd = bootstrap_ci([1, 2], lambda s: None if s[0] == s[1] else 1.0, n_resamples=200, seed=4)
    assert 0 < odd.n_resamples < 200
    with pytest.raises(ValueError, match="no values"):
        bootstrap_ci([], statistics.mean)


@pytest.mark.parametrize("statistic", [np.mean, np.median])
def test_bootstrap_agrees_with_scipy(statistic):
    rng = random.Random(9)
    values = [rng.expovariate(1 / 25) for _ in range(200)]
    ours = bootstrap_ci(values, lambda s: float(statistic(s)), n_resamples=4000, seed=1)
    theirs = scipy_stats.bootstrap(
        (np.array(values),), statistic, n_resamples=4000, method="percentile",
        confidence_level=0.95, random_state=np.random.default_rng(1),
    ).confidence_interval
    # Two independent Monte Carlo runs of the same percentile interval: they agree to
    # within the resampling noise (a few percent of the estimate).
    scale = statistic(values)
    assert ours.lower == pytest.approx(theirs.low, abs=0.04 * scale)
    assert ours.upper == pytest.approx(theirs.high, abs=0.04 * scale)
