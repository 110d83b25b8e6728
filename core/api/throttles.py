"""Rate limits per player and per client address, counted in the Django cache.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment, see docs/operations.md and docs/security.md) and are read at
each request, so tests can change them with ``override_settings``. A scope
without a rate (or with ``None``) is not limited.

How a request is counted:

* **Atomic counters.** A rate ``N/period`` allows N requests in a window
  that opens with the first request and lasts ``period`` seconds. The count
  is one cache key, created with ``cache.add`` (expiring with the window)
  and raised with ``cache.incr``: on Redis that is an ``INCR``, so
  concurrent requests on any number of connections and processes each get
  their own number and none can slip past the limit.
* **The client address** is ``REMOTE_ADDR`` unless ``DECODOKU_TRUSTED_PROXIES``
  (``REST_FRAMEWORK["NUM_PROXIES"]``) says how many proxies in front of the
  site append to ``X-Forwarded-For``; only the address the outermost trusted
  proxy saw is used, never what the client wrote into the header.
* **Failing open.** When the cache cannot be reached the request is let
  through, a warning is logged and :data:`CACHE_FAILURES` counts it (this
  process): an outage of Redis must not take the API down. ``/healthz``
  reports the cache itself and this process's circuit breaker for it
  (``decodoku_site.health``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass
class CacheFailures:
    """How often a rate limit was skipped because the cache failed (this process)."""

    count: int = 0
    last_error: str = ""


CACHE_FAILURES = CacheFailures()


def parse_rate(rate: str) -> tuple[int, int]:
    """``"600/min"`` as (600, 60)."""
    number, _, period = rate.partition("/")
    return int(number), PERIODS[period[:1]]


def client_address(request: HttpRequest | Request) -> str:
    """The client's address, trusting ``X-Forwarded-For`` only as far as NUM_PROXIES says.

    Each trusted proxy appends the address it received the request from, so
    with N trusted proxies the client is the N-th address from the right;
    anything further left was written by the client and is ignored.
    """
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR") or "")
    proxies = api_settings.NUM_PROXIES or 0
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in str(forwarded).split(",") if part.strip()]
    if not addresses:
        return remote
    return addresses[-min(proxies, len(addresses))][:64]


def _note_failure(scope: str, error: str) -> None:
    CACHE_FAILURES.count += 1
    CACHE_FAILURES.last_error = error
    logger.warning("rate limit %s not applied: the cache failed (%s)", scope, error)


def count_request(*, scope: str, ident: str, rate: str, amount: int = 1) -> float | None:
    """Count one request (``amount`` units) of ``ident`` in ``scope``; the seconds to wait
    if over ``rate``.

    None means the request may go on (also when the cache failed). A window
    opens with the first request and lasts the rate's period; its counter
    key expires with it.
    """
    limit, duration = parse_rate(rate)
    now = time.time()
    key = f"throttle:{scope}:{ident}"
    try:
        if cache.add(key, 0, timeout=duration):
            cache.set(f"{key}:start", now, timeout=duration)
        try:
            count = cache.incr(key, amount)
        except ValueError:  # the window ended between add and incr: open the next one
            cache.add(key, amount, timeout=duration)
            count = amount
        if count is None:  # django-redis with IGNORE_EXCEPTIONS hides an error as None
            raise ConnectionError("no answer")
        if count <= limit:
            return None
        start = cache.get(f"{key}:start")
    except Exception as exc:  # any cache error: fail open
        _note_failure(scope, f"{type(exc).__name__}: {exc}")
        return None
    opened = start if isinstance(start, int | float) else now
    return max(1.0, opened + duration - now)


class _CountingThrottle(BaseThrottle):
    scope = ""

    def __init__(self) -> None:
        self.wait_seconds: float | None = None

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        rate = rates.get(self.scope) if self.scope else None
        return rate if isinstance(rate, str) else None

    def get_ident_key(self, request: Request) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Request, view: object) -> bool:
        rate = self.get_rate()
        if rate is None:
            return True
        ident = self.get_ident_key(request)
        if ident is None:
            return True
        self.wait_seconds = count_request(scope=self.scope, ident=ident, rate=rate)
        return self.wait_seconds is None

    def wait(self) -> float | None:
        return self.wait_seconds


class PlayerRateThrottle(_CountingThrottle):
    """Requests of one player, whatever address they come from.

    The player is ``request.auth``, the record the API's authentication gave
    (``games.authentication``); a request without one is not counted here.
    """

    scope = "player"

    def get_ident_key(self, request: Request) -> str | None:
        if not isinstance(request.auth, Model):
            return None
        return str(request.auth.pk)


def count_player_actions(*, player: Model, amount: int) -> float | None:
    """Count ``amount`` puzzle actions of ``player`` sent in one batch (scope ``actions``):
    a batch is one request, so its actions are counted on their own; the seconds to
    wait if over the rate, None to go on (also when no rate is set)."""
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    rate = rates.get("actions")
    if not isinstance(rate, str):
        return None
    return count_request(scope="actions", ident=str(player.pk), rate=rate, amount=amount)


class AddressRateThrottle(_CountingThrottle):
    """Requests from one client address, whoever makes them (counted before authentication)."""

    scope = "ip"

    def get_ident_key(self, request: Request) -> str | None:
        return client_address(request)


class SignupRateThrottle(AddressRateThrottle):
    """New players created from one address."""

    scope = "signup"


class UploadRateThrottle(PlayerRateThrottle):
    """Save files uploaded by one player."""

    scope = "upload"


class LoginRateThrottle(AddressRateThrottle):
    """Sign-in attempts from one address: the admin and research login pages, recovery codes."""

    scope = "login"


# Checked after authentication; the address limit is checked before it (see
# core.api.views.PlayerAPIView), so that requests with no or a bad token count too.
API_THROTTLES: list[type[BaseThrottle]] = [PlayerRateThrottle]

# The login pages that LoginRateLimitMiddleware guards, by URL name.
LOGIN_VIEWS = frozenset({"admin:login", "research:login", "web:restore"})


class LoginRateLimitMiddleware:
    """Limits sign-in attempts per address on the admin and research login pages."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in LOGIN_VIEWS:
            return None
        throttle = LoginRateThrottle()
        if throttle.allow_request(request, None):  # type: ignore[arg-type]
            return None
        wait = max(1, int(throttle.wait() or 1))
        response = HttpResponse(
            f"Too many sign-in attempts from this address; try again in {wait} s.\n",
            content_type="text/plain; charset=utf-8",
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
