"""Reads: the numbers behind each plot of the dashboard, from the aggregate tables only.

Every plot function takes the page's :class:`~dashboard.filters.Filters` and
returns a :class:`Plot`: the JSON the page draws, the number of games it rests
on, and the same numbers as CSV rows. Without a date range the all-time rows
are read, so the work per request depends on the number of cohorts and of
distinct rounds, not on the number of games stored. With a date range the
daily rows of that range are summed.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Min, Q, Sum

from games.models import Game, Player
from research.exports.pseudonyms import pseudonym
from results.stats import HazardPlateau, wilson_interval
from results.stats.survival import plateau_of_rows

from .filters import Filters
from .models import (
    ALL_TIME,
    HUMAN,
    AgreementCount,
    AnalysisCount,
    Cohort,
    DailyCount,
    DemoData,
    LifetimeCount,
    NoiseCount,
    PlayerBest,
    PlayerDay,
    StrategyCount,
    Watermark,
)
from .stats import (
    Histogram,
    games_in,
    hazard_counts,
    kaplan_meier_counts,
    lifetime_counts,
    merge_histograms,
    percentile_of,
)

LEADERBOARD_SIZE = 10
MY_GAMES_LIMIT = 200  # a player's most recent games marked on the plots


@dataclass
class Plot:
    games: int
    data: dict[str, Any]
    columns: list[str]
    # The CSV rows, or a function making them: only downloads pay for the big tables.
    rows: list[list[Any]] | Callable[[], list[list[Any]]] = field(default_factory=list)

    def csv_rows(self) -> list[list[Any]]:
        return self.rows() if callable(self.rows) else self.rows


def _finite(values: Iterable[float]) -> list[float | None]:
    """Floats fit for JSON, None for NaN or infinity (long curves: no rounding)."""
    return [value if math.isfinite(value) else None for value in values]


def _number(value: float | None, digits: int = 6) -> float | None:
    """A float fit for JSON: rounded, and None for NaN or infinity."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


# -- cohorts and days ------------------------------------------------------------------


def cohorts_matching(*, filters: Filters) -> dict[int, Cohort]:
    query = Cohort.objects.all()
    if filters.variant:
        query = query.filter(variant=filters.variant)
    if filters.size:
        query = query.filter(size=filters.size)
    if filters.budget:
        query = query.filter(noise_budget=filters.budget)
    if filters.source:
        query = query.filter(source=filters.source)
    return {cohort.pk: cohort for cohort in query}


def _days(filters: Filters) -> Q:
    if not filters.dated:
        return Q(day=ALL_TIME)
    days = Q(day__gt=ALL_TIME)
    if filters.date_from:
        days &= Q(day__gte=filters.date_from)
    if filters.date_to:
        days &= Q(day__lte=filters.date_to)
    return days


def _daily_days(filters: Filters) -> Q:
    """The day rows of the range, or all of them: for plots over time."""
    return _days(filters) if filters.dated else Q(day__gt=ALL_TIME)


def cohort_label(cohort: Cohort) -> str:
    variant = "" if cohort.variant == "z10" else f" {cohort.variant}"
    return f"{cohort.source} L={cohort.size} b={cohort.noise_budget:g}{variant}"


def _cohort_fields(cohort: Cohort) -> dict[str, Any]:
    return {
        "variant": cohort.variant,
        "size": cohort.size,
        "noise_budget": cohort.noise_budget,
        "source": cohort.source,
        "label": cohort_label(cohort),
    }


def _cohort_columns(cohort: Cohort) -> list[Any]:
    return [cohort.variant, cohort.size, cohort.noise_budget, cohort.source]


COHORT_COLUMNS = ["variant", "size", "noise_budget", "source"]


def cohort_histograms(*, filters: Filters) -> tuple[dict[int, Cohort], dict[int, Histogram]]:
    """Every matching cohort with games, and its lifetime histogram."""
    cohorts = cohorts_matching(filters=filters)
    rows = (
        LifetimeCount.objects.filter(_days(filters), cohort_id__in=cohorts)
        .values("cohort_id", "rounds")
        .annotate(lost_sum=Sum("lost"), censored_sum=Sum("censored"))
    )
    grouped: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for row in rows:
        grouped[row["cohort_id"]].append((row["rounds"], row["lost_sum"], row["censored_sum"]))
    histograms = {key: merge_histograms(values) for key, values in grouped.items()}
    ordered = sorted(histograms, key=lambda key: _sort_key(cohorts[key]))
    return {key: cohorts[key] for key in ordered}, {key: histograms[key] for key in ordered}


