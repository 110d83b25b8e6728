"""The hazard plot: the chance of losing in each round, and the plateau of that hazard."""

from __future__ import annotations

from typing import Any

from core.stats import HazardPlateau
from core.stats.survival import plateau_of_rows

from ..filters import Filters
from ..stats import games_in, hazard_counts
from .cohorts import COHORT_COLUMNS, cohort_columns, cohort_fields, cohort_histograms
from .plot import Plot, PlotSpec, finite, number


def plot_hazard(*, filters: Filters) -> Plot:
    cohorts, histograms = cohort_histograms(filters=filters)
    curves = {}
    for key, histogram in histograms.items():
        hazard = [r for r in hazard_counts(histogram) if r.round >= 1]
        curves[key] = (hazard, plateau_of_rows(hazard, games_in(histogram)))

    def plateau_view(plateau: HazardPlateau | None) -> dict[str, Any] | None:
        if plateau is None:
            return None
        return {
            "start_round": plateau.start_round,
            "end_round": plateau.end_round,
            "hazard": number(plateau.hazard),
            "lower": number(plateau.lower95),
            "upper": number(plateau.upper95),
            "lost": plateau.lost,
            "exposure": plateau.exposure,
        }

    def rows() -> list[list[Any]]:
        table = []
        for key, (hazard, plateau) in curves.items():
            for r in hazard:
                inside = plateau is not None and plateau.start_round <= r.round <= plateau.end_round
                table.append(
                    [*cohort_columns(cohorts[key]), r.round, r.at_risk, r.lost,
                     number(r.hazard), number(r.lower95), number(r.upper95),
                     number(plateau.hazard) if plateau is not None and inside else None]
                )
        return table

    return Plot(
        games=sum(games_in(h) for h in histograms.values()),
        data={
            "curves": [
                {
                    **cohort_fields(cohorts[key]),
                    "games": games_in(histograms[key]),
                    "rounds": [r.round for r in hazard],
                    "hazard": finite(r.hazard for r in hazard),
                    "lower": finite(r.lower95 for r in hazard),
                    "upper": finite(r.upper95 for r in hazard),
                    "at_risk": [r.at_risk for r in hazard],
                    "plateau": plateau_view(plateau),
                }
                for key, (hazard, plateau) in curves.items()
            ],
        },
        columns=[*COHORT_COLUMNS, "round", "at_risk", "lost", "hazard", "lower95", "upper95",
                 "plateau_hazard"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="hazard",
    title="Hazard per round",
    explanation=(
        "The chance of losing in a round given the game reached it (Wilson 95% intervals); the "
        "flat line is the plateau, the game's steady loss rate per round (by its own rule, not "
        "a logical error rate of a code)."
    ),
    select=plot_hazard,
)
