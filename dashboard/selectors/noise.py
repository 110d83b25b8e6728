"""The noise plot: the errors and new numbers the noise made per round."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from ..filters import Filters
from ..models import HUMAN, NoiseCount
from .cohorts import analysed_games, cohorts_matching, days_of
from .plot import Plot, PlotSpec, number


def plot_noise(*, filters: Filters) -> Plot:
    cohorts = cohorts_matching(filters=filters)
    days = days_of(filters)
    sums = (
        NoiseCount.objects.filter(days, cohort_id__in=cohorts)
        .values("cohort__source", "round")
        .annotate(
            games_sum=Sum("games"),
            errors_sum=Sum("errors"),
            new_sum=Sum("new_numbers"),
            light_sum=Sum("light_errors"),
        )
        .order_by("cohort__source", "round")
    )
    series: dict[str, dict[str, Any]] = {}
    rows = []
    for row in sums:
        source, games = row["cohort__source"], row["games_sum"]
        entry = series.setdefault(
            source,
            {"source": source, "rounds": [], "errors": [], "new_numbers": [],
             "light_errors": [], "games": [], "total_errors": 0, "total_new": 0,
             "total_light": 0, "game_rounds": 0},
        )
        entry["rounds"].append(row["round"])
        entry["games"].append(games)
        for name, total in (("errors", "errors_sum"), ("new_numbers", "new_sum"),
                            ("light_errors", "light_sum")):
            entry[name].append(number(row[total] / games))
        entry["total_errors"] += row["errors_sum"]
        entry["total_new"] += row["new_sum"]
        entry["total_light"] += row["light_sum"]
        entry["game_rounds"] += games
        rows.append([source, row["round"], games, row["errors_sum"], row["new_sum"],
                     row["light_sum"], number(row["errors_sum"] / games),
                     number(row["new_sum"] / games), number(row["light_sum"] / games)])
    for entry in series.values():
        rounds = entry["game_rounds"]
        entry["mean_errors"] = number(entry.pop("total_errors") / rounds)
        entry["mean_new_numbers"] = number(entry.pop("total_new") / rounds)
        entry["mean_light_errors"] = number(entry.pop("total_light") / rounds)
    ordered = sorted(series.values(), key=lambda s: (s["source"] != HUMAN, s["source"]))
    return Plot(
        games=analysed_games(cohorts, days),
        data={"series": ordered},
        columns=["source", "round", "games", "errors", "new_numbers", "light_errors",
                 "errors_per_game", "new_numbers_per_game", "light_errors_per_game"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="noise",
    title="Realized noise per round",
    explanation=(
        "Errors and new numbers the noise made per round, on average over the games that reached "
        "the round, in player and bot games."
    ),
    select=plot_noise,
)