def _sort_key(cohort: Cohort) -> tuple:
    return (cohort.source != HUMAN, cohort.source, cohort.variant, cohort.size, cohort.noise_budget)


# -- the player's own games -------------------------------------------------------------


def player_games(*, player: Player | None, filters: Filters) -> list[dict[str, Any]]:
    """The player's most recent finished games that fall under the filters."""
    if player is None:
        return []
    query = Game.objects.filter(player=player, ended_at__isnull=False).exclude(
        mode=Game.Mode.PRACTICE
    )
    if filters.variant:
        query = query.filter(variant=filters.variant)
    if filters.size:
        query = query.filter(size=filters.size)
    if filters.budget:
        query = query.filter(noise_budget=filters.budget)
    if filters.source and filters.source != HUMAN:
        return []
    if filters.date_from:
        query = query.filter(ended_at__date__gte=filters.date_from)
    if filters.date_to:
        query = query.filter(ended_at__date__lte=filters.date_to)
    return list(
        query.order_by("-ended_at").values(
            "variant", "size", "noise_budget", "rounds", "score", "status", "ended_at"
        )[:MY_GAMES_LIMIT]
    )


def _mine(
    games: list[dict[str, Any]], cohorts: dict[int, Cohort], histograms: dict[int, Histogram]
) -> list[dict[str, Any]]:
    """Each of the player's games with its percentile among the human games of its rule set."""
    by_rules = {
        (c.variant, c.size, c.noise_budget): key for key, c in cohorts.items() if c.source == HUMAN
    }
    marked = []
    for game in games:
        key = by_rules.get((game["variant"], game["size"], float(game["noise_budget"])))
        histogram = histograms.get(key) if key is not None else None
        marked.append(
            {
                "label": f"{HUMAN} L={game['size']} b={game['noise_budget']:g}"
                + ("" if game["variant"] == "z10" else f" {game['variant']}"),
                "rounds": game["rounds"],
                "score": game["score"],
                "lost": game["status"] == Game.Status.LOST,
                "ended_at": game["ended_at"].isoformat(),
                "percentile": _number(percentile_of(histogram, game["rounds"]), 1)
                if histogram
                else None,
            }
        )
    return marked


# -- 1. survival --------------------------------------------------------------------------


def plot_survival(*, filters: Filters) -> Plot:
    cohorts, histograms = cohort_histograms(filters=filters)
    curves = {key: kaplan_meier_counts(histogram) for key, histogram in histograms.items()}
    return Plot(
        games=sum(games_in(h) for h in histograms.values()),
        data={
            "curves": [
                {
                    **_cohort_fields(cohorts[key]),
                    "games": games_in(histograms[key]),
                    "rounds": [r.time for r in km],
                    "survival": _finite(r.survival for r in km),
                    "lower": _finite(r.lower95 for r in km),
                    "upper": _finite(r.upper95 for r in km),
                    "at_risk": [r.at_risk for r in km],
                }
                for key, km in curves.items()
            ],
        },
        columns=[*COHORT_COLUMNS, "round", "at_risk", "lost", "censored", "survival",
                 "lower95", "upper95"],
        rows=lambda: [
            [*_cohort_columns(cohorts[key]), r.time, r.at_risk, r.events, r.censored,
             _number(r.survival), _number(r.lower95), _number(r.upper95)]
            for key, km in curves.items()
            for r in km
        ],
    )


