"""The analysis on a real Celery worker, on Redis and PostgreSQL.

Each test starts its own ``redis-server`` on a free port (so that it can be
stopped and started again without touching anyone else's Redis) and a real
worker process (``celery worker --pool solo``) pointed at the test database.
This process publishes to the same Redis, as the web process would.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings

from decodoku_site.celery import app as celery_app
from games.models import Game
from results import tasks
from results.models import GameAnalysis, MoveAnalysis, MoveBotAgreement, RoundAnalysis
from tests.conftest import services_required
from tests.factories import GameFactory, play

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[3]
REDIS_SERVER = shutil.which("redis-server")
VISIBILITY_TIMEOUT = 8  # seconds; must exceed the worker's hard time limit


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(condition: Callable[[], object], *, timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


class Redis:
    """A private redis-server that the test can stop and start again on the same port."""

    def __init__(self, workdir: Path) -> None:
        self.port = _free_port()
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_for(self._answers, timeout=10, what="redis-server to accept connections")

    def _answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(
            ("127.0.0.1", self.port), timeout=0.5
        ) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


class Worker:
    """A ``celery worker`` subprocess; its log is kept to see what it did."""

    def __init__(self, *, env: dict[str, str], log: Path, name: str) -> None:
        self.log = log
        self.handle = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "decodoku_site", "worker", "--pool", "solo",
             "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "--without-heartbeat", "-n", f"{name}@%h"],
            cwd=ROOT, env=env, stdout=self.handle, stderr=subprocess.STDOUT,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self) -> None:
        _wait_for(lambda: "ready." in self.text() or self.process.poll() is not None,
                  timeout=60, what="the worker to start")
        assert self.process.poll() is None, f"the worker died:\n{self.text()}"

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.handle.close()


def _database_url() -> str:
    db = settings.DATABASES["default"]
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
    # During the test NAME is the test database, which the worker must use too.
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@contextlib.contextmanager
def _publishing_to(url: str) -> Iterator[None]:
    """Make this process publish to ``url`` (its connection pools are dropped both ways)."""
    # Publishing uses the write URL; it is a key of its own in the app's
    # configuration (broker_url is read through the CELERY_ settings namespace).
    old = celery_app.conf.broker_write_url

    def reset() -> None:
        celery_app.close()
        with contextlib.suppress(AttributeError, KeyError):
            celery_app.amqp._producer_pool = None

    reset()
    celery_app.conf.broker_write_url = url
    try:
        yield
    finally:
        reset()
        celery_app.conf.broker_write_url = old


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    if REDIS_SERVER is None:
        message = "needs redis-server on PATH to start and stop a private broker"
        if services_required():
            pytest.fail(message)
        pytest.skip(message)
    server = Redis(tmp_path)
    server.start()
    with _publishing_to(server.url):
        yield server
    server.stop()


@pytest.fixture
def start_worker(redis: Redis, tmp_path: Path) -> Iterator[Callable[[], Worker]]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": redis.url,
        # A killed task comes back after the visibility timeout; keep it short
        # (it must exceed the hard time limit).
        "CELERY_TASK_SOFT_TIME_LIMIT": "4",
        "CELERY_TASK_TIME_LIMIT": "5",
        "CELERY_REDIS_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "DATABASE_CONN_MAX_AGE": "0",
    }
    env.pop("CELERY_RESULT_BACKEND", None)
    workers: list[Worker] = []

    def start() -> Worker:
        number = len(workers)
        worker = Worker(env=env, log=tmp_path / f"worker-{number}.log", name=f"analysis-{number}")
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in workers:
        worker.stop()


def _finish_game(seed: int) -> Game:
    """Play a game to its loss through the services: the hook queues its analysis."""
    game = play(GameFactory(seed=seed))
    assert game.status == Game.Status.LOST
    return game


def _rows(game: Game) -> tuple[int, int, int, int]:
    return (
        GameAnalysis.objects.filter(game=game).count(),
        MoveAnalysis.objects.filter(game=game).count(),
        RoundAnalysis.objects.filter(game=game).count(),
        MoveBotAgreement.objects.filter(move__game=game).count(),
    )


def test_a_finished_game_gets_exactly_one_analysis(start_worker):
    worker = start_worker()
    game = _finish_game(seed=11)
    _wait_for(lambda: GameAnalysis.objects.filter(game=game).exists(), timeout=60,
              what=f"the analysis; worker log:\n{worker.text()}")
    rows = _rows(game)
    assert rows[:3] == (1, game.moves_count, game.rounds)
    # The same task delivered twice more (a retry, a duplicate from the sweep).
    ids = [tasks.analyse_game.delay(str(game.pk)).id for _ in range(2)]
    _wait_for(lambda: all(f"[{i}] succeeded" in worker.text() for i in ids), timeout=60,
              what="the repeated tasks")
    assert _rows(game) == rows


def test_a_task_killed_halfway_is_redelivered_and_leaves_one_analysis(start_worker):
    game = _finish_game(seed=12)  # its analysis is queued; no worker runs yet
    db = settings.DATABASES["default"]
    holder = psycopg.connect(
        host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432,
        user=db.get("USER") or None, password=db.get("PASSWORD") or None, dbname=db["NAME"],
    )
    try:
        # Hold the game's row: the task gets as far as storing its result and waits there.
        holder.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
        first = start_worker()
        _wait_for(
            lambda: holder.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            ).fetchone()[0],
            timeout=60, what="the task to wait for the game's lock",
        )
        task_id = re.search(r"results\.analyse_game\[([0-9a-f-]+)\] received", first.text())
        assert task_id is not None, first.text()
        first.kill()
        killed_at = time.monotonic()
    finally:
        holder.rollback()
        holder.close()
    assert _rows(game) == (0, 0, 0, 0)
    # Nobody acknowledged the message: once it is older than the visibility
    # timeout, a worker puts it back on the queue. A worker does so when it
    # starts (later only every few minutes), so start one after the timeout.
    time.sleep(max(0.0, killed_at + VISIBILITY_TIMEOUT + 2 - time.monotonic()))
    second = start_worker()
    _wait_for(lambda: GameAnalysis.objects.filter(game=game).exists(), timeout=60,
              what=f"the redelivered task; worker log:\n{second.text()}")
    # The very same message, delivered again.
    _wait_for(lambda: f"[{task_id.group(1)}] succeeded" in second.text(), timeout=30,
              what="the task to finish")
    assert _rows(game)[:3] == (1, game.moves_count, game.rounds)


def test_games_record_while_the_broker_is_down_and_the_sweep_catches_up(
    redis, start_worker, settings
):
    settings.CIRCUIT_BREAKER_COOLDOWN = 1.0
    start_worker()
    redis.stop()
    games = [_finish_game(seed=13), _finish_game(seed=14)]
    assert all(Game.objects.get(pk=g.pk).status == Game.Status.LOST for g in games)
    assert not GameAnalysis.objects.exists()
    redis.start()
    # The failed publishes opened this process's circuit breaker for the broker
    # (core.circuit): publishing resumes once its cooldown has passed.
    time.sleep(settings.CIRCUIT_BREAKER_COOLDOWN + 0.2)
    # What celery beat sends every few minutes (no grace period, the games are fresh).
    tasks.analyse_pending.apply_async(kwargs={"grace_seconds": 0})
    _wait_for(lambda: GameAnalysis.objects.count() == 2, timeout=90,
              what="the periodic sweep to analyse both games")
    for game in games:
        assert _rows(game)[:3] == (1, game.moves_count, game.rounds)
