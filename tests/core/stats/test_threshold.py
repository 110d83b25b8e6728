"""The threshold estimator on synthetic sweeps with a known crossing."""

from __future__ import annotations

import math
import random

import pytest

from core.stats import ThresholdPoint, estimate_threshold

SIZES = (5, 7, 9, 11)
BUDGETS = (3.0, 4.0, 5.0, 6.0, 7.0)
TRUE_THRESHOLD = 5.5


def true_mean(size: int, budget: float) -> float:
    # log(mean) = 2 + 0.15 (5.5 - b) L: the slope in L is 0.15 (5.5 - b), zero at b = 5.5.
    return math.exp(2 + 0.15 * (TRUE_THRESHOLD - budget) * size)


def test_exact_summaries_give_the_exact_crossing():
    points = [(L, b, true_mean(L, b), (0.99 * true_mean(L, b), 1.01 * true_mean(L, b)))
              for L in SIZES for b in BUDGETS]
    estimate = estimate_threshold(points, n_resamples=200, seed=1)
    # Slopes: b=5 -> 0.15 * 0.5 = 0.075, b=6 -> -0.075; interpolation:
    # 5 + 0.075 * (6 - 5) / (0.075 + 0.075) = 5.5.
    assert estimate.threshold == pytest.approx(5.5)
    slopes = {fit.budget: fit.slope for fit in estimate.slopes}
    assert slopes[5.0] == pytest.approx(0.075)
    assert slopes[6.0] == pytest.approx(-0.075)
    assert slopes[3.0] == pytest.approx(0.375)
    assert estimate.crossings == pytest.approx((5.5,))
    assert estimate.lower <= 5.5 <= estimate.upper
    assert estimate.crossing_fraction == 1.0


def test_raw_lifetimes_with_a_bootstrap_over_games():
    rng = random.Random(2024)
    points = [
        ThresholdPoint(L, b, lifetimes=[rng.expovariate(1 / true_mean(L, b)) for _ in range(150)])
        for L in SIZES for b in BUDGETS
    ]
    estimate = estimate_threshold(points, n_resamples=200, seed=7)
    assert estimate.threshold == pytest.approx(TRUE_THRESHOLD, abs=0.3)
    assert estimate.lower <= TRUE_THRESHOLD <= estimate.upper
    assert estimate.upper - estimate.lower < 1.0
    assert estimate.crossing_fraction > 0.95
    again = estimate_threshold(points, n_resamples=200, seed=7)
    assert again == estimate


def test_censored_lifetimes_are_accepted():
    rng = random.Random(5)
    points = []
    for L in SIZES:
        for b in BUDGETS:
            lives = [rng.expovariate(1 / true_mean(L, b)) for _ in range(100)]
            cap = 3 * true_mean(L, b)
            points.append(ThresholdPoint(
                L, b, lifetimes=[min(x, cap) for x in lives], observed=[x < cap for x in lives],
            ))
    estimate = estimate_threshold(points, n_resamples=100, seed=3)
    assert estimate.threshold == pytest.approx(TRUE_THRESHOLD, abs=0.4)


def test_plateau_hazards_cross_at_the_same_budget():
    # A per-round loss rate is about 1 / lifetime: its log falls with L below threshold.
    points = [(L, b, 1 / true_mean(L, b), (0.98 / true_mean(L, b), 1.02 / true_mean(L, b)))
              for L in SIZES for b in BUDGETS]
    estimate = estimate_threshold(points, n_resamples=100, seed=1)
    assert estimate.threshold == pytest.approx(5.5)


def test_no_crossing_in_the_swept_range():
    points = [(L, b, true_mean(L, b), (0.95 * true_mean(L, b), 1.05 * true_mean(L, b)))
              for L in SIZES for b in (3.0, 4.0, 5.0)]
    estimate = estimate_threshold(points, n_resamples=50, seed=1)
    assert estimate.threshold is None
    assert estimate.lower is None
    assert estimate.message.startswith("no threshold between 3 and 5")
    assert "grows with L" in estimate.message
    assert "the threshold is above 5" in estimate.message  # still growing at the largest budget


def _capped_games(rng: random.Random, mean: float, games: int,
                  cap: int) -> tuple[list[int], list[bool]]:
    lives = [max(1, round(rng.expovariate(1 / mean))) for _ in range(games)]
    return (lives, [life < cap for life in lives])


def test_the_budget_sweep_of_issue_13_gives_no_threshold():
    # Every game censored at 300 rounds at budget 3 (a slope of exactly 0 once counted
    # as a crossing); lifetimes growing with L at budgets 5 and 7.
    rng = random.Random(13)
    points = []
    for size in (5, 7, 9):
        points.append(ThresholdPoint(size, 3.0, lifetimes=(300,) * 40, observed=(False,) * 40))
        for budget, base in ((5.0, 20.0), (7.0, 8.0)):
            lives, observed = _capped_games(rng, base * 1.6 ** (size - 5), 40, 300)
            points.append(ThresholdPoint(size, budget, lifetimes=tuple(min(x, 300) for x in lives),
                                         observed=tuple(observed)))
    estimate = estimate_threshold(points, n_resamples=100, seed=1)
    assert estimate.threshold is None
    assert estimate.lower is None
    assert estimate.message.startswith("no threshold between 5 and 7: lifetime grows with L")
    assert "left out: L=5 budget 3 (every game was censored)" in estimate.message
    assert [fit.budget for fit in estimate.slopes] == [5.0, 7.0]


def test_a_zero_slope_is_no_crossing():
    points = [(L, b, value, (0.99 * value, 1.01 * value))
              for L in SIZES for b, value in ((3.0, 50.0), (4.0, 10.0 * L))]
    estimate = estimate_threshold(points, n_resamples=20, seed=1)
    assert estimate.threshold is None
    assert estimate.crossings == ()


def test_too_little_data_and_bad_points():
    one_budget = [(L, 4.0, 10.0 + L, (9.0, 12.0 + L)) for L in SIZES]
    assert estimate_threshold(one_budget).threshold is None
    with pytest.raises(ValueError, match="lifetimes, or a value"):
        ThresholdPoint(5, 3.0)
    with pytest.raises(ValueError, match="positive"):
        ThresholdPoint(5, 3.0, value=0.0, interval=(0.0, 1.0))
    with pytest.raises(ValueError, match="cannot read"):
        estimate_threshold([(5, 3.0)])
