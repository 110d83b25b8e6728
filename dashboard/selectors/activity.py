"""The activity plot: games, moves and players per day, and the leaderboard."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from django.db.models import Count, Max, Min, QuerySet, Sum

from games.selectors import display_names, player_label

from ..filters import Filters
from ..models import HUMAN, Cohort, DailyCount, PlayerBest, PlayerDay
from .cohorts import cohort_label, cohorts_matching, daily_days, days_of
from .plot import Plot, PlotSpec

LEADERBOARD_SIZE = 10


def _human(cohorts: dict[int, Cohort]) -> list[int]:
    return [key for key, cohort in cohorts.items() if cohort.source == HUMAN]


def _leaderboard_entry(
    row: Mapping[str, Any], cohort: Cohort, games: int, name: str | None
) -> dict[str, Any]:
    return {
        "player": player_label(player_id=row["player_id"], display_name=name),
        "best_score": row["best_score"],
        "best_rounds": row["best_rounds"],
        "rule_set": cohort_label(cohort),
        "games": games,
    }


def leaderboard(
    *, cohorts: dict[int, Cohort], filters: Filters, size: int = LEADERBOARD_SIZE
) -> list[dict]:
    """The best human players of these cohorts by best score, by display name or pseudonym.

    All time it reads each player's best per cohort; over a date range, each
    player's best per cohort and day within it. A player's games are counted
    across the cohorts; the rule set shown is the one of their best score.
    """
    human = _human(cohorts)
    rows: QuerySet[Any, Any]
    if filters.dated:
        rows = PlayerDay.objects.filter(days_of(filters), cohort_id__in=human)
    else:
        rows = PlayerBest.objects.filter(cohort_id__in=human)
    top = list(
        rows.values("player_id")
        .annotate(top_score=Max("best_score"), games_sum=Sum("games"))
        .order_by("-top_score", "player_id")[:size]
    )
    games = {row["player_id"]: row["games_sum"] for row in top}
    names = display_names(player_ids=list(games))
    best: dict[Any, dict[str, Any]] = {}
    for row in (
        rows.filter(player_id__in=games)
        .order_by("-best_score", "-best_rounds", "cohort_id")
        .values("player_id", "cohort_id", "best_score", "best_rounds")
    ):
        if row["player_id"] not in best:
            best[row["player_id"]] = _leaderboard_entry(
                row, cohorts[row["cohort_id"]], games[row["player_id"]],
                names.get(row["player_id"]),
            )
    return [best[row["player_id"]] for row in top]


def _players_per_day(*, cohorts: dict[int, Cohort], filters: Filters) -> dict[datetime.date, int]:
    """Distinct human players on each day of the range, whatever rule sets they played."""
    return dict(
        PlayerDay.objects.filter(daily_days(filters), cohort_id__in=_human(cohorts))
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
        DailyCount.objects.filter(daily_days(filters), cohort_id__in=cohorts)
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


PLOT = PlotSpec(
    name="activity",
    title="Activity",
    explanation=(
        "Games, moves and players per day, and the best players by score (by display name, "
        "else pseudonym)."
    ),
    select=plot_activity,
)
