"""Each pair's crossing from a local parabola, and the estimate a summary quotes first."""

from __future__ import annotations

import pytest

from bench.coverage import LONG_SIZES, PLANAR_LIKE, SHORT_SIZES, synthetic_sweep
from core.stats import threshold_from_rates

P_C = PLANAR_LIKE.p_c


def noiseless(sizes: tuple[int, ...]):
    # Curves with a quadratic term in the logit: the logit difference of two sizes is
    # curved near the crossing.
    return synthetic_sweep(None, sizes=sizes, shots=1_000_000)


def test_on_curved_differences_the_parabola_finds_the_crossing_and_the_line_misses_it():
    points = noiseless(LONG_SIZES)
    parabola = threshold_from_rates(points, n_resamples=20, seed=1).crossing
    line = threshold_from_rates(points, n_resamples=20, seed=1, local_fit="line").crossing
    for pair in parabola.pairs:
        assert pair.value == pytest.approx(P_C, abs=1e-4)
    assert parabola.value == pytest.approx(P_C, abs=1e-4)
    assert abs(line.value - P_C) > 1e-3  # a line through a curved d misses its root


def test_an_unknown_local_fit_is_refused():
    with pytest.raises(ValueError, match="local_fit must be one of quadratic, line"):
        threshold_from_rates(noiseless(SHORT_SIZES), n_resamples=10, local_fit="cubic")


def test_with_four_sizes_the_headline_is_the_corrected_scaling_fit():
    report = threshold_from_rates(synthetic_sweep(None, sizes=LONG_SIZES, shots=20_000,
                                                  drift=1.2), n_resamples=100, seed=2)
    headline = report.headline
    assert headline is not None
    assert headline.method == "scaling"
    assert not headline.finite_size
    assert headline.label == "threshold"
    assert (headline.value, headline.lower, headline.upper) == (
        report.scaling.p_th, report.scaling.lower, report.scaling.upper)
    assert report.scaling.omega == 1
    assert report.message.startswith(f"threshold p = {headline.value:.4f}, 95% CI [")
    assert "from finite-size scaling" in report.message.split(";")[0]
    assert "(a finite-size estimate: the crossing of small sizes moves with L)" in report.message


def test_with_three_sizes_the_crossing_is_quoted_as_a_finite_size_estimate():
    report = threshold_from_rates(synthetic_sweep(None, sizes=SHORT_SIZES, shots=20_000),
                                  n_resamples=100, seed=2)
    headline = report.headline
    assert headline is not None
    assert headline.method == "crossing"
    assert headline.finite_size
    assert headline.label == "finite-size estimate"
    assert headline.value == report.crossing.value
    assert report.message.startswith(f"finite-size estimate p = {headline.value:.4f}, 95% CI [")
    assert "not a threshold estimate: with 3 sizes no interval allows for drift" in report.message
    assert not report.message.startswith("threshold")


def test_with_four_sizes_and_no_value_from_the_fit_the_crossing_is_a_finite_size_estimate():
    # Two rates a hair either side of p_c and one far off: the fit's best p_th sits at the
    # edge of the searched range, so it gives no value; the curves still cross.
    points = synthetic_sweep(None, sizes=LONG_SIZES, rates=(0.0995, 0.1005, 0.13),
                             shots=20_000)
    report = threshold_from_rates(points, n_resamples=30, seed=1)
    assert report.scaling.edge
    assert report.crossing.value is not None
    headline = report.headline
    assert headline is not None
    assert headline.method == "crossing"
    assert headline.finite_size
    assert ("not a threshold estimate: the scaling fit with its correction term gives no value"
            in report.message)


def test_no_crossing_no_headline():
    below = [p for p in noiseless(SHORT_SIZES) if p.rate <= 0.09]
    report = threshold_from_rates(below, n_resamples=20, seed=1)
    assert report.crossing.value is None
    assert report.headline is None
    assert report.message.startswith("no threshold")
