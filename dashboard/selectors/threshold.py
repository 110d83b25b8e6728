"""Plot 3: the threshold, from the latest finished threshold sweep of a rule family.

Failure against the per-edge error rate p, one curve per bot and board size,
with Wilson 95% bands: the failure probability of one-shot shots, or the
loss rate per round (hazard plateau) of sustained ones. The threshold of each
bot by crossings of adjacent-L curves (with its bootstrap interval, drawn as
a band) and by finite-size scaling, or the message saying why there is none.

The original game is marked where it is played: the per-edge error rate its
recorded games actually realise, from the noise of players' games at the
original rules (budget 6, 5 moves per round), errors per round / 2L(L-1)
edges, with its moves per cell per round (5 / L^2).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from games.engine import ORIGINAL

from ..filters import Filters
from ..models import HUMAN, NoiseCount
from .cohorts import cohorts_matching, days_of
from .plot import Plot, PlotSpec, number


def original_game_rates(*, filters: Filters) -> list[dict[str, Any]]:
    """Per L, the error rate per edge and round that players' games at the original rules met."""
    cohorts = cohorts_matching(filters=Filters(
        variant=ORIGINAL.variant, size=filters.size, budget=ORIGINAL.noise_budget, source=HUMAN,
        date_from=filters.date_from, date_to=filters.date_to,
    ))
    sums = (
        NoiseCount.objects.filter(days_of(filters), cohort_id__in=cohorts)
        .values("cohort__size")
        .annotate(rounds=Sum("games"), errors=Sum("errors"))
        .order_by("cohort__size")
    )
    marks = []
    for row in sums:
        size, rounds, errors = row["cohort__size"], row["rounds"], row["errors"]
        if not rounds or size < 2:
            continue
        edges = 2 * size * (size - 1)
        marks.append({
            "size": size,
            "rate": number(errors / rounds / edges),
            "errors_per_round": number(errors / rounds),
            "game_rounds": rounds,
            "moves_per_cell": number(ORIGINAL.moves_per_round / (size * size)),
            "label": f"the game, L={size}",
        })
    return marks


def plot_threshold(*, filters: Filters) -> Plot:
    from results.selectors import sweep_points, sweep_thresholds, threshold_sweep_latest_done

    sweep = threshold_sweep_latest_done()
    series: dict[tuple[str, int], dict[str, Any]] = {}
    rows: list[list[Any]] = []
    thresholds: list[dict[str, Any]] = []
    games = 0
    if sweep is not None:
        points = sweep_points(sweep=sweep)
        if filters.size:
            points = points.filter(size=filters.size)
        if filters.source:
            points = points.filter(bot_name=filters.source)
        for point in points:
            entry = series.setdefault(
                (point.bot_name, point.size),
                {"bot": point.bot_name, "size": point.size,
                 "label": f"{point.bot_name} L={point.size}", "rates": [], "failure": [],
                 "lower": [], "upper": [], "shots": [], "failures": [], "trials": []},
            )
            entry["rates"].append(point.rate)
            entry["failure"].append(number(point.failure_rate, 8))
            entry["lower"].append(number(point.failure_ci_low, 8))
            entry["upper"].append(number(point.failure_ci_high, 8))
            entry["shots"].append(point.games_done)
            entry["failures"].append(point.failures)
            entry["trials"].append(point.trials)
            games += point.games_done
            rows.append(["sweep", sweep.family, point.bot_name, point.size, point.rate,
                         point.games_done, point.failures, point.trials,
                         number(point.failure_rate, 8), number(point.failure_ci_low, 8),
                         number(point.failure_ci_high, 8)])
        for t in sweep_thresholds(sweep=sweep):
            if filters.source and t.bot_name != filters.source:
                continue
            thresholds.append({
                "bot": t.bot_name,
                "crossing": number(t.crossing), "lower": number(t.crossing_low),
                "upper": number(t.crossing_high), "at_edge": t.crossing_at_edge,
                "scaling": number(t.scaling_p_th), "scaling_lower": number(t.scaling_low),
                "scaling_upper": number(t.scaling_high), "nu": number(t.scaling_nu, 3),
                "chi2_dof": number(t.scaling_chi2_dof, 3), "agree": t.methods_agree,
                "direction": t.direction, "message": t.message,
            })
    game = original_game_rates(filters=filters)
    for mark in game:
        rows.append(["game", "original", HUMAN, mark["size"], mark["rate"], mark["game_rounds"],
                     None, None, None, None, None])
    return Plot(
        games=games,
        data={
            "sweep": None if sweep is None else {
                "id": str(sweep.pk),
                "family": sweep.family,
                "finished_at": sweep.finished_at.isoformat() if sweep.finished_at else None,
                "shots_per_point": sweep.games_per_point,
                "moves_per_cell": sweep.moves_per_cell,
            },
            "series": list(series.values()),
            "thresholds": thresholds,
            "game": game,
        },
        columns=["from", "family", "source", "size", "rate", "shots_or_game_rounds", "failures",
                 "trials", "failure_rate", "lower95", "upper95"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="threshold",
    title="Threshold",
    explanation=(
        "Failure against the error rate p per edge, from the latest threshold sweep of the bots "
        "(one-shot: the chance that decoding one noisy board fails; sustained: the loss rate "
        "per round), one curve per board size with 95% bands. Below the threshold a bigger "
        "board fails less, above it more: where the curves cross is the threshold, shaded with "
        "its 95% interval. The dotted lines mark the error rate per edge that players' games "
        "at the original rules actually meet."
    ),
    select=plot_threshold,
)
