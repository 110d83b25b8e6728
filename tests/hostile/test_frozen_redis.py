"""A Redis that accepts connections and never answers (the issue stopped it with SIGSTOP).

Every API request took about 2.0 s (each cache call of the rate limits waited
out its socket time-out) and abandoning a game 7.0-7.2 s (the broker's
publish waited 5 s more); security.md promised 2.5 s at most. Now the cache
and the broker wait at most ``CACHE_TIMEOUT`` (0.25 s) and
``CELERY_BROKER_CONNECTION_TIMEOUT`` (0.5 s) for an answer, and after a
failure the process's circuit breaker for that Redis skips it for
``CIRCUIT_BREAKER_COOLDOWN`` seconds: one request pays one time-out, the
next ones nothing.

The frozen Redis is a TCP socket on 127.0.0.1 that accepts and never says a
word (the shared Redis is never stopped). The cache is configured by the
site's own settings code, from ``CACHE_URL``, in a subprocess.

``/healthz`` used to show a count of cache failures per process, so that
probes served by different processes alternated between 32 and 0; it now
pings the cache itself and shows the process's circuit breaker, labelled with
the process id.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from core import circuit
from decodoku_site.celery import app as celery_app
from games.models import Game
from tests.factories import GameFactory, PlayerFactory
from tests.hostile.conftest import rates

ROOT = Path(__file__).resolve().parents[2]
# "Well under a second": one time-out at most, and nothing once the breaker is open.
ONE_REQUEST_SECONDS = 0.8
TEN_REQUESTS_SECONDS = 1.5


@pytest.fixture
def frozen_redis() -> Iterator[int]:
    """A port that accepts connections (as a stopped process's socket does) and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(128)
    server.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(timeout=5)
    for connection in held:
        connection.close()
    server.close()


PRINT_CACHES = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps(settings.CACHES))
"""


def site_caches(cache_url: str) -> dict[str, Any]:
    """``CACHES`` as the settings build it for ``cache_url``."""
    result = subprocess.run(
        [sys.executable, "-c", PRINT_CACHES],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "decodoku_site.settings",
             "DEBUG": "1", "CACHE_URL": cache_url},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@contextmanager
def publishing_to(url: str) -> Iterator[None]:
    """Tasks go to the broker at ``url`` instead of running in this process (as in production)."""
    from tests.results.analysis.test_worker import _publishing_to

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        with _publishing_to(url):
            yield
    finally:
        celery_app.conf.task_always_eager = eager


def _timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_the_settings_give_the_cache_short_time_outs_and_a_circuit_breaker():
    options = site_caches("redis://127.0.0.1:6379/1")["default"]["OPTIONS"]
    assert options["SOCKET_TIMEOUT"] <= 0.25
    assert options["SOCKET_CONNECT_TIMEOUT"] <= 0.25
    assert options["REDIS_CLIENT_CLASS"] == "core.redis_cache.CircuitBreakerRedis"
    assert options["IGNORE_EXCEPTIONS"] is True


def test_api_requests_stay_fast_while_the_cache_is_frozen(db, frozen_redis, caplog):
    player = PlayerFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    caches = site_caches(f"redis://127.0.0.1:{frozen_redis}/1")
    timings = []
    with (
        override_settings(CACHES=caches),
        rates(ip="1200/min", player="600/min"),
        caplog.at_level(logging.WARNING),
    ):
        for _ in range(10):
            response, seconds = _timed(lambda: client.get("/api/v1/games/"))
            assert response.status_code == 200
            timings.append(seconds)
    assert max(timings) < ONE_REQUEST_SECONDS, timings
    assert sum(timings) < TEN_REQUESTS_SECONDS, timings
    # The outage is logged once by the breaker, not once per skipped call.
    assert caplog.text.count("not tried again") == 1
    assert "Exception ignored" in caplog.text  # the one call that did wait
    assert caplog.text.count("Exception ignored") <= 2


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_abandoning_games_stays_fast_while_redis_is_frozen(
    db, frozen_redis, caplog, django_capture_on_commit_callbacks
):
    """The cache and the broker on one frozen Redis, as in the Compose stack."""
    player = PlayerFactory()
    games = [GameFactory(player=player) for _ in range(3)]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    frozen = f"redis://127.0.0.1:{frozen_redis}"
    timings = []
    with (
        override_settings(CACHES=site_caches(f"{frozen}/1")),
        rates(ip="1200/min", player="600/min"),
        publishing_to(f"{frozen}/0"),
        caplog.at_level(logging.WARNING),
    ):
        for game in games:
            with django_capture_on_commit_callbacks(execute=True):
                response, seconds = _timed(
                    lambda game=game: client.post(f"/api/v1/games/{game.pk}/abandon/")
                )
            assert response.status_code == 200, response.content
            timings.append(seconds)
    assert all(Game.objects.get(pk=g.pk).status == Game.Status.ABANDONED for g in games)
    assert max(timings) < ONE_REQUEST_SECONDS, timings
    assert sum(timings) < ONE_REQUEST_SECONDS + 0.3, timings
    assert caplog.text.count("could not queue the analysis") == 3


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_a_frozen_broker_alone_costs_one_time_out_then_nothing(db, frozen_redis):
    from kombu.exceptions import OperationalError

    from results.services import analysis_enqueue

    timings = []
    with publishing_to(f"redis://127.0.0.1:{frozen_redis}/0"):
        for _ in range(5):
            started = time.monotonic()
            with pytest.raises(OperationalError):
                analysis_enqueue(game_id="0" * 32)
            timings.append(time.monotonic() - started)
    # The first publish waits for an answer; the next four are refused at once.
    assert timings[0] < ONE_REQUEST_SECONDS, timings
    assert max(timings[1:]) < 0.05, timings


def test_a_worker_waits_longer_for_its_own_commands_than_a_request():
    """Publishing from a request gives up after 0.5 s; a worker's own commands after 5 s."""
    from types import SimpleNamespace

    from celery.signals import celeryd_init

    conf = SimpleNamespace(broker_transport_options=dict(celery_app.conf.broker_transport_options))
    celeryd_init.send(sender="hostile@test", instance=None, conf=conf, options={})
    assert conf.broker_transport_options["socket_timeout"] == 5.0
    assert celery_app.conf.broker_transport_options["socket_timeout"] <= 0.5
    assert celery_app.conf.broker_transport_options["socket_connect_timeout"] <= 0.5


