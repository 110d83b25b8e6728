"""The budget plot: the latest budget sweep's mean lifetimes against the noise budget.

The original game's budget is noise for the whole board, so these curves
grow with L at every budget and show no threshold; they place the players'
lifetimes beside the bots'. The threshold itself is plot 3 (``threshold``).
"""

from __future__ import annotations

from typing import Any

from results.selectors import sweep_latest_done, sweep_thresholds

from ..filters import Filters
from ..models import HUMAN
from ..stats import lifetime_counts
from .cohorts import cohort_fields, cohort_histograms, sweep_points_matching
from .plot import Plot, PlotSpec, number


def plot_budget(*, filters: Filters) -> Plot:
    """The latest finished sweep's points and thresholds, with the human games beside them."""
    sweep = sweep_latest_done()
    series: dict[tuple[str, int], dict[str, Any]] = {}
    rows: list[list[Any]] = []
    thresholds: list[dict[str, Any]] = []
    games = 0
    if sweep is not None:
        for point in sweep_points_matching(sweep=sweep, filters=filters):
            entry = series.setdefault(
                (point.bot_name, point.size),
                {"source": point.bot_name, "size": point.size,
                 "label": f"{point.bot_name} L={point.size}", "budgets": [], "mean": [],
                 "lower": [], "upper": [], "plateau": [], "games": []},
            )
            entry["budgets"].append(point.noise_budget)
            entry["mean"].append(number(point.mean_rounds))
            entry["lower"].append(number(point.mean_ci_low))
            entry["upper"].append(number(point.mean_ci_high))
            entry["plateau"].append(number(point.plateau_hazard))
            entry["games"].append(point.games_done)
            games += point.games_done
            rows.append(
                ["sweep", point.bot_name, point.size, point.noise_budget, point.games_done,
                 number(point.mean_rounds), number(point.mean_ci_low),
                 number(point.mean_ci_high), number(point.plateau_hazard),
                 number(point.plateau_ci_low), number(point.plateau_ci_high)]
            )
        for threshold in sweep_thresholds(sweep=sweep):
            if filters.source and threshold.bot_name != filters.source:
                continue
            thresholds.append(
                {"bot": threshold.bot_name, "budget": number(threshold.threshold_budget),
                 "lower": number(threshold.ci_low), "upper": number(threshold.ci_high),
                 "note": threshold.note}
            )
    humans = []
    if filters.source in (None, HUMAN):
        cohorts, histograms = cohort_histograms(filters=Filters(
            variant=filters.variant, size=filters.size, budget=filters.budget, source=HUMAN,
            date_from=filters.date_from, date_to=filters.date_to,
        ))
        for key, histogram in histograms.items():
            summary = lifetime_counts(histogram)
            if summary is None:  # no games counted in this cohort
                continue
            cohort = cohorts[key]
            humans.append(
                {**cohort_fields(cohort), "games": summary.games, "mean": number(summary.mean),
                 "lower": number(summary.mean_lower), "upper": number(summary.mean_upper)}
            )
            games += summary.games
            rows.append(
                ["games", HUMAN, cohort.size, cohort.noise_budget, summary.games,
                 number(summary.mean), number(summary.mean_lower), number(summary.mean_upper),
                 None, None, None]
            )
    return Plot(
        games=games,
        data={
            "sweep": None if sweep is None else {
                "id": str(sweep.pk),
                "finished_at": sweep.finished_at.isoformat() if sweep.finished_at else None,
                "games_per_point": sweep.games_per_point,
            },
            "series": list(series.values()),
            "thresholds": thresholds,
            "humans": humans,
        },
        columns=["from", "source", "size", "noise_budget", "games", "mean_rounds",
                 "mean_lower95", "mean_upper95", "plateau_hazard", "plateau_lower95",
                 "plateau_upper95"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="budget",
    title="Lifetime against the noise budget",
    explanation=(
        "Mean lifetime against the game's noise budget per round, from the latest budget sweep "
        "of the bots (one curve per board size) and from players' games. The budget is noise "
        "for the whole board, so a bigger board lives longer at every budget: no threshold "
        "shows here (see the threshold plot)."
    ),
    select=plot_budget,
)
