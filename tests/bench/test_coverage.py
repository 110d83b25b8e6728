"""The coverage benchmark's machinery: its synthetic curves, its counting, its runs."""

from __future__ import annotations

import numpy as np
import pytest

from bench.coverage import (
    DRIFT,
    LONG_SIZES,
    PLANAR_LIKE,
    SHORT_SIZES,
    Coverage,
    Curve,
    measure,
    synthetic_sweep,
)
from core.stats import threshold_from_rates


def test_without_drift_every_pair_of_noiseless_curves_crosses_at_p_c():
    for small, large in ((8, 12), (12, 16), (16, 24)):
        assert PLANAR_LIKE.pair_crossing(small, large) == pytest.approx(PLANAR_LIKE.p_c,
                                                                       abs=1e-9)


def test_with_drift_the_pair_crossings_sit_above_p_c_and_approach_it_as_l_grows():
    crossings = [PLANAR_LIKE.pair_crossing(a, b, DRIFT) for a, b in ((8, 12), (12, 16), (16, 24))]
    assert all(c > PLANAR_LIKE.p_c for c in crossings)
    assert crossings == sorted(crossings, reverse=True)
    assert crossings[0] - PLANAR_LIKE.p_c > 0.003  # enough to matter at 2,000 shots


def test_the_curves_are_shaped_like_the_planar_runs():
    # Matching at d = 2, L = 8, p = 0.10 failed in 13% of the shots; the curves rise with p
    # and, above p_c, with L.
    assert 0.08 < PLANAR_LIKE.failure(8, 0.10) < 0.16
    assert PLANAR_LIKE.failure(16, 0.13) > PLANAR_LIKE.failure(8, 0.13)
    assert PLANAR_LIKE.failure(16, 0.07) < PLANAR_LIKE.failure(8, 0.07)


def test_the_generator_draws_binomial_counts_around_the_curve():
    points = synthetic_sweep(np.random.default_rng(1), sizes=(8,), rates=(0.10,), shots=200_000)
    (point,) = points
    assert point.trials == 200_000
    assert point.failures / point.trials == pytest.approx(PLANAR_LIKE.failure(8, 0.10),
                                                          abs=0.003)
    again = synthetic_sweep(np.random.default_rng(1), sizes=(8,), rates=(0.10,), shots=200_000)
    assert again == points


def test_a_noiseless_sweep_reproduces_its_threshold_and_every_interval_covers_it():
    for sizes in (SHORT_SIZES, LONG_SIZES):
        report = threshold_from_rates(synthetic_sweep(None, sizes=sizes, shots=1_000_000),
                                      n_resamples=50, seed=1)
        crossing, scaling, headline = report.crossing, report.scaling, report.headline
        assert crossing.value == pytest.approx(PLANAR_LIKE.p_c, abs=2e-4)
        assert crossing.lower <= PLANAR_LIKE.p_c <= crossing.upper
        assert scaling.p_th == pytest.approx(PLANAR_LIKE.p_c, abs=2e-4)
        assert scaling.lower <= PLANAR_LIKE.p_c <= scaling.upper
        assert headline is not None
        assert headline.lower <= PLANAR_LIKE.p_c <= headline.upper


def test_coverage_counts_hits_misses_and_missing_intervals_per_seed():
    c = Coverage(truth=0.10)
    assert c.add((0.10, 0.09, 0.11), seed=1)
    assert c.add((0.11, 0.10, 0.12), seed=1)  # the truth on the edge is held
    assert not c.add((0.12, 0.101, 0.13), seed=2)
    assert not c.add((None, None, None), seed=2)
    assert (c.hits, c.repeats, c.missing) == (2, 4, 1)
    assert c.share == 0.5
    assert c.by_seed == {1: [2, 2], 2: [0, 2]}
    assert c.widths == pytest.approx([0.02, 0.02, 0.029])
    assert c.errors == pytest.approx([0.0, 0.01, 0.02])
    low, high = c.interval()
    assert low < 0.5 < high


def test_measure_splits_the_repeats_over_the_seeds_and_is_reproducible():
    first = measure(sizes=SHORT_SIZES, drift=0.0, seeds=(1, 2), repeats=3, resamples=30)
    assert set(first) == {"crossing", "crossing, line (before)", "scaling", "headline"}
    for c in first.values():
        assert c.repeats == 3
        assert {seed: n for seed, (_, n) in c.by_seed.items()} == {1: 2, 2: 1}
    again = measure(sizes=SHORT_SIZES, drift=0.0, seeds=(1, 2), repeats=3, resamples=30)
    assert {k: (c.hits, c.widths) for k, c in again.items()} == {
        k: (c.hits, c.widths) for k, c in first.items()}
    # With three sizes the headline is the crossing (a finite-size estimate).
    assert first["headline"].widths == first["crossing"].widths


def test_measure_wants_a_repeat_for_every_seed():
    with pytest.raises(ValueError, match="one repeat per seed"):
        measure(sizes=SHORT_SIZES, drift=0.0, seeds=(1, 2, 3), repeats=2)


def test_a_curve_that_does_not_cross_near_p_c_is_refused():
    flat = Curve(b=0.0, c=0.0)
    with pytest.raises(ValueError, match="do not cross"):
        flat.pair_crossing(8, 12)
