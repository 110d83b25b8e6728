"""Statistics from lifetime histograms: by hand, and against core.stats on the same games."""

from __future__ import annotations

import math
import random

import pytest

from core.stats import (
    hazard_per_round,
    hazard_plateau,
    kaplan_meier,
)
from core.stats.survival import km_mean_median, plateau_of_rows
from dashboard.stats import (
    hazard_counts,
    kaplan_meier_counts,
    lifetime_counts,
    merge_histograms,
    percentile_of,
)

# rounds 2 lost, 3 lost, 3 abandoned, 5 lost
HAND = {2: (1, 0), 3: (1, 1), 5: (1, 0)}


def expand(histogram: dict[int, tuple[int, int]]) -> tuple[list[int], list[bool]]:
    durations, observed = [], []
    for rounds, (lost, censored) in sorted(histogram.items()):
        durations += [rounds] * (lost + censored)
        observed += [True] * lost + [False] * censored
    return durations, observed


def random_histogram(rng: random.Random, games: int) -> dict[int, tuple[int, int]]:
    rows = []
    for _ in range(games):
        rounds = 1 + min(int(rng.expovariate(0.12)), 60)
        lost = rng.random() < 0.85
        rows.append((rounds, int(lost), int(not lost)))
    return merge_histograms(rows)


def test_it_computes_kaplan_meier_by_hand() -> None:
    rows = kaplan_meier_counts(HAND)
    assert [(r.time, r.at_risk, r.events, r.censored) for r in rows] == [
        (2, 4, 1, 0), (3, 3, 1, 1), (5, 1, 1, 0),
    ]
    assert [r.survival for r in rows] == pytest.approx([0.75, 0.5, 0.0])


def test_it_computes_the_hazard_by_hand() -> None:
    rows = hazard_counts(HAND)
    assert [(r.round, r.at_risk, r.lost) for r in rows] == [
        (1, 4, 0), (2, 4, 1), (3, 3, 1), (4, 1, 0), (5, 1, 1),
    ]
    assert [r.hazard for r in rows] == pytest.approx([0, 0.25, 1 / 3, 0, 1])


def test_it_computes_the_lifetime_by_hand() -> None:
    summary = lifetime_counts(HAND)
    assert summary is not None
    # Area under S: 2 * 1 + 1 * 0.75 + 2 * 0.5.
    assert summary.mean == pytest.approx(3.75)
    assert summary.median == 3
    assert (summary.games, summary.losses) == (4, 3)
    assert summary.mean_lower < summary.mean < summary.mean_upper


def test_it_computes_the_restricted_mean_variance_by_hand() -> None:
    # Losses at 1 and 2 of two games: S = 0.5 on [1, 2), area after 1 is 0.5.
    # Var = 0.5^2 * 1 / (2 * 1) = 0.125 (the loss at 2 has nothing after it).
    summary = lifetime_counts({1: (1, 0), 2: (1, 0)})
    assert summary is not None
    assert summary.mean == pytest.approx(1.5)
    half = 1.959963984540054 * math.sqrt(0.125)
    assert summary.mean_lower == pytest.approx(1.5 - half)
    assert summary.mean_upper == pytest.approx(1.5 + half)


def test_it_gives_percentiles_with_ties_counted_half() -> None:
    assert percentile_of(HAND, 3) == pytest.approx(50.0)
    assert percentile_of(HAND, 1) == pytest.approx(0.0)
    assert percentile_of(HAND, 9) == pytest.approx(100.0)
    assert percentile_of({}, 3) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_it_matches_results_stats_on_the_expanded_games(seed: int) -> None:
    rng = random.Random(seed)
    histogram = random_histogram(rng, 400)
    durations, observed = expand(histogram)

    expected_km = kaplan_meier(durations, observed)
    got_km = kaplan_meier_counts(histogram)
    assert len(got_km) == len(expected_km)
    for got, expected in zip(got_km, expected_km, strict=True):
        assert tuple(got) == pytest.approx(tuple(expected))
    expected_hazard = hazard_per_round(durations, observed)
    got_hazard = hazard_counts(histogram)
    assert len(got_hazard) == len(expected_hazard)
    for got_row, expected_row in zip(got_hazard, expected_hazard, strict=True):
        assert tuple(got_row) == pytest.approx(tuple(expected_row))
    plateau = plateau_of_rows(got_hazard, len(durations))
    assert plateau == hazard_plateau(durations, observed)
    assert plateau is not None
    mean, median = km_mean_median(list(zip(durations, observed, strict=True)))
    summary = lifetime_counts(histogram)
    assert summary is not None
    assert summary.mean == pytest.approx(mean)
    assert summary.median == median


def test_it_finds_no_plateau_in_too_few_games() -> None:
    rows = hazard_counts(HAND)
    assert plateau_of_rows(rows, 4) is None
