"""drf-spectacular hooks: what every operation of the API may answer."""

from __future__ import annotations

from typing import Any

# Answers any operation can give, whatever it does (see docs/security.md).
COMMON_ERRORS = {
    "414": "The URL is longer than the site reads (error code uri_too_long, with limit).",
    "500": "An unexpected error on the server (error code server_error).",
    "503": "The database cannot be reached right now (service_unavailable; see Retry-After).",
}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def add_common_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Document the 414, 500 and 503 answers, in the API's error body, on every operation."""
    if "Error" not in result.get("components", {}).get("schemas", {}):
        return result
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in COMMON_ERRORS.items():
                responses.setdefault(status, {"description": description, "content": body})
    return result
