"""Liveness and readiness probe for load balancers and container health checks."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.api.throttles import CACHE_FAILURES

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 {"status": "ok"} when the database answers a trivial query, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer")
        return JsonResponse({"status": "unavailable", "database": "error"}, status=503)
    return JsonResponse(
        {"status": "ok", "rate_limit_cache_failures": CACHE_FAILURES.count}
    )
