"""The broker going away under a running worker, and games ending meanwhile.

The worker must survive the outage and take new tasks once Redis is back,
without a restart; a game that ends while the broker is down is recorded at
once, and its analysis is queued again by the periodic sweep.
"""

from __future__ import annotations

import time

import pytest

from games.models import Game
from results import tasks
from results.models import GameAnalysis
from tests.analysis.test_worker import (  # noqa: F401 - fixtures used by name
    _finish_game,
    _wait_for,
    redis,
    start_worker,
)

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

# Only a guard against hanging: finishing a game with the broker down costs at
# most the connection time-out (1 s) and one quick retry.
HANG_GUARD_SECONDS = 20


def test_the_worker_survives_a_broker_restart_and_takes_new_tasks(redis, start_worker):  # noqa: F811
    worker = start_worker()
    before = _finish_game(seed=21)
    _wait_for(lambda: GameAnalysis.objects.filter(game=before).exists(), timeout=60,
              what=f"the first analysis; worker log:\n{worker.text()}")

    redis.stop()
    _wait_for(lambda: "Cannot connect" in worker.text() or "Connection" in worker.text(),
              timeout=30, what="the worker to notice the lost broker")
    started = time.monotonic()
    during = _finish_game(seed=22)  # its analysis cannot be queued now
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    assert Game.objects.get(pk=during.pk).status == Game.Status.LOST
    time.sleep(3)  # let the worker try to reconnect a few times
    assert worker.process.poll() is None, f"the worker died:\n{worker.text()}"

    redis.start()  # same port, empty: the messages of the outage are gone
    after = _finish_game(seed=23)
    _wait_for(lambda: GameAnalysis.objects.filter(game=after).exists(), timeout=90,
              what=f"a new task after the restart; worker log:\n{worker.text()}")
    # The game of the outage: the periodic sweep queues it again.
    tasks.analyse_pending.apply_async(kwargs={"grace_seconds": 0})
    _wait_for(lambda: GameAnalysis.objects.filter(game=during).exists(), timeout=90,
              what="the sweep to catch up with the game of the outage")
    assert worker.process.poll() is None
    assert "Unrecoverable error" not in worker.text()
