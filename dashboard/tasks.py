"""Celery tasks of the dashboard: keep the aggregate tables current.

Both are idempotent and safe to run concurrently (they serialise on the
watermark rows), so a redelivered or overlapping run does no harm.
"""

from __future__ import annotations

from typing import TypedDict

from celery import shared_task
from django.db import InterfaceError, OperationalError

from dashboard import services

TRANSIENT_ERRORS = (OperationalError, InterfaceError, ConnectionError)


class RetryOptions(TypedDict, total=False):
    """The options of ``shared_task`` that make a task retry (typed for the checker)."""

    acks_late: bool
    autoretry_for: tuple[type[BaseException], ...]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


RETRY: RetryOptions = {
    "acks_late": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 120,
    "max_retries": 5,
}


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
