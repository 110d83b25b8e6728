"""Rate limits that an attacker tried to get around (issue: spoofed addresses, races,
requests without a valid token, unlimited login pages, a Redis outage)."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
from django.core.cache import caches
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

from core.api import throttles
from core.api.throttles import AddressRateThrottle, client_address
from tests.factories import PlayerFactory
from tests.hostile.conftest import rates, rest_framework

PLAYERS = "/api/v1/players/"
GAMES = "/api/v1/games/"


def _signup(client: APIClient, forwarded_for: str) -> int:
    return client.post(PLAYERS, {}, format="json", HTTP_X_FORWARDED_FOR=forwarded_for).status_code


def test_a_forged_forwarded_for_header_does_not_reset_the_signup_limit(db):
    client = APIClient()
    with rates(signup="3/hour"):
        codes = [_signup(client, f"203.0.113.{n}") for n in range(6)]
    assert codes == [201, 201, 201, 429, 429, 429]


@pytest.mark.parametrize(
    ("proxies", "header", "expected"),
    [
        (0, "198.51.100.7", "10.0.0.1"),
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "6.6.6.6, 198.51.100.7", "198.51.100.7"),
        (2, "6.6.6.6, 198.51.100.7, 10.0.0.2", "198.51.100.7"),
        (3, "198.51.100.7", "198.51.100.7"),
    ],
)
def test_only_addresses_appended_by_trusted_proxies_count(proxies, header, expected):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=header)
    with rest_framework(NUM_PROXIES=proxies):
        assert client_address(request) == expected


def test_requests_with_a_wrong_token_are_limited_by_address(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    with rates(ip="5/min", player="1000/min"):
        codes = [client.get(GAMES).status_code for _ in range(8)]
    assert codes == [401] * 5 + [429] * 3


def test_requests_without_a_token_are_limited_by_address(db):
    client = APIClient()
    with rates(ip="4/min"):
        codes = [client.post(GAMES, {}, format="json").status_code for _ in range(6)]
    assert codes == [401] * 4 + [429] * 2


@pytest.mark.parametrize("path", ["/admin/login/", "/research/login/"])
def test_login_attempts_are_limited_by_address(db, path):
    client = APIClient(enforce_csrf_checks=False)
    with rates(login="3/hour"):
        codes = [
            client.post(path, {"username": "admin", "password": f"guess{n}"}).status_code
            for n in range(5)
        ]
        page = client.get(path).status_code
    assert codes == [200, 200, 200, 429, 429]
    assert page == 200  # showing the form is not an attempt


REDIS_TEST_CACHE = {
    "BACKEND": "django_redis.cache.RedisCache",
    "LOCATION": "redis://127.0.0.1:6379/13",
    "KEY_PREFIX": "hostile-throttles",
    "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient"},
}


@pytest.mark.redis
def test_concurrent_requests_never_pass_the_limit():
    """Many threads counting at once against one limit: exactly the limit gets through."""
    limit, calls, workers = 25, 240, 12
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.55")
    allowed: list[bool] = []
    lock = threading.Lock()
    start = threading.Barrier(workers)

    def hammer() -> None:
        start.wait()
        for _ in range(calls // workers):
            result = AddressRateThrottle().allow_request(request, None)
            with lock:
                allowed.append(result)

    with override_settings(CACHES={"default": REDIS_TEST_CACHE}), rates(ip=f"{limit}/hour"):
        caches["default"].clear()
        threads = [threading.Thread(target=hammer) for _ in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        caches["default"].clear()
    assert len(allowed) == calls
    assert sum(allowed) == limit


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _unreachable_redis() -> dict[str, Any]:
    # As the settings configure a Redis cache: errors hidden, short time-outs.
    return {
        **REDIS_TEST_CACHE,
        "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
        "OPTIONS": {
            "CLIENT_CLASS": "django_redis.client.DefaultClient",
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.5,
            "SOCKET_TIMEOUT": 0.5,
        },
    }


class _BrokenCache:
    """A cache whose every operation fails, as a Redis client does in an outage."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        return fail


@pytest.mark.parametrize("broken", ["unreachable_redis", "raising_cache"])
def test_the_api_works_while_the_cache_is_down(db, monkeypatch, caplog, broken):
    player = PlayerFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    before = throttles.CACHE_FAILURES.count
    if broken == "raising_cache":
        monkeypatch.setattr(throttles, "cache", _BrokenCache())
        context = rates(ip="1/min", player="1/min")
    else:
        context = override_settings(CACHES={"default": _unreachable_redis()})
    with context, caplog.at_level(logging.WARNING, logger="core.api.throttles"):
        created = client.post(GAMES, {}, format="json")
        listed = client.get(GAMES)
        signed_up = APIClient().post(PLAYERS, {}, format="json")
    assert (created.status_code, listed.status_code, signed_up.status_code) == (201, 200, 201)
    assert created["Content-Type"] == "application/json"
    assert throttles.CACHE_FAILURES.count >= before + 3
    assert "not applied: the cache failed" in caplog.text
