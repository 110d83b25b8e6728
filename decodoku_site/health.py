"""Liveness and readiness probe for load balancers and container health checks.

The probe answers within ``HEALTHZ_TIMEOUT`` seconds whatever the database
does: the check runs in a thread of its own (with its own connection, closed
afterwards) and the answer is 503 with the reason when it has not finished
in time. Only one check runs at a time; while a hung one is still waiting
for the database, further probes answer 503 at once instead of piling up
threads. (gunicorn's worker keeps threads of its own for this path, so the
probe is answered even when every request thread waits:
``decodoku_site.gunicorn_worker``.)

The body also says how the cache and the broker are doing, without changing
the status (the site works without them: rate limits fail open, tasks are
queued again later):

* ``cache``: ``status`` is this probe's own ``PING`` to the cache's Redis
  (``ok``, ``unavailable`` with the ``reason``, or ``local`` for a cache in
  the process's memory), made alongside the database check and within the
  same time; the same answer whichever process serves the probe. Then this
  process's circuit breaker for it (``core.circuit``): ``circuit``
  (``closed``, ``open``: calls skipped, ``half-open``: trying again), the
  failures of the last five minutes, the last failure and its error, and the
  ``process`` id they belong to.
* ``broker`` (with a Celery broker): this process's circuit breaker for it.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from decodoku_site.celery import app, broker_breaker

logger = logging.getLogger(__name__)

REDIS_CACHE = "django_redis.cache.RedisCache"

_running = threading.Lock()
_cache_check_running = threading.Lock()


def _check_database(result: Future[str | None]) -> None:
    problem: str | None = None
    try:
        connection = connections["default"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        problem = f"{type(exc).__name__}: {exc}".strip()[:200]
    except Exception as exc:  # never let the thread die silently
        problem = f"{type(exc).__name__}: {exc}".strip()[:200]
    finally:
        connections.close_all()  # this thread's connections only
        # Free for the next probe before this one answers: a probe that follows
        # at once must not find the finished check "still waiting".
        _running.release()
        result.set_result(problem)


def _start_database_check() -> Future[str | None] | str:
    """The check's future, or the reason no check was started."""
    if not _running.acquire(blocking=False):
        return "an earlier check is still waiting for the database"
    result: Future[str | None] = Future()
    thread = threading.Thread(
        target=_check_database, args=(result,), name="healthz-database", daemon=True
    )
    thread.start()
    return result


def _database_outcome(check: Future[str | None] | str, timeout: float, waited: float) -> str | None:
    if isinstance(check, str):
        return check
    try:
        return check.result(timeout=max(0.0, waited))
    except TimeoutError:
        return f"no answer within {timeout:g} s"


def database_problem(timeout: float) -> str | None:
    """None when the database answered ``SELECT 1`` within ``timeout`` s, else the reason."""
    return _database_outcome(_start_database_check(), timeout, timeout)


def _ping_cache(result: Future[str | None]) -> None:
    problem: str | None = None
    try:
        from django_redis import get_redis_connection  # type: ignore[import-untyped]

        get_redis_connection("default").ping()
    except Exception as exc:  # any failure is the answer
        problem = f"{type(exc).__name__}: {exc}".strip()[:200]
    finally:
        _cache_check_running.release()
        result.set_result(problem)


def _start_cache_check() -> Future[str | None] | str | None:
    """The ping's future, None for a cache in this process's memory, or why none was sent."""
    if settings.CACHES["default"]["BACKEND"] != REDIS_CACHE:
        return None
    if not _cache_check_running.acquire(blocking=False):
        return "an earlier check is still waiting for the cache"
    result: Future[str | None] = Future()
    threading.Thread(target=_ping_cache, args=(result,), name="healthz-cache", daemon=True).start()
    return result


def _cache_report(check: Future[str | None] | str | None, waited: float) -> dict[str, Any]:
    if check is None:
        return {"status": "local"}
    if isinstance(check, str):
        problem: str | None = check
    else:
        try:
            problem = check.result(timeout=max(0.0, waited))
        except TimeoutError:
            problem = "no answer in time"
    report: dict[str, Any] = {"status": "ok" if problem is None else "unavailable"}
    if problem is not None:
        report["reason"] = problem
    try:
        from django_redis import get_redis_connection

        breaker = getattr(get_redis_connection("default"), "breaker", None)
    except Exception:  # the report goes without the breaker
        breaker = None
    if breaker is not None:
        report.update(breaker.report())
    return report


def _broker_report() -> dict[str, Any] | None:
    if app.conf.task_always_eager:
        return None
    return broker_breaker(app).report()


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 {"status": "ok"} when the database answers a trivial query in time, else 503.

    The cache and the broker are reported in the body, whatever the status.
    """
    timeout = settings.HEALTHZ_TIMEOUT
    deadline = time.monotonic() + timeout
    database = _start_database_check()
    cache = _start_cache_check()
    problem = _database_outcome(database, timeout, deadline - time.monotonic())
    services: dict[str, Any] = {"cache": _cache_report(cache, deadline - time.monotonic())}
    broker = _broker_report()
    if broker is not None:
        services["broker"] = broker
    if problem is not None:
        logger.error("Health check: the database did not answer (%s)", problem)
        return JsonResponse(
            {"status": "unavailable", "database": "error", "reason": problem, **services},
            status=503,
        )
    return JsonResponse({"status": "ok", **services})
