"""Circuit breakers: after a service fails, stop waiting for it for a few seconds.

A Redis that accepts connections but never answers (stopped with SIGSTOP,
a full network buffer, a failover) costs every call its whole socket
time-out. A request makes several cache calls and may queue a task, so it
paid each time-out in turn (about 2 s per API request, 7 s to abandon a game).

A :class:`CircuitBreaker` remembers the failure: for ``cooldown`` seconds
calls are refused at once (``open``), without touching the network; then one
call at a time is let through to try again (``half-open``), and its success
closes the breaker. Each process has its own breakers, one per server
(:func:`breaker_for`: scheme, host and port, so that the cache and the broker
on one Redis share theirs: when it stops, the first call to fail spares the
other its wait); ``/healthz`` shows them with the process id and the failures
of the last five minutes.

The cache (``core.redis_cache.CircuitBreakerRedis``) and the Celery broker
(``decodoku_site.celery.BreakerTask``) use them; both already treat a failed
call as harmless (a cache miss, a task queued later by the periodic sweep).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)

DEFAULT_COOLDOWN = 5.0
# Failures kept for the counts /healthz shows.
WINDOW_SECONDS = 300
MAX_REMEMBERED_FAILURES = 10_000


class CircuitOpen(Exception):
    """The service failed a moment ago; the call was not tried."""


class CircuitBreaker:
    """Closed (calls go through), open (refused at once), half-open (one trial call)."""

    def __init__(
        self,
        name: str,
        *,
        cooldown: float = DEFAULT_COOLDOWN,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.cooldown = cooldown
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self._trial_running = False
        self._failures: deque[float] = deque(maxlen=MAX_REMEMBERED_FAILURES)
        self.skipped = 0
        self.last_error = ""
        self.last_failure_at: datetime | None = None

    # -- state ---------------------------------------------------------------

    @property
    def state(self) -> str:
        with self._lock:
            if self._open_until is None:
                return "closed"
            return "open" if self._clock() < self._open_until else "half-open"

    def allow(self) -> bool:
        """Whether a call may go to the service now (claims the trial when half-open)."""
        with self._lock:
            if self._open_until is None:
                return True
            if self._clock() >= self._open_until and not self._trial_running:
                self._trial_running = True
                return True
            self.skipped += 1
            return False

    def succeeded(self) -> None:
        with self._lock:
            was_open = self._open_until is not None
            self._open_until = None
            self._trial_running = False
        if was_open:
            logger.warning("%s answers again", self.name)

    def failed(self, error: BaseException | str) -> None:
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        with self._lock:
            was_closed = self._open_until is None
            now = self._clock()
            self._open_until = now + self.cooldown
            self._trial_running = False
            self._failures.append(now)
            self.last_error = text.strip()[:200]
            self.last_failure_at = datetime.now(UTC)
        if was_closed:
            logger.warning(
                "%s failed (%s); not tried again for %g s",
                self.name,
                self.last_error,
                self.cooldown,
            )

    def release(self) -> None:
        """End a trial call that neither succeeded nor failed (the breaker stays as it is)."""
        with self._lock:
            self._trial_running = False

    @contextmanager
    def guard(self, failures: tuple[type[BaseException], ...]) -> Iterator[None]:
        """Run a call to the service: refused (CircuitOpen) while open, its outcome recorded.

        Exceptions in ``failures`` count as the service failing; any other
        exception means that the service answered (or was not reached for a
        reason of the caller's) and leaves the breaker as it was.
        """
        if not self.allow():
            raise CircuitOpen(
                f"{self.name} failed {self._seconds_since_failure():.1f} s ago "
                f"({self.last_error}); not tried again for {self.cooldown:g} s"
            )
        try:
            yield
        except failures as exc:
            self.failed(exc)
            raise
        except BaseException:
            self.release()
            raise
        self.succeeded()

    def _seconds_since_failure(self) -> float:
        if self.last_failure_at is None:
            return 0.0
        return (datetime.now(UTC) - self.last_failure_at).total_seconds()

    def failures_within(self, seconds: float = WINDOW_SECONDS) -> int:
        since = self._clock() - seconds
        with self._lock:
            return sum(1 for at in self._failures if at >= since)

    def report(self) -> dict[str, Any]:
        """What /healthz shows: the state, and this process's recent failures."""
        return {
            "server": self.name,
            "circuit": self.state,
            f"failures_last_{WINDOW_SECONDS // 60}_min": self.failures_within(),
            "last_failure": (
                self.last_failure_at.isoformat(timespec="seconds") if self.last_failure_at else None
            ),
            "last_error": self.last_error or None,
            "process": os.getpid(),
        }

    def reset(self) -> None:
        with self._lock:
            self._open_until = None
            self._trial_running = False
            self._failures.clear()
            self.skipped = 0
            self.last_error = ""
            self.last_failure_at = None


_breakers: dict[str, CircuitBreaker] = {}
_breakers_lock = threading.Lock()


def server_address(url: str) -> str:
    """``scheme://host:port`` of a service URL: no user name, password or database."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "?"
    if parts.scheme in ("unix", "redis+socket"):
        return f"unix://{parts.path}"
    return f"{parts.scheme.replace('rediss', 'redis')}://{host}{port}"


def breaker_for(url: str, *, cooldown: float | None = None) -> CircuitBreaker:
    """This process's breaker for the server of ``url`` (made on first use)."""
    address = server_address(url)
    with _breakers_lock:
        found = _breakers.get(address)
        if found is None:
            found = CircuitBreaker(address)
            _breakers[address] = found
        if cooldown is not None:
            found.cooldown = cooldown
        return found


def reset_all() -> None:
    """Close and forget every breaker of this process (tests)."""
    with _breakers_lock:
        for found in _breakers.values():
            found.reset()
