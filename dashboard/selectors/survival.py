"""The survival plot: the share of games still going after each round (Kaplan-Meier)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ..filters import Filters
from ..stats import games_in, kaplan_meier_counts
from .cohorts import COHORT_COLUMNS, cohort_columns, cohort_fields, cohort_histograms
from .plot import Plot, PlotSpec, finite, number


def plot_survival(*, filters: Filters) -> Plot:
    cohorts, histograms = cohort_histograms(filters=filters)
    # Whole rounds are durations to the estimator (ints are floats to it, not to mypy).
    durations = cast(dict[int, Mapping[float, tuple[int, int]]], histograms)
    curves = {key: kaplan_meier_counts(histogram) for key, histogram in durations.items()}
    return Plot(
        games=sum(games_in(h) for h in histograms.values()),
        data={
            "curves": [
                {
                    **cohort_fields(cohorts[key]),
                    "games": games_in(histograms[key]),
                    "rounds": [r.time for r in km],
                    "survival": finite(r.survival for r in km),
                    "lower": finite(r.lower95 for r in km),
                    "upper": finite(r.upper95 for r in km),
                    "at_risk": [r.at_risk for r in km],
                }
                for key, km in curves.items()
            ],
        },
        columns=[*COHORT_COLUMNS, "round", "at_risk", "lost", "censored", "survival",
                 "lower95", "upper95"],
        rows=lambda: [
            [*cohort_columns(cohorts[key]), r.time, r.at_risk, r.events, r.censored,
             number(r.survival), number(r.lower95), number(r.upper95)]
            for key, km in curves.items()
            for r in km
        ],
    )


PLOT = PlotSpec(
    name="survival",
    title="Survival",
    explanation=(
        "The share of games still going after each round (Kaplan-Meier, with 95% bands), for "
        "players and for each bot, per board size; your games are marked."
    ),
    select=plot_survival,
)
