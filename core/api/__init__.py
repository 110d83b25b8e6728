"""One error body for the whole site, and the API's exception handler that writes it.

    {"error": {"code": "<stable code>", "message": "<human text>", ...details}}

Details depend on the error: ``fields`` (which request fields were wrong and
why), ``current_step`` (for move conflicts), ``retry_after`` (seconds, when
throttled), ``step``/``line``/``reason`` (for rejected save files).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from core.concurrency import Busy
from core.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    RuleViolation,
)

# Every code an error body can carry, with what it means: the one list the API
# schema's ErrorDetail.code enum is made of (tests/hostile/test_error_codes.py
# finds every code the code base raises and checks that it is listed here).
ERROR_CODES: dict[str, str] = {
    # 400
    "parse_error": "The body is not valid JSON (or holds text that is not valid Unicode).",
    "nesting_too_deep": "The JSON body nests arrays and objects too deep (limit, levels).",
    "invalid_request": "Wrong types, missing or unknown fields, values out of range (fields).",
    "bad_request": "The request is malformed (for example a bad Host header).",
    "domain_error": "The request could not be carried out.",
    "invalid_rule_set": "The rule set asked for is not valid.",
    "unplayable_rule_set": "No first board can be drawn under the rule set asked for.",
    "invalid_step": "There is no board or state at that step.",
    "invalid_filter": "A research export filter cannot be used.",
    "level_not_reached": "No puzzle of the level asked for came from the seed and size "
    "(the message names the levels reached).",
    "invalid_puzzle": "A player's puzzle is not a puzzle, or cannot be played (the message "
    "names the cage, cell or sign).",
    "display_name_length": "The display name is too short or too long.",
    "display_name_characters": "The display name holds characters it may not hold.",
    "display_name_offensive": "The display name holds a word on the blocked list.",
    "display_name_invalid": "The display name is not acceptable.",
    # 401, 403
    "not_authenticated": "No token and no session.",
    "invalid_token": "The token is malformed or unknown.",
    "csrf_failed": "A session request without the CSRF token.",
    "permission_denied": "The caller may not do this.",
    # 404, 405, 406, 415
    "not_found": "No such object (or not the caller's), or no endpoint at that path.",
    "method_not_allowed": "The endpoint does not take that method.",
    "not_acceptable": "The endpoint cannot answer in the type the Accept header asks for.",
    "unsupported_media_type": "The body is not of a type the endpoint reads.",
    # 409
    "conflict": "The request does not fit the object's current state.",
    "stale_step": "The game or attempt is at another step (current_step).",
    "game_over": "The game or attempt has ended (current_step).",
    "game_not_finished": "Only a finished game can be shared.",
    "daily_day_open": "A daily-challenge game can be shared once its day is over.",
    "daily_already_played": "The player has played this day's challenge (game_id).",
    "display_name_taken": "Another player has this display name.",
    "consent_choice_required": "A game from the web page of a player who has not yet "
    "answered the research question (POST /api/v1/me/consent/ records the answer).",
    # 413, 414
    "request_too_large": "The body is larger than the API reads.",
    "file_too_large": "The upload is larger than the limit (limit, bytes).",
    "uri_too_long": "The URL is longer than the site reads (limit, characters).",
    # 422
    "rule_violation": "What was sent breaks a rule of the game.",
    "illegal_move": "The move is not allowed.",
    "off_grid": "A cell of the move is off the grid.",
    "not_adjacent": "The cells of the move are not neighbours.",
    "empty_source": "There is no number in the cell the move starts from.",
    "closed_side": "A planar game's numbers leave only through the left and right sides.",
    "illegal_action": "The puzzle action does not fit the grid.",
    "invalid_save": "The save file is not a valid Decodoku game.",
    "invalid_save_file": "The file cannot be read as a save file (step, line, reason).",
    "save_breaks_rules": "The save file breaks a rule of the game (step, line, reason).",
    "archive_refused": "The archive cannot be read (reason).",
    "upload_limit": (
        "The upload holds more than one upload may unpack or take to read: reason names the "
        "limit (entries, unpacked_bytes, entry_bytes, depth, ratio, too_slow), limit its "
        "value. Nothing is stored."
    ),
    # 429
    "throttled": "Too many requests (retry_after, and the Retry-After header).",
    # 5xx
    "server_error": "An unexpected error on the server.",
    "service_unavailable": "The database cannot be reached right now (retry_after).",
    "busy": "The server is running as many requests of this kind (heavy work: kind) as it "
    "allows at once; try again after retry_after seconds (the Retry-After header).",
}

# Checked in order: the first class that matches gives the status.
DOMAIN_STATUS: tuple[tuple[type[DomainError], int], ...] = (
    (Busy, status.HTTP_503_SERVICE_UNAVAILABLE),
    (NotFound, status.HTTP_404_NOT_FOUND),
    (Conflict, status.HTTP_409_CONFLICT),
    (RuleViolation, status.HTTP_422_UNPROCESSABLE_ENTITY),
    (PayloadTooLarge, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE),
    (InvalidInput, status.HTTP_400_BAD_REQUEST),
    (DomainError, status.HTTP_400_BAD_REQUEST),
)

# Stable codes for DRF's own exceptions, whatever their message.
DRF_CODES: tuple[tuple[type[exceptions.APIException], str], ...] = (
    (exceptions.ParseError, "parse_error"),
    (exceptions.ValidationError, "invalid_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def _text(value: Any) -> str:
    """``value`` as text that can be written as UTF-8: a lone surrogate becomes its escape."""
    text = str(value)
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _plain(detail: Any) -> Any:
    """ErrorDetail objects (and nested lists and dicts of them) as plain JSON values."""
    if isinstance(detail, dict):
        return {_text(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, list | tuple):
        return [_plain(item) for item in detail]
    return _text(detail)


def _first_message(detail: Any, path: str = "") -> str:
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        label = "" if key == "non_field_errors" else str(key)
        return _first_message(value, f"{path}.{label}" if path and label else path or label)
    if isinstance(detail, list | tuple) and detail:
        return _first_message(detail[0], path)
    return _text(f"{path}: {detail}" if path else detail)


def _validation_response(exc: exceptions.ValidationError) -> Response:
    detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    return Response(
        error_body(
            "invalid_request",
            f"The request is not valid: {_first_message(detail)}",
            fields=_plain(detail),
        ),
        status=status.HTTP_400_BAD_REQUEST,
    )


def _domain_response(exc: DomainError) -> Response:
    code = next(status_code for cls, status_code in DOMAIN_STATUS if isinstance(exc, cls))
    headers = {}
    if "retry_after" in exc.extra:
        headers["Retry-After"] = str(exc.extra["retry_after"])
    return Response(error_body(exc.code, exc.message, **exc.extra), status=code, headers=headers)


def _api_exception_response(exc: exceptions.APIException) -> Response:
    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = str(auth_header)
    code = next((code for cls, code in DRF_CODES if isinstance(exc, cls)), None)
    if code is None:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(getattr(exc, "wait", None) or 1))
        headers["Retry-After"] = str(wait)
        extra["retry_after"] = wait
        message = f"Too many requests; try again in {wait} s."
    else:
        message = _first_message(exc.detail)
    return Response(error_body(code, message, **extra), status=exc.status_code, headers=headers)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The API's ``EXCEPTION_HANDLER``. Unknown exceptions are left to Django (a 500)."""
    if isinstance(exc, DomainError):
        response = _domain_response(exc)
    elif isinstance(exc, exceptions.ValidationError):
        response = _validation_response(exc)
    elif isinstance(exc, exceptions.APIException):
        response = _api_exception_response(exc)
    elif isinstance(exc, Http404):
        response = Response(error_body("not_found", "Not found."), status=404)
    elif isinstance(exc, DjangoPermissionDenied):
        response = Response(error_body("permission_denied", "Permission denied."), status=403)
    elif isinstance(exc, RequestDataTooBig):
        response = Response(
            error_body("request_too_large", "The request body is too large."), status=413
        )
    elif isinstance(exc, SuspiciousOperation):
        response = Response(error_body("bad_request", "The request is malformed."), status=400)
    else:
        return None
    set_rollback()
    return response


@csrf_exempt
def api_not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """JSON 404 for any URL under /api/v1/ that names no endpoint, whatever the method.

    CSRF-exempt: it changes nothing, and a 403 page would hide the real answer.
    """
    message = f"There is no API endpoint at {request.path}."
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message += f" Did you mean {request.path}/ ?"
    return JsonResponse(error_body("not_found", message), status=404)
