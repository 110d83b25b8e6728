"""Survival statistics from lifetime histograms instead of lists of games.

``core.stats`` takes one duration per game. The dashboard keeps counts per
round (games lost and censored at each round), so that its cost depends on
the number of distinct rounds, not of games. The Kaplan-Meier curve and the
hazard rows come from ``core.stats.survival``, whose per-game functions
count their games into the same kind of histogram first. The lifetime mean
here is the Kaplan-Meier restricted mean with its Greenwood-type standard
error, which needs no resampling.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.stats import z_for
from core.stats.survival import hazard_counts, kaplan_meier_counts

__all__ = [
    "Histogram", "Lifetime", "games_in", "hazard_counts", "kaplan_meier_counts",
    "lifetime_counts", "merge_histograms", "percentile_of",
]

# rounds -> (lost, censored)
Histogram = Mapping[int, tuple[int, int]]


def merge_histograms(rows: Iterable[tuple[int, int, int]]) -> dict[int, tuple[int, int]]:
    """(rounds, lost, censored) rows, possibly repeated, as one histogram."""
    merged: dict[int, tuple[int, int]] = {}
    for rounds, lost, censored in rows:
        old_lost, old_censored = merged.get(rounds, (0, 0))
        merged[rounds] = (old_lost + lost, old_censored + censored)
    return merged


def games_in(histogram: Histogram) -> int:
    return sum(lost + censored for lost, censored in histogram.values())


@dataclass(frozen=True, slots=True)
class Lifetime:
    games: int
    losses: int
    mean: float  # Kaplan-Meier restricted mean (the plain mean when nothing is censored)
    mean_lower: float
    mean_upper: float
    median: float | None  # first round at which S <= 0.5
    median_lower: float | None  # from the survival band crossing 0.5
    median_upper: float | None


def lifetime_counts(histogram: Histogram, *, level: float = 0.95) -> Lifetime | None:
    """Mean and median lifetime in rounds, with intervals, from a histogram.

    The mean's variance is the usual one for a restricted mean:
    sum over loss times t_i of A_i^2 d_i / (n_i (n_i - d_i)), where A_i is
    the area under the curve after t_i. The median's interval runs from where
    the lower band to where the upper band first reaches 0.5.
    """
    rows = kaplan_meier_counts(histogram, level=level)
    if not rows:
        return None
    z = z_for(level)
    # Area under S from 0 to the longest duration, piece by piece.
    areas = []
    previous_time, survival = 0.0, 1.0
    for row in rows:
        areas.append(survival * (row.time - previous_time))
        previous_time, survival = row.time, row.survival
    mean = sum(areas)
    variance = 0.0
    after = 0.0  # area after rows[i].time
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        if row.events and row.at_risk > row.events:
            variance += after * after * row.events / (row.at_risk * (row.at_risk - row.events))
        after += areas[i]
    half = z * math.sqrt(variance)

    def first_at_or_below(values: list[tuple[float, float]]) -> float | None:
        return next((time for time, s in values if s <= 0.5), None)

    return Lifetime(
        games=rows[0].at_risk,
        losses=sum(r.events for r in rows),
        mean=mean,
        mean_lower=max(0.0, mean - half),
        mean_upper=mean + half,
        median=first_at_or_below([(r.time, r.survival) for r in rows]),
        median_lower=first_at_or_below([(r.time, r.lower95) for r in rows]),
        median_upper=first_at_or_below([(r.time, r.upper95) for r in rows]),
    )


def percentile_of(histogram: Histogram, rounds: int) -> float | None:
    """The share of games (in %) that lasted fewer rounds than ``rounds``; ties count half."""
    total = games_in(histogram)
    if not total:
        return None
    below = sum(lost + censored for k, (lost, censored) in histogram.items() if k < rounds)
    tied = sum(histogram.get(rounds, (0, 0)))
    return 100.0 * (below + tied / 2) / total
