"""The results app's answers to the games app's signals (connected in ``ResultsConfig.ready``)."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from games.models import Game
from results.services import analysis_enqueue, daily_bots_enqueue_pending
from results.services.comparison import comparable_games, comparison_enqueue

logger = logging.getLogger(__name__)


def queue_analysis(*, game_id: uuid.UUID, **kwargs: Any) -> None:
    """A game has ended (``games.signals.game_finished``): queue its analysis.

    The game is already stored, so nothing may fail from here: if the broker
    cannot be reached (or, without a broker, the analysis fails) the error is
    logged, and the periodic sweep ``results.analyse_pending`` queues the
    analysis later.
    """
    try:
        analysis_enqueue(game_id=game_id)
    except Exception:
        logger.warning(
            "could not queue the analysis of game %s; the periodic sweep will", game_id,
            exc_info=True,
        )


def queue_daily_bots(*, game_id: uuid.UUID, **kwargs: Any) -> None:
    """A person's daily-challenge game has ended: queue the bots of the days now closed.

    Days close at midnight UTC; the first daily game to end after that queues
    the bots of the closed days that have none (beat's ``results.daily_bots_pending``
    does the same every hour on the full stack). Failures are logged only.
    """
    try:
        if Game.objects.human().daily_challenge().filter(pk=game_id).exists():
            daily_bots_enqueue_pending()
    except Exception:
        logger.warning("could not queue the bots of closed daily challenges", exc_info=True)


def queue_decoders(*, game_id: uuid.UUID, **kwargs: Any) -> None:
    """A person's planar game has ended: queue the planar decoders on the same board.

    Only a person's ended planar game (web page or API; cleaned or abandoned) is played again; the
    decoders' own games end here too and are left alone. Failures are logged
    only (beat's ``results.decoders_pending`` queues what was missed).
    """
    try:
        if comparable_games().filter(pk=game_id).exists():
            comparison_enqueue(game_id=game_id)
    except Exception:
        logger.warning(
            "could not queue the decoders on the board of game %s", game_id, exc_info=True
        )
