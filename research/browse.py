"""Browsing the research games: the games a researcher may list, filter and open.

Only research data is listed (``Game.objects.research_data()``: consent for a
human game, no curator exclusion, not a practice game), finished games only,
as in the exports; a game played without research consent never appears.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from core.pseudonyms import player_ids_with_pseudonym
from games.models import Game

GAMES_PER_PAGE = 25


@dataclass(frozen=True, slots=True)
class BrowseFilters:
    """What the browse form asks for; every field optional."""

    player: str = ""  # a pseudonym, as in the exports
    rules: str = ""  # a rule set's key, as the exports' rules_key column
    ended_from: datetime.date | None = None
    ended_to: datetime.date | None = None
    score_min: int | None = None
    score_max: int | None = None


def browsable_games() -> QuerySet[Game]:
    """Every game the page may list: finished research data."""
    return Game.objects.research_data().finished()


def rule_sets() -> list[str]:
    """The rule sets of the games that may be listed, for the form's menu."""
    keys = browsable_games().order_by("rules_key").values_list("rules_key", flat=True)
    return list(keys.distinct())


def browse_games(*, filters: BrowseFilters) -> QuerySet[Game]:
    """The listed games under ``filters``, the latest first."""
    games = browsable_games()
    if filters.player:
        player_ids = games.order_by().values_list("player_id", flat=True).distinct()
        games = games.filter(
            player_id__in=player_ids_with_pseudonym(
                pseudonym_text=filters.player, player_ids=player_ids.iterator()
            )
        )
    if filters.rules:
        games = games.filter(rules_key=filters.rules)
    if filters.ended_from is not None:
        games = games.filter(ended_at__date__gte=filters.ended_from)
    if filters.ended_to is not None:
        games = games.filter(ended_at__date__lte=filters.ended_to)
    if filters.score_min is not None:
        games = games.filter(score__gte=filters.score_min)
    if filters.score_max is not None:
        games = games.filter(score__lte=filters.score_max)
    return games.order_by("-ended_at", "-id")


def browse_page(*, filters: BrowseFilters, page: str | int | None) -> Page:
    """One page of :func:`browse_games` (a page number out of range gives the nearest page)."""
    return Paginator(browse_games(filters=filters), GAMES_PER_PAGE).get_page(page)
