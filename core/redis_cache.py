"""The Redis client of the cache (django-redis's ``REDIS_CLIENT_CLASS``), behind a circuit breaker.

django-redis turns a failed cache call into a miss (``IGNORE_EXCEPTIONS``), but
each call still waits its socket time-out on a Redis that does not answer, and
a request makes several. Here every command goes through the breaker of the
cache's Redis server (``core.circuit``): once a command has failed, the calls of
the next ``CIRCUIT_BREAKER_COOLDOWN`` seconds fail at once, as a
``redis.ConnectionError`` that django-redis ignores like any other, without
touching the network. :class:`SkipOpenCircuit` keeps those skipped calls out
of the log (the breaker logs the outage once, and the recovery).
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.conf import settings

from core.circuit import CircuitBreaker, CircuitOpen, breaker_for

# A Redis that does not answer, or cannot be reached. Any other error (a wrong
# type, a script error) is an answer: the server is there.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
)


class CacheCircuitOpen(redis.exceptions.ConnectionError):
    """The cache's Redis failed a moment ago; the command was not sent."""


def cache_breaker(address: str) -> CircuitBreaker:
    return breaker_for(address, cooldown=settings.CIRCUIT_BREAKER_COOLDOWN)


class CircuitBreakerRedis(redis.Redis):
    """``redis.Redis`` whose commands go through the cache's circuit breaker."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pool_kwargs = self.connection_pool.connection_kwargs
        if pool_kwargs.get("path"):
            self.breaker = cache_breaker(f"unix://{pool_kwargs['path']}")
        else:
            host, port = pool_kwargs.get("host", "localhost"), pool_kwargs.get("port", 6379)
            self.breaker = cache_breaker(f"redis://{host}:{port}")

    def execute_command(self, *args: Any, **options: Any) -> Any:
        try:
            with self.breaker.guard(OUTAGE_ERRORS):
                return super().execute_command(*args, **options)
        except CircuitOpen as exc:
            raise CacheCircuitOpen(str(exc)) from None

    def pipeline(self, *args: Any, **kwargs: Any) -> Any:
        if self.breaker.state == "open":
            raise CacheCircuitOpen(f"{self.breaker.name} failed a moment ago; not tried")
        return super().pipeline(*args, **kwargs)


class SkipOpenCircuit(logging.Filter):
    """Drops django-redis's "Exception ignored" records for calls the breaker refused."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        while error is not None:
            if isinstance(error, CacheCircuitOpen):
                return False
            error = error.__cause__ or error.__context__
        return True
