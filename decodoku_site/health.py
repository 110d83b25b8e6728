"""Liveness and readiness probe for load balancers and container health checks.

The probe answers within ``HEALTHZ_TIMEOUT`` seconds whatever the database
does: the check runs in a thread of its own (with its own connection, closed
afterwards) and the answer is 503 with the reason when it has not finished
in time. Only one check runs at a time; while a hung one is still waiting
for the database, further probes answer 503 at once instead of piling up
threads.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.api.throttles import CACHE_FAILURES

logger = logging.getLogger(__name__)

_running = threading.Lock()


def _check_database(result: Future[str | None]) -> None:
    try:
        connection = connections["default"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        result.set_result(None)
    except DatabaseError as exc:
        result.set_result(f"{type(exc).__name__}: {exc}".strip()[:200])
    except Exception as exc:  # never let the thread die silently
        result.set_result(f"{type(exc).__name__}: {exc}".strip()[:200])
    finally:
        connections.close_all()  # this thread's connections only
        _running.release()


def database_problem(timeout: float) -> str | None:
    """None when the database answered ``SELECT 1`` within ``timeout`` s, else the reason."""
    if not _running.acquire(blocking=False):
        return "an earlier check is still waiting for the database"
    result: Future[str | None] = Future()
    thread = threading.Thread(
        target=_check_database, args=(result,), name="healthz-database", daemon=True
    )
    thread.start()
    thread.join(timeout)
    if not result.done():
        return f"no answer within {timeout:g} s"
    return result.result()


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 {"status": "ok"} when the database answers a trivial query in time, else 503."""
    problem = database_problem(settings.HEALTHZ_TIMEOUT)
    counters = {"rate_limit_cache_failures": CACHE_FAILURES.count}
    if problem is not None:
        logger.error("Health check: the database did not answer (%s)", problem)
        return JsonResponse(
            {"status": "unavailable", "database": "error", "reason": problem, **counters},
            status=503,
        )
    return JsonResponse({"status": "ok", **counters})