def test_the_breaker_lets_one_call_try_again_after_the_cooldown():
    now = [0.0]
    breaker = circuit.CircuitBreaker("redis://test:1", cooldown=5, clock=lambda: now[0])
    assert breaker.state == "closed"
    breaker.failed(ConnectionError("no answer"))
    assert (breaker.state, breaker.allow()) == ("open", False)
    now[0] = 5.0
    assert breaker.state == "half-open"
    assert breaker.allow() is True  # the one trial call
    assert breaker.allow() is False  # others wait for its outcome
    breaker.failed(ConnectionError("still no answer"))
    assert breaker.state == "open"
    now[0] = 10.0
    assert breaker.allow() is True
    breaker.succeeded()
    assert (breaker.state, breaker.allow()) == ("closed", True)
    assert breaker.failures_within(300) == 2


def test_healthz_reports_the_cache_readably_whichever_process_answers(
    db, client, frozen_redis
):
    caches = site_caches(f"redis://127.0.0.1:{frozen_redis}/1")
    with override_settings(CACHES=caches):
        bodies = [client.get("/healthz").json() for _ in range(3)]
    for body in bodies:
        assert body["status"] == "ok"  # the site works without its cache
        cache = body["cache"]
        assert cache["status"] == "unavailable", cache
        assert cache["server"] == f"redis://127.0.0.1:{frozen_redis}"
        assert cache["failures_last_5_min"] >= 1
        assert cache["process"] > 0
        assert "rate_limit_cache_failures" not in body
    assert bodies[0]["cache"]["circuit"] == "open"
    assert "Timeout" in bodies[0]["cache"]["reason"]


def test_healthz_answers_within_its_time_out_with_a_frozen_cache(db, client, frozen_redis):
    """The cache's PING runs alongside the database check, within HEALTHZ_TIMEOUT."""
    caches = site_caches(f"redis://127.0.0.1:{frozen_redis}/1")
    for option in ("SOCKET_TIMEOUT", "SOCKET_CONNECT_TIMEOUT"):
        caches["default"]["OPTIONS"][option] = 5.0  # an operator's slow setting
    with override_settings(CACHES=caches, HEALTHZ_TIMEOUT=0.5):
        response, seconds = _timed(lambda: client.get("/healthz"))
    assert response.status_code == 200
    assert seconds < 1.0
    assert response.json()["cache"]["status"] == "unavailable"


def test_healthz_with_a_cache_in_process_memory_says_so(db, client):
    body = client.get("/healthz").json()
    assert body["cache"] == {"status": "local"}
