"""Celery tasks of the dashboard: keep the aggregate tables current.

Both are idempotent and safe to run concurrently (they serialise on the
watermark rows), so a redelivered or overlapping run does no harm. They
retry on errors that pass with the site's one policy, ``core.tasks.RETRY``.
"""

from __future__ import annotations

from celery import shared_task

from core.tasks import RETRY
from dashboard import services


@shared_task(name="dashboard.refresh_aggregates", **RETRY)
def refresh_aggregates() -> dict[str, int]:
    """Periodic: absorb the games and analyses finished since the last run."""
    report = services.aggregates_refresh()
    return {
        "games": report.games,
        "counted_games": report.counted_games,
        "analyses": report.analyses,
        "counted_analyses": report.counted_analyses,
    }


@shared_task(name="dashboard.rebuild_aggregates", **RETRY)
def rebuild_aggregates() -> int:
    """Daily: recount from scratch, to drop games excluded or analyses redone since."""
    return services.aggregates_rebuild().counted_games
