"""Celery tasks of the puzzles: the decoder bots' answers on Decodoku puzzles.

Thin: each calls a service (``puzzles.services``). ``decode_decodoku`` is
queued after the commit of every ended Decodoku attempt; it is idempotent,
so a puzzle attempted a hundred times is decoded once per bot.
``decode_decodoku_pending`` catches puzzles whose task could not be queued.
"""

from __future__ import annotations

import uuid

from celery import shared_task

from core.tasks import RETRY
from puzzles.services import decodoku_bots_pending, decodoku_bots_run


@shared_task(name="puzzles.decode_decodoku", **RETRY)
def decode_decodoku(puzzle_id: str) -> int:
    """Every bot's answer on one Decodoku puzzle; returns how many were new."""
    return decodoku_bots_run(puzzle_id=uuid.UUID(puzzle_id))


@shared_task(name="puzzles.decode_decodoku_pending", **RETRY)
def decode_decodoku_pending() -> int:
    """Queue the bots on every attempted Decodoku puzzle they have not decoded; how many."""
    pending = decodoku_bots_pending()
    for puzzle_id in pending:
        decode_decodoku.delay(str(puzzle_id))
    return len(pending)
