"""Celery tasks of the results app: thin wrappers around ``results.services``.

Every task is idempotent, acknowledged late (a worker that dies mid-task
leaves the message to be delivered again) and retried with exponential
backoff on errors that pass: a database or broker that is briefly away
(the site's one retry policy, ``core.tasks.RETRY``).
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from core.tasks import RETRY
from results import services
from results.services.comparison import comparison_enqueue_pending, comparison_play
from results.services.pending import PENDING_BATCH, PENDING_GRACE
from results.services.strategy import strategy_refit_if_due

# A refit reads and replays every move of research data and fits the model
# once per fold and once on all: far longer than the site's 600 s default
# (100,000 moves took 25-62 s per fit on one core, so about 6 minutes for
# five folds, before the reading). Kept below CELERY_REDIS_VISIBILITY_TIMEOUT
# (3600 s by default), or Redis would hand a refit still running to a second
# worker. Nothing is stored until the fit is complete, so a refit stopped at
# the limit leaves no trace and the next check starts again.
STRATEGY_REFIT_SOFT_LIMIT = 1800
STRATEGY_REFIT_HARD_LIMIT = 1860


@shared_task(name="results.analyse_game", **RETRY)
def analyse_game(game_id: str) -> bool:
    """Analyse one finished game; True when an analysis is stored."""
    return services.game_analyse(game_id=game_id) is not None


@shared_task(name="results.analyse_pending", **RETRY)
def analyse_pending(
    limit: int = PENDING_BATCH, grace_seconds: float = PENDING_GRACE.total_seconds()
) -> int:
    """Periodic: queue the analysis of finished games that have none. Returns how many."""
    return services.analysis_enqueue_pending(limit=limit, grace=timedelta(seconds=grace_seconds))


@shared_task(name="results.run_sweep_chunk", **RETRY)
def run_sweep_chunk(point_id: int, index: int) -> bool:
    """Play and store one chunk of a sweep; False when it was already stored."""
    return services.sweep_run_chunk(point_id=point_id, index=index)


@shared_task(name="results.play_daily_bots", **RETRY)
def play_daily_bots(challenge_id: int) -> int:
    """Have the bots play one closed day's challenge (idempotent); returns the games played."""
    return services.daily_bots_play(challenge_id=challenge_id)


@shared_task(name="results.daily_bots_pending", **RETRY)
def daily_bots_pending() -> int:
    """Periodic: queue the bots of closed days that have none yet. Returns how many days."""
    return services.daily_bots_enqueue_pending()


@shared_task(name="results.play_decoders_on_game", **RETRY)
def play_decoders_on_game(game_id: str) -> int:
    """Have every planar decoder play a person's ended planar board (idempotent)."""
    return comparison_play(game_id=game_id)


@shared_task(name="results.decoders_pending", **RETRY)
def decoders_pending() -> int:
    """Periodic: queue the people's planar boards some decoder has not played. Returns how many."""
    return comparison_enqueue_pending()


@shared_task(name="results.strategy_refit", soft_time_limit=STRATEGY_REFIT_SOFT_LIMIT,
             time_limit=STRATEGY_REFIT_HARD_LIMIT, **RETRY)
def strategy_refit() -> int | None:
    """Periodic: a new strategy fit when enough moves have arrived since the last; its id."""
    fit = strategy_refit_if_due(min_new_moves=settings.DECODOKU_STRATEGY_REFIT_MOVES)
    return fit.pk if fit is not None else None
