"""Writes of the daily challenge: the day's challenge row and a player's attempt at it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction

from games.daily import daily_seed, today
from games.engine import ORIGINAL
from games.errors import InvalidInput
from games.models import DailyChallenge, Game, Player
from games.rulesets import rules_columns
from games.services.play import game_start


def daily_challenge_get_or_create(*, day: date) -> DailyChallenge:
    """The challenge of ``day`` (made on first use): the original rules and the day's seed."""
    challenge, _created = DailyChallenge.objects.get_or_create(
        date=day, defaults={"seed": daily_seed(day=day), **rules_columns(ORIGINAL)}
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
