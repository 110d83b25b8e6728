"""The session player's own games, marked on the plots with their percentiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.models import Game, Player
from games.rulesets import RULE_GROUP_FIELDS, RuleGroup, rule_group

from ..filters import Filters
from ..models import HUMAN, Cohort
from ..stats import Histogram, percentile_of
from .cohorts import cohort_histograms, rules_lookups, rules_note
from .output import cached
from .plot import number

MY_GAMES_LIMIT = 200  # a player's most recent games marked on the plots


def player_games(*, player: Player | None, filters: Filters) -> Sequence[Mapping[str, Any]]:
    """The player's most recent finished games that fall under the filters."""
    if player is None:
        return []
    query = Game.objects.filter(
        player=player, ended_at__isnull=False, **rules_lookups(filters)
    ).exclude(mode=Game.Mode.PRACTICE)
    if filters.source and filters.source != HUMAN:
        return []
    if filters.date_from:
        query = query.filter(ended_at__date__gte=filters.date_from)
    if filters.date_to:
        query = query.filter(ended_at__date__lte=filters.date_to)
    return list(
        query.order_by("-ended_at").values(
            *RULE_GROUP_FIELDS, "rounds", "score", "status", "ended_at"
        )[:MY_GAMES_LIMIT]
    )


def _mine(
    games: Sequence[Mapping[str, Any]], cohorts: dict[int, Cohort],
    histograms: dict[int, Histogram],
) -> list[dict[str, Any]]:
    """Each of the player's games with its percentile among the human games of its rule set."""
    by_rules = {rule_group(c): key for key, c in cohorts.items() if c.source == HUMAN}
    marked = []
    for game in games:
        key = by_rules.get(RuleGroup(**{name: game[name] for name in RULE_GROUP_FIELDS}))
        histogram = histograms.get(key) if key is not None else None
        note = rules_note(variant=game["variant"], moves_per_round=game["moves_per_round"])
        marked.append(
            {
                "label": f"{HUMAN} L={game['size']} b={game['noise_budget']:g}{note}",
                "rounds": game["rounds"],
                "score": game["score"],
                "lost": game["status"] == Game.Status.LOST,
                "ended_at": game["ended_at"].isoformat(),
                "percentile": number(percentile_of(histogram, game["rounds"]), 1)
                if histogram
                else None,
            }
        )
    return marked



def player_marks(*, player: Player | None, filters: Filters) -> dict[str, Any]:
    """The player's own games under the filters, each with its percentile among players'."""
    games = player_games(player=player, filters=filters)
    consent = player is not None and player.research_consent
    if not games:
        return {"games": [], "research_consent": consent}
    cohorts, histograms = cached(
        "histograms", filters, lambda: cohort_histograms(filters=filters)
    )
    return {"games": _mine(games, cohorts, histograms), "research_consent": consent}

