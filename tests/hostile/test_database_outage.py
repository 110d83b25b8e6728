"""The database refusing connections, or accepting them and never answering:
answers stay bounded and, under /api/, keep the API's JSON error body."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connections
from django.test import Client

from tests.factories import PlayerFactory

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def silent_database() -> Iterator[int]:
    """A TCP port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
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
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


REQUESTS = """
import json, django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
answers = {}
for name, method, path, extra in [
    ("healthz", "get", "/healthz", {}),
    ("games", "get", "/api/v1/games/", {"HTTP_AUTHORIZATION": "Token " + "t" * 43}),
    ("signup", "post", "/api/v1/players/", {"data": "{}", "content_type": "application/json"}),
]:
    response = getattr(client, method)(path, **extra)
    answers[name] = [response.status_code, response["Content-Type"], response.content.decode()]
print(json.dumps(answers))
"""


def _run_site(database_url: str, *, redis_url: str | None = None) -> dict[str, list]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "decodoku_site.settings",
        "DATABASE_URL": database_url,
        "DATABASE_CONNECT_TIMEOUT": "1",
        "DEBUG": "0",
        "SECRET_KEY": "test-only-" + "k" * 50,
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
        "CACHE_URL": "locmem://",
    }
    env.pop("CELERY_BROKER_URL", None)
    if redis_url is not None:  # Redis down too: the cache and the broker
        env.update(CACHE_URL=redis_url, CELERY_BROKER_URL=redis_url)
    # The time-out only guards against a hang; the answers are what is checked.
    result = subprocess.run(
        [sys.executable, "-c", REQUESTS],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ["silent", "refused", "silent_and_redis_down"])
def test_an_unreachable_database_gives_503s_not_hangs_or_html(silent_database, kind):
    port = _free_port() if kind == "refused" else silent_database
    redis_url = f"redis://127.0.0.1:{_free_port()}/0" if "redis" in kind else None
    answers = _run_site(f"postgres://decodoku@127.0.0.1:{port}/decodoku", redis_url=redis_url)
    status, _, body = answers["healthz"]
    assert status == 503
    reason = json.loads(body)["reason"]
    if kind != "refused":
        assert "no answer within" in reason or "timeout" in reason.lower()
    for name in ("games", "signup"):
        status, content_type, body = answers[name]
        assert (name, status) == (name, 503)
        assert content_type == "application/json"
        assert json.loads(body)["error"]["code"] == "service_unavailable"


def test_a_refused_connection_during_a_request_is_a_json_503(db):
    player = PlayerFactory()
    client = Client(raise_request_exception=False)
    failing = mock.patch.object(
        type(connections["default"]), "cursor", side_effect=OperationalError("refused")
    )
    with failing:
        response = client.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {player.token}")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["error"]["code"] == "service_unavailable"


def test_an_unexpected_error_under_the_api_is_a_json_500(db):
    player = PlayerFactory()
    client = Client(raise_request_exception=False)
    with mock.patch("games.api.views.game_list_for_player", side_effect=RuntimeError("bug")):
        response = client.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {player.token}")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "server_error"


def test_an_unexpected_error_on_a_page_is_an_html_500(db):
    client = Client(raise_request_exception=False)
    with mock.patch("games.web.views.render", side_effect=RuntimeError("bug")):
        response = client.get("/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_an_overlong_api_url_is_a_json_414(db):
    response = Client().get("/api/v1/games/?q=" + "a" * 5000)
    assert response.status_code == 414
    assert response.json()["error"]["code"] == "uri_too_long"
    assert response.json()["error"]["limit"] == 4096
