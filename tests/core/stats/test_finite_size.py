"""Thresholds from failure probabilities: crossings and a finite-size-scaling fit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.stats.finite_size import RatePoint, pair_weights, threshold_from_rates

TRUE_P_TH = 0.19
TRUE_MU = 0.75  # 1 / nu
SIZES = (8, 12, 16)
RATES = tuple(float(p) for p in np.linspace(0.10, 0.30, 11))


def scaling_probability(size: int, rate: float) -> float:
    """A known scaling function: logit P = -0.5 + 8 x + x^2, x = (p - p_th) L^(1/nu)."""
    x = (rate - TRUE_P_TH) * size**TRUE_MU
    return 1 / (1 + math.exp(-(-0.5 + 8 * x + x * x)))


def synthetic(seed: int, shots: int) -> list[RatePoint]:
    rng = np.random.default_rng(seed)
    return [
        RatePoint(size, rate, int(rng.binomial(shots, scaling_probability(size, rate))), shots)
        for size in SIZES
        for rate in RATES
    ]


def test_one_synthetic_sweep_finds_the_crossing_by_both_methods():
    report = threshold_from_rates(synthetic(7, 1000), n_resamples=300, seed=7)
    crossing, scaling = report.crossing, report.scaling
    assert report.direction == "crossing"
    assert crossing.lower < crossing.value < crossing.upper
    assert crossing.value == pytest.approx(TRUE_P_TH, abs=0.015)
    assert scaling.lower < scaling.p_th < scaling.upper
    assert scaling.p_th == pytest.approx(TRUE_P_TH, abs=0.01)
    assert scaling.nu == pytest.approx(1 / TRUE_MU, rel=0.3)
    assert scaling.nu_lower <= scaling.nu <= scaling.nu_upper
    assert 0.3 < scaling.chi2_dof < 3
    assert report.agree is True
    assert [pair.sizes for pair in crossing.pairs] == [(8, 12), (12, 16)]
    assert not crossing.edge
    assert report.message.startswith("finite-size estimate p = ")  # three sizes
    # Same data, same seed: the same report.
    assert threshold_from_rates(synthetic(7, 1000), n_resamples=300, seed=7) == report


@pytest.mark.slow
def test_the_known_threshold_is_inside_the_interval_in_90_of_100_repeats():
    crossing_hits = scaling_hits = 0
    for repeat in range(100):
        report = threshold_from_rates(synthetic(1000 + repeat, 1000), n_resamples=200,
                                      seed=repeat)
        crossing_hits += report.crossing.lower <= TRUE_P_TH <= report.crossing.upper
        scaling_hits += report.scaling.lower <= TRUE_P_TH <= report.scaling.upper
    assert crossing_hits >= 90
    assert scaling_hits >= 90


# An ill-conditioned pair: L = 8 behaves as a board of size 11, so the L = 8 and L = 12
# curves nearly coincide and meet at a shallow angle (still exactly at p_th), as the
# clustering bot's curves do between p = 0.24 and 0.32. The grid is that of bench.threshold.
ILL_P_TH = 0.29
ILL_SIZES = {8: 11.0, 12: 12.0, 16: 16.0, 24: 24.0}  # size: the size it behaves as
ILL_RATES = tuple(round(0.22 + 0.02 * i, 10) for i in range(8))


def ill_conditioned(seed: int, shots: int) -> list[RatePoint]:
    rng = np.random.default_rng(seed)
    points = []
    for size, effective in ILL_SIZES.items():
        for rate in ILL_RATES:
            x = (rate - ILL_P_TH) * effective**TRUE_MU
            probability = 1 / (1 + math.exp(-(-0.5 + 8 * x + x * x)))
            points.append(RatePoint(size, rate, int(rng.binomial(shots, probability)), shots))
    return points


def test_pair_weights_are_inverse_squares_of_each_pairs_interval_width():
    rng = np.random.default_rng(3)
    narrow = np.concatenate([[0.29], 0.29 + 0.01 * rng.standard_normal(4000)])
    wide = np.concatenate([[0.30], 0.30 + 0.03 * rng.standard_normal(4000)])
    wide[5] = np.nan  # a resample in which the pair did not cross is not counted
    weights = pair_weights(np.vstack([narrow, wide]))
    assert weights.sum() == pytest.approx(1)
    assert weights[0] / weights[1] == pytest.approx(9, rel=0.1)  # (0.03 / 0.01)^2
    # A few far-off resamples barely move the weights (a quantile ignores them).
    wide[1:40] = 5.0
    assert pair_weights(np.vstack([narrow, wide]))[0] == pytest.approx(weights[0], rel=0.05)


def test_an_ill_conditioned_pair_no_longer_sets_the_width_of_the_combined_interval():
    points = ill_conditioned(500, 400)
    weighted = threshold_from_rates(points, n_resamples=400, seed=1).crossing
    plain = threshold_from_rates(points, n_resamples=400, seed=1, combine="mean").crossing
    # The same pairs, with the same intervals, whichever way they are combined.
    assert weighted.pairs == plain.pairs
    first, last = weighted.pairs[0], weighted.pairs[-1]
    assert (first.sizes, last.sizes) == ((8, 12), (16, 24))
    assert first.upper - first.lower > 2 * (last.upper - last.lower)
    assert weighted.upper - weighted.lower < 0.8 * (plain.upper - plain.lower)
    assert weighted.lower < ILL_P_TH < weighted.upper
    assert plain.lower < ILL_P_TH < plain.upper


@pytest.mark.slow
def test_the_weighted_crossing_covers_the_known_threshold_with_an_ill_conditioned_pair():
    hits = 0
    narrower = 0
    for repeat in range(100):
        points = ill_conditioned(2000 + repeat, 400)
        weighted = threshold_from_rates(points, n_resamples=200, seed=repeat).crossing
        plain = threshold_from_rates(points, n_resamples=200, seed=repeat,
                                     combine="mean").crossing
        hits += weighted.lower <= ILL_P_TH <= weighted.upper
        narrower += weighted.upper - weighted.lower < plain.upper - plain.lower
    assert hits >= 90
    assert narrower >= 80


def test_pairs_that_cross_at_different_rates_are_named_as_disagreeing():
    # Logistic curves whose neighbouring pairs cross at p = 0.20 (L = 8, 12) and 0.35
    # (L = 12, 16): a crossing that drifts with L, which no combined interval includes.
    slope = {8: 10.0, 12: 20.0, 16: 30.0}
    centre = {8: 0.20, 12: 0.20, 16: 0.25}
    rng = np.random.default_rng(4)
    points = [
        RatePoint(size, rate, int(rng.binomial(
            4000, 1 / (1 + math.exp(-slope[size] * (rate - centre[size]))))), 4000)
        for size in slope for rate in (0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45)
    ]
    crossing = threshold_from_rates(points, n_resamples=200, seed=1).crossing
    assert [p.value for p in crossing.pairs] == pytest.approx([0.20, 0.35], abs=0.02)
    assert "the pairs' crossings disagree" in crossing.message
    agreeing = threshold_from_rates(ill_conditioned(500, 400), n_resamples=200, seed=1)
    assert "disagree" not in agreeing.crossing.message


def test_an_unknown_combination_is_refused():
    with pytest.raises(ValueError, match="combine must be one of weighted, mean"):
        threshold_from_rates(synthetic(1, 50), combine="median")


def test_points_where_every_game_failed_are_left_out_by_name():
    points = [p for p in synthetic(3, 200) if p.rate < 0.25]
    points.append(RatePoint(16, 0.30, 200, 200))
    report = threshold_from_rates(points, n_resamples=50, seed=1)
    assert [(e.size, e.rate, e.reason) for e in report.excluded] == [
        (16, 0.30, "every game failed")
    ]
    assert "left out: L=16 p=0.3 (every game failed)" in report.message
    assert report.scaling.points == len(points) - 1


def test_an_all_censored_grid_gives_no_threshold():
    points = [RatePoint(size, rate, 0, 0, censored=50) for size in SIZES for rate in RATES]
    report = threshold_from_rates(points, n_resamples=20, seed=1)
    assert report.crossing.value is None
    assert report.scaling.p_th is None
    assert report.message.startswith("no threshold")
    assert len(report.excluded) == len(points)
    assert report.excluded[0].reason == "every game was censored"


def test_an_all_failed_grid_gives_no_threshold():
    points = [RatePoint(size, rate, 40, 40) for size in SIZES for rate in RATES]
    report = threshold_from_rates(points, n_resamples=20, seed=1)
    assert report.crossing.value is None
    assert report.scaling.p_th is None
    assert report.message.startswith("no threshold")
    assert {e.reason for e in report.excluded} == {"every game failed"}


def test_below_threshold_everywhere_names_the_direction_and_no_number():
    rates = RATES[:4]  # 0.10 .. 0.16: failure falls with L
    points = [p for p in synthetic(11, 2000) if p.rate in rates]
    report = threshold_from_rates(points, n_resamples=50, seed=1)
    assert report.direction == "below"
    assert report.crossing.value is None
    assert report.scaling.p_th is None
    assert report.message.startswith("no threshold between 0.1 and 0.16: failure falls with L")


def test_above_threshold_everywhere_names_the_direction():
    rates = RATES[-4:]
    points = [RatePoint(p.size, p.rate, min(p.failures, p.trials - 1), p.trials)
              for p in synthetic(12, 2000) if p.rate in rates]
    report = threshold_from_rates(points, n_resamples=50, seed=1)
    assert report.direction == "above"
    assert "failure rises with L" in report.message


def test_a_crossing_in_the_last_interval_is_flagged_as_at_the_edge():
    rates = [r for r in RATES if r <= 0.2 + 1e-9]  # the crossing is at 0.19, between 0.18 and 0.2
    points = [p for p in synthetic(5, 4000) if p.rate in rates]
    report = threshold_from_rates(points, n_resamples=100, seed=1)
    assert report.crossing.value is not None
    assert report.crossing.edge
    assert "edge of the swept range" in report.message


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="cannot exceed"):
        RatePoint(8, 0.1, 5, 4)
    with pytest.raises(ValueError, match="non-negative integer"):
        RatePoint(8, 0.1, -1, 4)
    with pytest.raises(ValueError, match="finite"):
        RatePoint(8, math.nan, 1, 4)
    with pytest.raises(ValueError, match="two points"):
        threshold_from_rates([RatePoint(8, 0.1, 1, 4), RatePoint(8, 0.1, 2, 4)])


@st.composite
def grids(draw: st.DrawFn) -> list[RatePoint]:
    sizes = draw(st.lists(st.integers(3, 40), min_size=1, max_size=4, unique=True))
    rates = draw(st.lists(st.floats(0.001, 0.5), min_size=1, max_size=7, unique=True))
    points = []
    for size in sizes:
        for rate in rates:
            trials = draw(st.integers(0, 60))
            points.append(RatePoint(size, rate, draw(st.integers(0, trials)), trials,
                                    censored=draw(st.integers(0, 3))))
    return points


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids(), st.integers(0, 2**32 - 1))
def test_invariants_on_any_grid(points: list[RatePoint], seed: int) -> None:
    report = threshold_from_rates(points, n_resamples=20, seed=seed)
    rates = sorted({p.rate for p in points})
    crossing, scaling = report.crossing, report.scaling
    if crossing.value is None:
        assert crossing.lower is None
        assert crossing.upper is None
        assert scaling.p_th is None
        assert report.message.startswith("no threshold")
    else:
        assert crossing.lower is not None
        assert crossing.upper is not None
        assert crossing.lower <= crossing.value <= crossing.upper
        assert rates[0] <= crossing.value <= rates[-1]
        assert report.direction == "crossing"
    for pair in crossing.pairs:
        if pair.value is not None:
            assert pair.lower is not None
            assert pair.upper is not None
            assert pair.lower <= pair.value <= pair.upper
        assert 0 <= pair.fraction <= 1
    if scaling.p_th is not None:
        assert scaling.lower is not None
        assert scaling.upper is not None
        assert scaling.nu is not None
        assert scaling.nu_lower is not None
        assert scaling.nu_upper is not None
        assert scaling.lower <= scaling.p_th <= scaling.upper
        assert scaling.nu_lower <= scaling.nu <= scaling.nu_upper
        assert rates[0] <= scaling.p_th <= rates[-1]
    excluded = {(e.size, e.rate) for e in report.excluded}
    assert excluded == {(p.size, p.rate) for p in points if p.failures == p.trials}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_curves_that_do_not_depend_on_l_never_cross_at_a_number(seed: int) -> None:
    # The same counts at every size: every difference is exactly 0, so nothing crosses.
    rng = np.random.default_rng(seed)
    counts = {rate: int(rng.integers(1, 99)) for rate in RATES}
    points = [RatePoint(size, rate, counts[rate], 100) for size in SIZES for rate in RATES]
    report = threshold_from_rates(points, n_resamples=10, seed=seed)
    assert report.crossing.value is None
