"""Error answers of the whole site: the API's JSON body under /api/, HTML pages elsewhere.

* :func:`server_error` is ``handler500``: an unexpected exception gives the
  API's error body (``{"error": {"code": "server_error", ...}}``) under
  ``/api/`` and Django's HTML page elsewhere. When the exception is a lost
  or refused database connection the answer is 503 with ``Retry-After``
  instead: the request may well succeed a little later.
* :class:`ServiceErrorsMiddleware` turns a database that cannot be reached
  into that 503 wherever a view raises it (and a heavy request refused for
  want of a free slot, ``core.concurrency.Busy``, into a 503 ``busy``), and
  refuses over-long URLs under ``/api/`` with a JSON 414 (gunicorn refuses
  still longer request lines itself, see docs/security.md).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from core.api import error_body
from core.concurrency import Busy

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# Longest URL path (with query string) the site reads; gunicorn is started with
# --limit-request-line above it, so that the API can answer 414 in JSON.
MAX_URL_LENGTH = 4096
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_ERRORS = (OperationalError, InterfaceError)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def unavailable(request: HttpRequest) -> HttpResponse:
    """503: the database cannot be reached right now."""
    message = "The service is briefly unavailable; try again in a few seconds."
    if is_api(request):
        response: HttpResponse = JsonResponse(
            error_body("service_unavailable", message, retry_after=RETRY_AFTER_SECONDS),
            status=503,
        )
    else:
        response = HttpResponse(
            f"<!doctype html><title>Unavailable</title><h1>Unavailable</h1><p>{message}</p>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def busy(request: HttpRequest, exc: Busy) -> HttpResponse:
    """503: every slot of this kind of heavy work is taken (core.concurrency)."""
    if is_api(request):
        response: HttpResponse = JsonResponse(
            error_body(exc.code, exc.message, **exc.extra), status=503
        )
    else:
        response = HttpResponse(
            f"<!doctype html><title>Busy</title><h1>Busy</h1><p>{exc.message}</p>", status=503
        )
    response["Retry-After"] = str(exc.extra.get("retry_after", RETRY_AFTER_SECONDS))
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: JSON under /api/, HTML elsewhere; 503 for an unreachable database."""
    exc = sys.exc_info()[1]
    if isinstance(exc, UNAVAILABLE_ERRORS):
        return unavailable(request)
    if is_api(request):
        return JsonResponse(
            error_body("server_error", "The server failed to answer this request."), status=500
        )
    return defaults.server_error(request)


class ServiceErrorsMiddleware:
    """503 for an unreachable database; JSON 414 for over-long API URLs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request) and len(request.get_full_path()) > MAX_URL_LENGTH:
            return JsonResponse(
                error_body(
                    "uri_too_long",
                    f"The URL is longer than {MAX_URL_LENGTH} characters.",
                    limit=MAX_URL_LENGTH,
                ),
                status=414,
            )
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Busy):
            return busy(request, exception)
        if isinstance(exception, UNAVAILABLE_ERRORS):
            logger.error("database unavailable: %s", exception)
            return unavailable(request)
        return None
