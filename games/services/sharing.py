"""Writes about sharing a finished game: making its public replay link, and taking it back.

A shared game gets an unguessable token (128 random bits); the public replay
page and its image are found by that token alone, so the link names neither
the player nor the game's id. Only a finished game can be shared, and only by
its player.
"""

from __future__ import annotations

import secrets
import uuid

from django.db import transaction
from django.utils import timezone

from games.daily import day_is_open
from games.errors import DailyDayOpen, GameNotFinished, NotFound
from games.models import Game, Player

SHARE_TOKEN_BYTES = 16  # 22 URL-safe characters


def new_share_token() -> str:
    return secrets.token_urlsafe(SHARE_TOKEN_BYTES)


def _locked_game(*, game_id: uuid.UUID, player: Player) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id, player=player).first()
    if game is None:
        raise NotFound("No such game.")
    return game


@transaction.atomic
def game_share(*, game_id: uuid.UUID, player: Player) -> Game:
    """Make ``player``'s finished game public under a new share token.

    Sharing a game that is already shared keeps its token (the link already
    given out keeps working). An active game cannot be shared
    (``GameNotFinished``): its board would reveal what the player is hiding.
    Nor can a daily-challenge game while its day is open (``DailyDayOpen``):
    its replay shows the noise everyone else is about to meet.
    """
    game = _locked_game(game_id=game_id, player=player)
    if game.is_active:
        raise GameNotFinished(
            "Only a finished game can be shared; this one is still being played.",
            current_step=game.moves_count,
        )
    if game.daily is not None and day_is_open(day=game.daily.date):
        raise DailyDayOpen(
            "A daily-challenge game can be shared once its day is over (midnight UTC): "
            "its replay shows the noise the other players are about to meet."
        )
    if game.share_token is None:
        game.share_token = new_share_token()
        game.shared_at = timezone.now()
        game.save(update_fields=["share_token", "shared_at"])
    return game


@transaction.atomic
def game_unshare(*, game_id: uuid.UUID, player: Player) -> Game:
    """Take back the public link of ``player``'s game; the old link stops working for good.

    Unsharing a game that is not shared changes nothing. Sharing it again
    later makes a new token.
    """
    game = _locked_game(game_id=game_id, player=player)
    if game.share_token is not None:
        game.share_token = None
        game.shared_at = None
        game.save(update_fields=["share_token", "shared_at"])
    return game
