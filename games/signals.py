"""What the games app tells the apps built on it, without knowing them.

The games app imports nothing from the apps that build on it (results,
research, dashboard). When it has news for them it sends a signal, and each
app that cares connects a receiver in its ``AppConfig.ready``.

``game_finished`` is sent once per game, after the commit of the
transaction that ended it: a game that was lost or abandoned, or a save file
that was uploaded (it arrives finished). Its only argument is ``game_id``. A
receiver runs after the commit, so it never sees a game that was rolled back,
and it cannot fail the request: an exception it raises is logged and the
other receivers still run. The results app queues the game's analysis here.
"""

from __future__ import annotations

import logging
import uuid

from django.db import transaction
from django.dispatch import Signal

from games.models import Game

logger = logging.getLogger(__name__)

game_finished = Signal()
"""Sent with ``game_id`` after the commit that ended the game."""


def on_game_finished(*, game: Game) -> None:
    """Called inside the transaction that ends a game: sends ``game_finished`` after it commits."""
    game_id = game.pk
    transaction.on_commit(lambda: send_game_finished(game_id=game_id))


def send_game_finished(*, game_id: uuid.UUID) -> None:
    """Tell every receiver that game ``game_id`` has ended; a failing receiver is only logged."""
    for receiver, outcome in game_finished.send_robust(sender=Game, game_id=game_id):
        if isinstance(outcome, Exception):
            logger.warning(
                "a receiver of game_finished failed for game %s: %r", game_id, receiver,
                exc_info=outcome,
            )
