"""The two threshold plots, which lead the page: each from the latest finished sweep of its kind.

Both draw failure against the per-edge error rate p, one curve per bot and
board size, with Wilson 95% bands, and the threshold of each bot by crossings
of adjacent-L curves (with its bootstrap interval, drawn as a band) and by
finite-size scaling, or the message saying why there is none. They differ in
what a failure is (``FamilyKind.criterion``):

- ``threshold`` (criterion ``logical``): the planar Z_d code. A failure is a
  logical error: after the decoder's correction a charge has been carried from
  one open side of the board to the other. This is the QEC threshold, and it
  is compared with the hashing bound of the noise for that d: the rate random
  codes reach, a reference rather than a ceiling (some codes and noise exceed
  it; the ceiling of this code is its optimal decoder's threshold).
- ``spanning`` (criterion ``spanning``): the one-shot and sustained families,
  played by the game's own loss rule (a group touching two opposite sides):
  the failure probability of one-shot shots, or the loss rate per round
  (hazard plateau) of sustained ones. It measures how much noise the game's
  rule tolerates, not a logical failure rate of a code.

The spanning plot marks where the original game is played, which only
compares with the game's rule: the per-edge error rate its recorded games
actually realise, from the noise of players' games at the original rules
(budget 6, 5 moves per round), errors per round / 2L(L-1) edges, with its
moves per cell per round (5 / L^2).
"""

from __future__ import annotations

import functools
from typing import Any

from django.db.models import Sum

from games.engine import DEFAULT_RULES
from games.engine.planar import hashing_bound
from results.selectors import sweep_thresholds, threshold_sweep_latest_done

from ..filters import Filters
from ..models import HUMAN, NoiseCount
from .cohorts import cohorts_matching, days_of, sweep_points_matching
from .plot import Plot, PlotSpec, number


def original_game_rates(*, filters: Filters) -> list[dict[str, Any]]:
    """Per L, the error rate per edge and round that players' games at the original rules met."""
    matching = cohorts_matching(filters=Filters(
        variant=DEFAULT_RULES.variant, size=filters.size, budget=DEFAULT_RULES.noise_budget,
        source=HUMAN,
        date_from=filters.date_from, date_to=filters.date_to,
    ))
    cohorts = [pk for pk, c in matching.items()
               if c.moves_per_round == DEFAULT_RULES.moves_per_round]
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
            "moves_per_cell": number(DEFAULT_RULES.moves_per_round / (size * size)),
            "label": f"the game, L={size}",
        })
    return marks


LOGICAL = "logical"
SPANNING = "spanning"


def plot_threshold(*, filters: Filters, criterion: str = LOGICAL) -> Plot:
    """The latest finished threshold sweep whose failures are ``criterion``'s, as a plot.

    ``logical``: the planar code's sweep, with its modulus d and the hashing bound
    for d; ``spanning``: a one-shot or sustained sweep, with the original game's marks.
    """
    sweep = threshold_sweep_latest_done(criterion=criterion)
    modulus = sweep.modulus if sweep is not None else None
    bound = hashing_bound(modulus) if modulus is not None else None
    series: dict[tuple[str, int], dict[str, Any]] = {}
    rows: list[list[Any]] = []
    thresholds: list[dict[str, Any]] = []
    games = 0
    if sweep is not None:
        for point in sweep_points_matching(sweep=sweep, filters=filters):
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
            rows.append(["sweep", sweep.family, criterion, modulus, point.bot_name, point.size,
                         point.rate, point.games_done, point.failures, point.trials,
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
                "scaling_upper": number(t.scaling_high), "nu": number(t.scaling_nu),
                # Unrounded (as the message's figures): rounded twice, 1.2553 read 1.25 here.
                "chi2_dof": number(t.scaling_chi2_dof), "agree": t.methods_agree,
                "direction": t.direction, "message": t.message,
                # The estimate to quote first, and whether it is a finite-size estimate.
                "headline": t.detail.get("headline"),
                # How far the crossing lies below the hashing bound (negative: above it).
                "below_hashing_bound": (
                    number(bound - t.crossing)
                    if bound is not None and t.crossing is not None else None
                ),
            })
    # Where the original game is played compares only with the game's own loss rule.
    game = original_game_rates(filters=filters) if criterion == SPANNING else []
    for mark in game:
        rows.append(["game", "original", criterion, None, HUMAN, mark["size"], mark["rate"],
                     mark["game_rounds"], None, None, None, None, None])
    return Plot(
        games=games,
        data={
            "criterion": criterion,
            "modulus": modulus,
            "hashing_bound": number(bound),
            "sweep": None if sweep is None else {
                "id": str(sweep.pk),
                "family": sweep.family,
                "modulus": modulus,
                "finished_at": sweep.finished_at.isoformat() if sweep.finished_at else None,
                "shots_per_point": sweep.games_per_point,
                "moves_per_cell": sweep.moves_per_cell,
            },
            "series": list(series.values()),
            "thresholds": thresholds,
            "game": game,
        },
        columns=["from", "family", "criterion", "modulus", "source", "size", "rate",
                 "shots_or_game_rounds", "failures", "trials", "failure_rate", "lower95",
                 "upper95"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="threshold",
    title="QEC threshold: logical failure of the planar code",
    explanation=(
        "How often a decoder fails to correct a real quantum error-correcting code, the planar "
        "Z_d code, against the error rate p per edge, from the latest planar threshold sweep: a "
        "failure is a logical error, a charge carried from one side of the board to the other "
        "after the correction. One curve per board size with 95% bands. Below the threshold a "
        "bigger board fails less, above it more: where the curves cross is the threshold, "
        "shaded with its 95% interval. The dashed line is the hashing bound of this noise for "
        "the sweep's d: the rate random codes reach, a reference, not a ceiling (the ceiling "
        "of this code is its optimal decoder's threshold)."
    ),
    select=plot_threshold,
)

SPANNING_PLOT = PlotSpec(
    name="spanning",
    title="Spanning threshold: the game's own loss rule",
    explanation=(
        "How much noise the game's own loss rule tolerates: the game is lost when a group "
        "touches two opposite sides of the board. From the latest one-shot or sustained "
        "threshold sweep of the bots (one-shot: the chance that decoding one noisy board ends "
        "with such a group; sustained: the loss rate per round), one curve per board size with "
        "95% bands, and where the curves cross with its 95% interval. This is the game's "
        "measure, not a logical failure rate of a code. The dotted lines mark the error rate "
        "per edge that players' games at the original rules actually meet."
    ),
    select=functools.partial(plot_threshold, criterion=SPANNING),
)
