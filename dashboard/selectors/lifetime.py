"""The lifetime plot: mean and median lifetime against the board size, per noise budget."""

from __future__ import annotations

from typing import Any

from ..filters import Filters
from ..stats import games_in, lifetime_counts
from .cohorts import COHORT_COLUMNS, cohort_columns, cohort_histograms, rules_note
from .plot import Plot, PlotSpec, number


def plot_lifetime_by_size(*, filters: Filters) -> Plot:
    cohorts, histograms = cohort_histograms(filters=filters)
    series: dict[tuple[str, str, float, int], dict[str, Any]] = {}
    rows = []
    for key, histogram in histograms.items():
        cohort = cohorts[key]
        summary = lifetime_counts(histogram)
        if summary is None:  # no games counted in this cohort
            continue
        note = rules_note(variant=cohort.variant, moves_per_round=cohort.moves_per_round)
        entry = series.setdefault(
            (cohort.source, cohort.variant, cohort.noise_budget, cohort.moves_per_round),
            {"source": cohort.source, "variant": cohort.variant,
             "noise_budget": cohort.noise_budget, "moves_per_round": cohort.moves_per_round,
             "label": f"{cohort.source} b={cohort.noise_budget:g}{note}",
             "sizes": [], "mean": [], "lower": [], "upper": [], "median": [], "games": []},
        )
        entry["sizes"].append(cohort.size)
        entry["mean"].append(number(summary.mean))
        entry["lower"].append(number(summary.mean_lower))
        entry["upper"].append(number(summary.mean_upper))
        entry["median"].append(summary.median)
        entry["games"].append(summary.games)
        rows.append(
            [*cohort_columns(cohort), summary.games, summary.losses, number(summary.mean),
             number(summary.mean_lower), number(summary.mean_upper), summary.median,
             summary.median_lower, summary.median_upper]
        )
    for entry in series.values():
        order = sorted(range(len(entry["sizes"])), key=entry["sizes"].__getitem__)
        for name in ("sizes", "mean", "lower", "upper", "median", "games"):
            entry[name] = [entry[name][i] for i in order]
    return Plot(
        games=sum(games_in(h) for h in histograms.values()),
        data={"series": list(series.values())},
        columns=[*COHORT_COLUMNS, "games", "losses", "mean_rounds", "mean_lower95",
                 "mean_upper95", "median_rounds", "median_lower95", "median_upper95"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="lifetime",
    title="Lifetime against board size",
    explanation=(
        "Mean lifetime (95% interval) against L for each noise budget: rising curves mean the "
        "noise is below threshold."
    ),
    select=plot_lifetime_by_size,
)
