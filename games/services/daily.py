"""Writes of the daily challenge and the daily planar board: the day's row and a player's game."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction

from games.daily import DAILY_PLANAR_RULES, daily_planar_seed, daily_seed, today
from games.engine import DEFAULT_RULES
from games.errors import InvalidInput
from games.models import DailyChallenge, Game, Player
from games.rulesets import rules_columns
from games.services.play import game_start


def daily_challenge_get_or_create(*, day: date) -> DailyChallenge:
    """The challenge of ``day`` (made on first use): the original rules and the day's seed."""
    challenge, _created = DailyChallenge.objects.get_or_create(
        date=day, defaults={"seed": daily_seed(day=day), **rules_columns(DEFAULT_RULES)}
    )
    return challenge


@transaction.atomic
def daily_start(
    *,
    player: Player,
    source: str = Game.Source.API,
    client_info: Mapping[str, Any] | None = None,
) -> Game:
    """Start ``player``'s game of today's (UTC) challenge.

    Each player plays a day's challenge once: a second attempt raises
    ``DailyAlreadyPlayed`` (409, carrying the id of their game) and stores
    nothing.
    """
    if source == Game.Source.BOT:
        raise InvalidInput("bots play a day's challenge only once the day is over")
    challenge = daily_challenge_get_or_create(day=today())
    return game_start(
        player=player,
        rules=challenge.rules,
        source=source,
        client_info=client_info,
        daily=challenge,
    )


def daily_planar_get_or_create(*, day: date) -> DailyChallenge:
    """The planar board of ``day`` (made on first use): ``DAILY_PLANAR_RULES``, the day's seed."""
    board, _created = DailyChallenge.planar.get_or_create(
        date=day,
        defaults={"seed": daily_planar_seed(day=day), **rules_columns(DAILY_PLANAR_RULES)},
    )
    return board


@transaction.atomic
def daily_planar_start(
    *,
    player: Player,
    source: str = Game.Source.WEB,
    client_info: Mapping[str, Any] | None = None,
) -> Game:
    """Start ``player``'s game of today's (UTC) planar board.

    The same board for everyone that day (its seed stays hidden until the day
    is over); each player plays it once: a second attempt raises
    ``DailyAlreadyPlayed`` with the id of their game. The original daily
    challenge is a separate row: playing one does not use up the other.
    """
    if source == Game.Source.BOT:
        raise InvalidInput("bots do not play the daily planar board")
    board = daily_planar_get_or_create(day=today())
    return game_start(
        player=player,
        rules=board.rules,
        source=source,
        client_info=client_info,
        daily=board,
    )
