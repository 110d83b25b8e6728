"""Queueing analyses: one game, or every finished game still without a current analysis."""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from django.utils import timezone

from core.tasks import enqueue
from results.selectors import games_needing_analysis

logger = logging.getLogger(__name__)

PENDING_BATCH = 500
# Games that ended this recently were queued by the hook that ended them and
# are probably being analysed: the periodic sweep leaves them to it.
PENDING_GRACE = timedelta(minutes=2)


def analysis_enqueue(*, game_id: uuid.UUID | str) -> None:
    """Queue the analysis of one game (run here and now when there is no broker)."""
    enqueue("results.analyse_game", str(game_id), retry=False)


def analysis_enqueue_pending(
    *, limit: int = PENDING_BATCH, grace: timedelta = PENDING_GRACE
) -> int:
    """Queue the analysis of finished games that have none (or an outdated one).

    This is what makes a lost broker message harmless: a game whose analysis
    was never queued, or whose task was dropped, is found here and queued
    again. Queuing a game twice is harmless too (the analysis is idempotent).
    Returns the number of games queued.
    """
    cutoff = timezone.now() - grace
    game_ids = list(
        games_needing_analysis().filter(ended_at__lte=cutoff).values_list("pk", flat=True)[:limit]
    )
    for game_id in game_ids:
        analysis_enqueue(game_id=game_id)
    if game_ids:
        logger.info("queued the analysis of %d finished games", len(game_ids))
    return len(game_ids)