# -- 2. hazard ------------------------------------------------------------------------------


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
            "hazard": _number(plateau.hazard),
            "lower": _number(plateau.lower95),
            "upper": _number(plateau.upper95),
            "lost": plateau.lost,
            "exposure": plateau.exposure,
        }

    def rows() -> list[list[Any]]:
        table = []
        for key, (hazard, plateau) in curves.items():
            for r in hazard:
                inside = plateau is not None and plateau.start_round <= r.round <= plateau.end_round
                table.append(
                    [*_cohort_columns(cohorts[key]), r.round, r.at_risk, r.lost,
                     _number(r.hazard), _number(r.lower95), _number(r.upper95),
                     _number(plateau.hazard) if inside else None]
                )
        return table

    return Plot(
        games=sum(games_in(h) for h in histograms.values()),
        data={
            "curves": [
                {
                    **_cohort_fields(cohorts[key]),
                    "games": games_in(histograms[key]),
                    "rounds": [r.round for r in hazard],
                    "hazard": _finite(r.hazard for r in hazard),
                    "lower": _finite(r.lower95 for r in hazard),
                    "upper": _finite(r.upper95 for r in hazard),
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


# -- 3. threshold -----------------------------------------------------------------------------


def plot_threshold(*, filters: Filters) -> Plot:
    """The latest finished sweep's points and thresholds, with the human games beside them."""
    from results.selectors import sweep_latest_done, sweep_points, sweep_thresholds

    sweep = sweep_latest_done()
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
                {"source": point.bot_name, "size": point.size,
                 "label": f"{point.bot_name} L={point.size}", "budgets": [], "mean": [],
                 "lower": [], "upper": [], "plateau": [], "games": []},
            )
            entry["budgets"].append(point.noise_budget)
            entry["mean"].append(_number(point.mean_rounds))
            entry["lower"].append(_number(point.mean_ci_low))
            entry["upper"].append(_number(point.mean_ci_high))
            entry["plateau"].append(_number(point.plateau_hazard))
            entry["games"].append(point.games_done)
            games += point.games_done
            rows.append(
                ["sweep", point.bot_name, point.size, point.noise_budget, point.games_done,
                 _number(point.mean_rounds), _number(point.mean_ci_low),
                 _number(point.mean_ci_high), _number(point.plateau_hazard),
                 _number(point.plateau_ci_low), _number(point.plateau_ci_high)]
            )
        for threshold in sweep_thresholds(sweep=sweep):
            if filters.source and threshold.bot_name != filters.source:
                continue
            thresholds.append(
                {"bot": threshold.bot_name, "budget": _number(threshold.threshold_budget),
                 "lower": _number(threshold.ci_low), "upper": _number(threshold.ci_high),
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
            cohort = cohorts[key]
            humans.append(
                {**_cohort_fields(cohort), "games": summary.games, "mean": _number(summary.mean),
                 "lower": _number(summary.mean_lower), "upper": _number(summary.mean_upper)}
            )
            games += summary.games
            rows.append(
                ["games", HUMAN, cohort.size, cohort.noise_budget, summary.games,
                 _number(summary.mean), _number(summary.mean_lower), _number(summary.mean_upper),
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


# -- 4. lifetime against L ------------------------------------------------------------------


def plot_lifetime_by_size(*, filters: Filters) -> Plot:
    cohorts, histograms = cohort_histograms(filters=filters)
    series: dict[tuple[str, str, float], dict[str, Any]] = {}
    rows = []
    for key, histogram in histograms.items():
        cohort = cohorts[key]
        summary = lifetime_counts(histogram)
        variant = "" if cohort.variant == "z10" else f" {cohort.variant}"
        entry = series.setdefault(
            (cohort.source, cohort.variant, cohort.noise_budget),
            {"source": cohort.source, "variant": cohort.variant,
             "noise_budget": cohort.noise_budget,
             "label": f"{cohort.source} b={cohort.noise_budget:g}{variant}",
             "sizes": [], "mean": [], "lower": [], "upper": [], "median": [], "games": []},
        )
        entry["sizes"].append(cohort.size)
        entry["mean"].append(_number(summary.mean))
        entry["lower"].append(_number(summary.mean_lower))
        entry["upper"].append(_number(summary.mean_upper))
        entry["median"].append(summary.median)
        entry["games"].append(summary.games)
        rows.append(
            [*_cohort_columns(cohort), summary.games, summary.losses, _number(summary.mean),
             _number(summary.mean_lower), _number(summary.mean_upper), summary.median,
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


# -- 5. realized noise ------------------------------------------------------------------------


def _analysed_games(cohorts: Iterable[int], days: Q) -> int:
    total = AnalysisCount.objects.filter(days, cohort_id__in=cohorts).aggregate(n=Sum("games"))
    return total["n"] or 0


def plot_noise(*, filters: Filters) -> Plot:
    cohorts = cohorts_matching(filters=filters)
    days = _days(filters)
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
            entry[name].append(_number(row[total] / games))
        entry["total_errors"] += row["errors_sum"]
        entry["total_new"] += row["new_sum"]
        entry["total_light"] += row["light_sum"]
        entry["game_rounds"] += games
        rows.append([source, row["round"], games, row["errors_sum"], row["new_sum"],
                     row["light_sum"], _number(row["errors_sum"] / games),
                     _number(row["new_sum"] / games), _number(row["light_sum"] / games)])
    for entry in series.values():
        rounds = entry["game_rounds"]
        entry["mean_errors"] = _number(entry.pop("total_errors") / rounds)
        entry["mean_new_numbers"] = _number(entry.pop("total_new") / rounds)
        entry["mean_light_errors"] = _number(entry.pop("total_light") / rounds)
    ordered = sorted(series.values(), key=lambda s: (s["source"] != HUMAN, s["source"]))
    return Plot(
        games=_analysed_games(cohorts, days),
        data={"series": ordered},
        columns=["source", "round", "games", "errors", "new_numbers", "light_errors",
                 "errors_per_game", "new_numbers_per_game", "light_errors_per_game"],
        rows=rows,
    )


# -- 6. strategies and agreement ----------------------------------------------------------------


def plot_strategy(*, filters: Filters) -> Plot:
    """The move classes of players' moves per day, and how often a bot would have played them."""
    def for_source(source: str) -> dict[int, Cohort]:
        return cohorts_matching(filters=Filters(
            variant=filters.variant, size=filters.size, budget=filters.budget, source=source,
            date_from=filters.date_from, date_to=filters.date_to,
        ))

    source = filters.source or HUMAN
    cohorts = for_source(source)
    stand_in = False
    if filters.source is None and not StrategyCount.objects.filter(
        _daily_days(filters), cohort_id__in=cohorts
    ).exists():
        # No analysed player moves yet (a fresh site): show a bot's, and say so.
        first = (
            StrategyCount.objects.filter(
                _daily_days(filters), cohort_id__in=cohorts_matching(filters=filters)
            )
            .exclude(cohort__source=HUMAN)
            .order_by("cohort__source")
            .values_list("cohort__source", flat=True)
            .first()
        )
        if first is not None:
            source, cohorts, stand_in = first, for_source(first), True
    per_day = (
        StrategyCount.objects.filter(_daily_days(filters), cohort_id__in=cohorts)
        .values("day", "move_class")
        .annotate(moves_sum=Sum("moves"))
        .order_by("day", "move_class")
    )
    days: dict[datetime.date, dict[str, int]] = defaultdict(dict)
    classes: set[str] = set()
    for row in per_day:
        days[row["day"]][row["move_class"]] = row["moves_sum"]
        classes.add(row["move_class"])
    ordered_classes = sorted(classes)
    rows = []
    shares: dict[str, list[float | None]] = {name: [] for name in ordered_classes}
    for day, counts in sorted(days.items()):
        total = sum(counts.values())
        for name in ordered_classes:
            shares[name].append(_number(counts.get(name, 0) / total))
            rows.append(["strategy", day.isoformat(), name, counts.get(name, 0), total,
                         None, None, None, None])
    agreement_rows = (
        AgreementCount.objects.filter(_days(filters), cohort_id__in=cohorts)
        .values("bot_name")
        .annotate(compared_sum=Sum("compared"), top1_sum=Sum("top1"), top3_sum=Sum("top3"))
        .order_by("bot_name")
    )
    agreements = []
    for row in agreement_rows:
        compared = row["compared_sum"]
        top1_low, top1_high = wilson_interval(row["top1_sum"], compared)
        top3_low, top3_high = wilson_interval(row["top3_sum"], compared)
        agreements.append(
            {"bot": row["bot_name"], "compared": compared,
             "top1": row["top1_sum"], "top3": row["top3_sum"],
             "top1_rate": _number(row["top1_sum"] / compared) if compared else None,
             "top1_lower": _number(top1_low), "top1_upper": _number(top1_high),
             "top3_rate": _number(row["top3_sum"] / compared) if compared else None,
             "top3_lower": _number(top3_low), "top3_upper": _number(top3_high)}
        )
        rows.append(["agreement", None, row["bot_name"], row["top1_sum"], compared,
                     row["top3_sum"], _number(row["top1_sum"] / compared) if compared else None,
                     _number(row["top3_sum"] / compared) if compared else None, None])
    return Plot(
        games=_analysed_games(cohorts, _days(filters)),
        data={
            "source": source,
            "stand_in": stand_in,
            "days": [day.isoformat() for day in sorted(days)],
            "classes": ordered_classes,
            "shares": shares,
            "agreements": agreements,
        },
        columns=["table", "day", "move_class_or_bot", "moves_or_top1", "total_moves_or_compared",
                 "top3", "top1_rate", "top3_rate", "unused"],
        rows=rows,
    )


# -- 7. activity ---------------------------------------------------------------------------------


def _human(cohorts: dict[int, Cohort]) -> list[int]:
    return [key for key, cohort in cohorts.items() if cohort.source == HUMAN]


def _leaderboard_entry(row: dict[str, Any], cohort: Cohort, games: int) -> dict[str, Any]:
    return {
        "player": pseudonym(row["player_id"]),
        "best_score": row["best_score"],
        "best_rounds": row["best_rounds"],
        "rule_set": cohort_label(cohort),
        "games": games,
    }


def leaderboard(
    *, cohorts: dict[int, Cohort], filters: Filters, size: int = LEADERBOARD_SIZE
) -> list[dict]:
    """The best human players of these cohorts by best score, as pseudonyms.

    All time it reads each player's best per cohort; over a date range, each
    player's best per cohort and day within it. A player's games are counted
    across the cohorts; the rule set shown is the one of their best score.
    """
    human = _human(cohorts)
    if filters.dated:
        rows = PlayerDay.objects.filter(_days(filters), cohort_id__in=human)
    else:
        rows = PlayerBest.objects.filter(cohort_id__in=human)
    top = list(
        rows.values("player_id")
        .annotate(top_score=Max("best_score"), games_sum=Sum("games"))
        .order_by("-top_score", "player_id")[:size]
    )
    games = {row["player_id"]: row["games_sum"] for row in top}
    best: dict[Any, dict[str, Any]] = {}
    for row in (
        rows.filter(player_id__in=games)
        .order_by("-best_score", "-best_rounds", "cohort_id")
        .values("player_id", "cohort_id", "best_score", "best_rounds")
    ):
        if row["player_id"] not in best:
            best[row["player_id"]] = _leaderboard_entry(
                row, cohorts[row["cohort_id"]], games[row["player_id"]]
            )
    return [best[row["player_id"]] for row in top]


def _players_per_day(*, cohorts: dict[int, Cohort], filters: Filters) -> dict[datetime.date, int]:
    """Distinct human players on each day of the range, whatever rule sets they played."""
    return dict(
        PlayerDay.objects.filter(_daily_days(filters), cohort_id__in=_human(cohorts))
        .values("day")
        .annotate(players=Count("player_id", distinct=True))
        .values_list("day", "players")
    )


def _new_players_per_day(
    *, cohorts: dict[int, Cohort], filters: Filters
) -> dict[datetime.date, int]:
    """Players whose first game in these cohorts ended on each day of the range."""
    firsts = Counter(
        PlayerBest.objects.filter(cohort_id__in=_human(cohorts))
        .values("player_id")
        .annotate(first=Min("first_day"))
        .values_list("first", flat=True)
    )
    return {
        day: count for day, count in firsts.items()
        if (filters.date_from is None or day >= filters.date_from)
        and (filters.date_to is None or day <= filters.date_to)
    }


def plot_activity(*, filters: Filters) -> Plot:
    cohorts = cohorts_matching(filters=filters)
    per_day = (
        DailyCount.objects.filter(_daily_days(filters), cohort_id__in=cohorts)
        .values("day", "cohort__source")
        .annotate(games_sum=Sum("games"), moves_sum=Sum("moves"))
        .order_by("day")
    )
    days: dict[datetime.date, dict[str, int]] = defaultdict(
        lambda: {"human_games": 0, "bot_games": 0, "moves": 0, "players": 0, "new_players": 0}
    )
    for row in per_day:
        entry = days[row["day"]]
        entry["human_games" if row["cohort__source"] == HUMAN else "bot_games"] += row["games_sum"]
        entry["moves"] += row["moves_sum"]
    for day, players in _players_per_day(cohorts=cohorts, filters=filters).items():
        days[day]["players"] = players
    for day, players in _new_players_per_day(cohorts=cohorts, filters=filters).items():
        days[day]["new_players"] = players
    ordered = sorted(days)
    names = ("human_games", "bot_games", "moves", "players", "new_players")
    data: dict[str, Any] = {"days": [day.isoformat() for day in ordered]}
    for name in names:
        data[name] = [days[day][name] for day in ordered]
    data["leaderboard"] = leaderboard(cohorts=cohorts, filters=filters)
    return Plot(
        games=sum(data["human_games"]) + sum(data["bot_games"]),
        data=data,
        columns=["day", *names],
        rows=[[day.isoformat(), *(days[day][name] for name in names)] for day in ordered],
    )


PLOTS: dict[str, Callable[..., Plot]] = {
    "survival": plot_survival,
    "hazard": plot_hazard,
    "threshold": plot_threshold,
    "lifetime": plot_lifetime_by_size,
    "noise": plot_noise,
    "strategy": plot_strategy,
    "activity": plot_activity,
}


# -- cached output ----------------------------------------------------------------------------

# Plot output is cached until the aggregates change; sweeps do not touch the
# watermarks, so entries also expire after a minute.
CACHE_SECONDS = 60


def aggregates_version() -> str:
    """Changes whenever a refresh or a rebuild runs: part of every cache key."""
    marks = Watermark.objects.order_by("name").values_list("name", "updated_at")
    return "|".join(f"{name}:{when.isoformat() if when else ''}" for name, when in marks)


def _cached(kind: str, filters: Filters, build: Callable[[], Any]) -> Any:
    text = f"{kind}|{sorted(filters.as_query().items())}|{aggregates_version()}"
    key = "dashboard:" + hashlib.sha256(text.encode()).hexdigest()
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, CACHE_SECONDS)
    return value


def plot_json(*, name: str, filters: Filters) -> bytes:
    """A plot's JSON document, encoded once per change of the aggregates."""

    def build() -> bytes:
        plot = PLOTS[name](filters=filters)
        body = {"plot": name, "filters": filters.as_query(), "games": plot.games, **plot.data}
        return json.dumps(body, separators=(",", ":")).encode()

    return _cached(f"json:{name}", filters, build)


def plot_csv(*, name: str, filters: Filters) -> str:
    """A plot's numbers as CSV text, with a header row."""

    def build() -> str:
        plot = PLOTS[name](filters=filters)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(plot.columns)
        writer.writerows(
            ["" if value is None else value for value in row] for row in plot.csv_rows()
        )
        return buffer.getvalue()

    return _cached(f"csv:{name}", filters, build)


def player_marks(*, player: Player | None, filters: Filters) -> dict[str, Any]:
    """The player's own games under the filters, each with its percentile among players'."""
    games = player_games(player=player, filters=filters)
    if not games:
        return {"games": []}
    cohorts, histograms = _cached(
        "histograms", filters, lambda: cohort_histograms(filters=filters)
    )
    return {"games": _mine(games, cohorts, histograms)}


# -- the page ------------------------------------------------------------------------------------


def filter_choices() -> dict[str, list]:
    """What the filter menus offer: the values present in the cohorts."""
    cohorts = list(Cohort.objects.all())
    return {
        "variants": sorted({c.variant for c in cohorts}),
        "sizes": sorted({c.size for c in cohorts}),
        "budgets": sorted({c.noise_budget for c in cohorts}),
        "sources": sorted({c.source for c in cohorts}, key=lambda s: (s != HUMAN, s)),
    }


def demo_data() -> DemoData | None:
    return DemoData.objects.filter(pk=1).first()
