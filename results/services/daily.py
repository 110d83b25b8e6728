"""The bots at the daily challenge: once a day is over, each bot plays that day's seed.

Players of a day all meet the same noise; so do the bots, afterwards (never
while the day is open: their games would show the seed). Their games are
ordinary bot games marked with the day (``Game.daily``), so the exports and
the analyses hold people and bots on the same noise side by side, and the
day's page shows the bots' scores beside the players'.

``daily_bots_play`` is idempotent: a bot that already has a game of the day
is skipped (each player, bots included, has at most one game per day, a
database constraint), so a repeated or redelivered task plays nothing twice.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from core.tasks import enqueue_on_commit
from games.daily import day_is_open, today
from games.engine.bots import BOTS
from games.errors import DailyAlreadyPlayed
from games.models import DailyChallenge, Game
from games.services import game_abandon
from results.services.bots import bot_play_game, bot_player

logger = logging.getLogger(__name__)

# A bot's game of the day still going after this many moves is abandoned (censored).
DAILY_BOT_MAX_MOVES = 5000


def daily_bots_play(*, challenge_id: int, max_moves: int | None = None) -> int:
    """Have every bot play the closed day ``challenge_id``; returns how many games were played.

    Nothing happens while the day is open or for an unknown id. ``max_moves``
    defaults to :data:`DAILY_BOT_MAX_MOVES`.
    """
    challenge = DailyChallenge.objects.filter(pk=challenge_id).first()
    if challenge is None or day_is_open(day=challenge.date):
        return 0
    played = 0
    for bot_name in sorted(BOTS):
        player = bot_player(bot_name=bot_name)
        existing = Game.objects.filter(daily=challenge, player=player).first()
        if existing is not None:
            if existing.is_active:
                # Left over by a run that stopped part-way: end it (a censored lifetime).
                game_abandon(game_id=existing.pk, player=player)
            continue
        try:
            bot_play_game(
                bot_name=bot_name,
                rules=challenge.rules,
                seed=challenge.seed,
                max_moves=DAILY_BOT_MAX_MOVES if max_moves is None else max_moves,
                daily=challenge,
            )
        except DailyAlreadyPlayed:
            continue  # another run of the same day started this bot's game
        played += 1
    DailyChallenge.objects.filter(pk=challenge.pk, bots_played_at__isnull=True).update(
        bots_played_at=timezone.now()
    )
    return played


def daily_bots_enqueue(*, challenge_id: int) -> None:
    """Queue the bots' games of one closed day, once the current transaction commits."""
    enqueue_on_commit("results.play_daily_bots", challenge_id, retry=False)


def daily_bots_enqueue_pending() -> int:
    """Queue every closed day whose bots have not played yet; returns how many days."""
    pending = list(
        DailyChallenge.objects.filter(date__lt=today(), bots_played_at__isnull=True)
        .order_by("date")
        .values_list("pk", flat=True)
    )
    for challenge_id in pending:
        daily_bots_enqueue(challenge_id=challenge_id)
    if pending:
        logger.info("queued the bots of %d closed daily challenges", len(pending))
    return len(pending)
