"""Kaplan-Meier, hazard per round and lifetime summaries: by hand and against lifelines."""

from __future__ import annotations

import math
import random

import pytest
from lifelines import KaplanMeierFitter
from lifelines.utils import restricted_mean_survival_time

from core.stats import (
    hazard_per_round,
    hazard_plateau,
    kaplan_meier,
    lifetime_summary,
    wilson_interval,
)

Z = 1.959963984540054  # NormalDist().inv_cdf(0.975)


def test_kaplan_meier_by_hand():
    rows = kaplan_meier([1, 2, 2, 3, 4], [True, True, False, True, False])
    assert [(r.time, r.at_risk, r.events, r.censored) for r in rows] == [
        (1, 5, 1, 0), (2, 4, 1, 1), (3, 2, 1, 0), (4, 1, 0, 1),
    ]
    # S(1) = 1 - 1/5 = 0.8; S(2) = 0.8 * (1 - 1/4) = 0.6; S(3) = 0.6 * (1 - 1/2) = 0.3;
    # nothing dies at 4 (a censoring), so S(4) = 0.3.
    assert [r.survival for r in rows] == pytest.approx([0.8, 0.6, 0.3, 0.3])
    # Greenwood sum at 1: 1 / (5 * 4) = 0.05.
    # log(-log) band: se = sqrt(0.05) / |ln 0.8| = 0.2236068 / 0.2231436 = 1.0020759,
    # lower = 0.8 ** exp(+1.959964 * 1.0020759) = 0.8 ** 7.128365 = 0.203809,
    # upper = 0.8 ** exp(-1.959964 * 1.0020759) = 0.8 ** 0.140285 = 0.969180.
    assert rows[0].lower95 == pytest.approx(0.203809, abs=1e-6)
    assert rows[0].upper95 == pytest.approx(0.969180, abs=1e-6)
    # At 3: Greenwood sum 0.05 + 1/(4*3) + 1/(2*1) = 0.633333; se = 0.795822 / 1.203973 = 0.661000,
    # lower = 0.3 ** exp(1.295546) = 0.3 ** 3.653020 = 0.012302,
    # upper = 0.3 ** exp(-1.295546) = 0.3 ** 0.273746 = 0.719218.
    assert rows[2].lower95 == pytest.approx(0.012302, abs=1e-6)
    assert rows[2].upper95 == pytest.approx(0.719218, abs=1e-6)


def test_kaplan_meier_edges():
    assert kaplan_meier([]) == []
    # Only censored games: the curve stays at 1 and the band is the point 1.
    rows = kaplan_meier([3, 5], [False, False])
    assert [(r.survival, r.lower95, r.upper95) for r in rows] == [(1.0, 1.0, 1.0)] * 2
    # Everyone lost at once: S drops to 0 with the band.
    (row,) = kaplan_meier([4, 4, 4])
    assert (row.at_risk, row.events, row.survival, row.lower95, row.upper95) == (3, 3, 0, 0, 0)
    with pytest.raises(ValueError, match="same length"):
        kaplan_meier([1, 2], [True])
    with pytest.raises(ValueError, match="duration"):
        kaplan_meier([-1])
    with pytest.raises(ValueError, match="duration"):
        kaplan_meier([math.nan])
    with pytest.raises(ValueError, match="observed"):
        kaplan_meier([1], ["yes"])


def _lifetimes(seed: int, n: int, censor_share: float) -> tuple[list[int], list[bool]]:
    rng = random.Random(seed)
    durations, observed = [], []
    for _ in range(n):
        life = 1 + int(rng.expovariate(1 / 20))
        if rng.random() < censor_share:
            durations.append(rng.randint(1, life))
            observed.append(False)
        else:
            durations.append(life)
            observed.append(True)
    return durations, observed


@pytest.mark.parametrize(("seed", "censor_share"), [(1, 0.0), (2, 0.3), (3, 0.6)])
def test_kaplan_meier_matches_lifelines(seed, censor_share):
    durations, observed = _lifetimes(seed, 150, censor_share)
    rows = kaplan_meier(durations, observed)
    fitter = KaplanMeierFitter().fit(durations, observed)
    survival = fitter.survival_function_["KM_estimate"]
    band = fitter.confidence_interval_
    for row in rows:
        assert row.survival == pytest.approx(survival.loc[row.time], abs=1e-12)
        assert row.lower95 == pytest.approx(band.loc[row.time].iloc[0], abs=1e-9)
        assert row.upper95 == pytest.approx(band.loc[row.time].iloc[1], abs=1e-9)
    table = fitter.event_table
    for row in rows:
        assert row.at_risk == table.loc[row.time, "at_risk"]
        assert row.events == table.loc[row.time, "observed"]
        assert row.censored == table.loc[row.time, "censored"]


def test_hazard_per_round_by_hand():
    rows = hazard_per_round([1, 2, 2, 3, 3, 3, 4], [1, 1, 0, 1, 1, 0, 1], z=1.96)
    # Round 1: all 7 at risk, 1 lost. Round 2: 6 at risk, 1 lost, 1 censored after it.
    # Round 3: 4 at risk, 2 lost, 1 censored. Round 4: 1 at risk, 1 lost.
    assert [(r.round, r.at_risk, r.lost, r.censored) for r in rows] == [
        (1, 7, 1, 0), (2, 6, 1, 1), (3, 4, 2, 1), (4, 1, 1, 0),
    ]
    assert [r.hazard for r in rows] == pytest.approx([1 / 7, 1 / 6, 0.5, 1.0])
    # Wilson for 1/7, z = 1.96: z^2 = 3.8416, denominator 1 + 3.8416/7 = 1.548800,
    # centre (1/7 + 3.8416/14) / 1.5488 = 0.269407,
    # half 1.96 * sqrt((1/7)(6/7)/7 + 3.8416/196) / 1.5488 = 0.243728.
    assert (rows[0].lower95, rows[0].upper95) == pytest.approx((0.025679, 0.513135), abs=1e-6)
    assert rows[3].upper95 == 1.0


def test_hazard_per_round_starts_at_round_one_and_checks_rounds():
    rows = hazard_per_round([3, 3], [True, True])
    assert [(r.round, r.at_risk, r.lost, r.hazard) for r in rows] == [
        (1, 2, 0, 0.0), (2, 2, 0, 0.0), (3, 2, 2, 1.0),
    ]
    assert hazard_per_round([]) == []
    with pytest.raises(ValueError, match="whole"):
        hazard_per_round([2.5])


def _games_with_hazard(hazard_of_round, n: int, seed: int, cap: int = 200):
    rng = random.Random(seed)
    durations, observed = [], []
    for _ in range(n):
        k = 1
        while k < cap and rng.random() >= hazard_of_round(k):
            k += 1
        durations.append(k)
        observed.append(k < cap)
    return durations, observed


def test_hazard_plateau_finds_the_late_constant_hazard():
    # Safe for two rounds, a little risk in round 3, then a constant 20% per round.
    def hazard(k):
        return 0.0 if k <= 2 else 0.05 if k == 3 else 0.2

    durations, observed = _games_with_hazard(hazard, 3000, seed=5)
    plateau = hazard_plateau(durations, observed)
    assert plateau is not None
    assert plateau.start_round == 4
    assert plateau.lower95 <= 0.2 <= plateau.upper95
    assert plateau.hazard == pytest.approx(0.2, abs=0.01)
    assert (plateau.lower95, plateau.upper95) == pytest.approx(
        wilson_interval(plateau.lost, plateau.exposure, Z)
    )
    assert plateau.lost == sum(
        r.lost for r in hazard_per_round(durations, observed)
        if plateau.start_round <= r.round <= plateau.end_round
    )


def test_hazard_plateau_from_the_first_round_and_when_there_is_none():
    durations, observed = _games_with_hazard(lambda k: 0.1, 2000, seed=8)
    plateau = hazard_plateau(durations, observed)
    assert plateau is not None
    assert plateau.start_round == 1
    assert plateau.lower95 <= 0.1 <= plateau.upper95
    # Everybody lost in round 2: too few usable rounds for a plateau.
    assert hazard_plateau([2] * 50) is None
    with pytest.raises(ValueError, match="window"):
        hazard_plateau([1, 2], window=0)


def test_lifetime_summary_without_censoring():
    durations = [4, 8, 15, 16, 23, 42]
    summary = lifetime_summary(durations, n_resamples=500, seed=1)
    assert (summary.n, summary.losses, summary.censored) == (6, 6, 0)
    # Without censoring the area under the curve is the plain mean: 108 / 6 = 18.
    assert summary.mean == pytest.approx(18.0)
    # Kaplan-Meier median: S(15) = 3/6 = 0.5 is the first value <= 0.5.
    assert summary.median == 15
    assert summary.mean_lower < 18 < summary.mean_upper
    assert summary.median_lower <= 15 <= summary.median_upper
    assert lifetime_summary(durations, n_resamples=500, seed=1) == summary


def test_lifetime_summary_with_censoring_matches_lifelines():
    durations, observed = _lifetimes(11, 120, 0.4)
    summary = lifetime_summary(durations, observed, n_resamples=300, seed=2)
    fitter = KaplanMeierFitter().fit(durations, observed)
    assert summary.median == fitter.median_survival_time_
    rmst = restricted_mean_survival_time(fitter, t=max(durations))
    assert summary.mean == pytest.approx(rmst, rel=1e-9)
    assert summary.censored == observed.count(False)
    assert summary.mean_lower < summary.mean < summary.mean_upper


def test_lifetime_summary_median_never_reached():
    summary = lifetime_summary([5, 6, 7, 8], [True, False, False, False], n_resamples=200)
    assert summary.median is None
    with pytest.raises(ValueError, match="no games"):
        lifetime_summary([])
