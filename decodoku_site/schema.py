"""drf-spectacular's schema class and hooks: the schema says what the API enforces.

* :class:`SiteAutoSchema` (``DEFAULT_SCHEMA_CLASS``): a request body read by a
  strict serializer (``core.api.serializers.StrictSerializer``, which refuses
  fields it does not know) declares ``additionalProperties: false``; rules
  between fields that no single field can state (a planar game has no
  variant and is played in normal mode; each puzzle kind has its own sizes
  and difficulties) come from the serializer's ``request_schema_rules``, JSON
  Schema keywords merged into its request component.
  An operation whose view has no permissions says that it needs no token.
* :func:`add_common_errors`: what every operation of the API may answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

from core.api.serializers import StrictSerializer

# Answers any operation can give, whatever it does (see docs/security.md).
COMMON_ERRORS = {
    # A path parameter can spell another endpoint's path (an attempt id "check" is the
    # path of puzzles/check/), which may not take the method.
    "405": "The path is an endpoint that does not take this method (method_not_allowed).",
    "414": "The URL is longer than the site reads (error code uri_too_long, with limit).",
    "500": "An unexpected error on the server (error code server_error).",
    "503": "The database cannot be reached right now (service_unavailable; see Retry-After).",
}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Text without NUL, in the regular expressions of JSON Schema (ECMA 262) and Python.
# One character at least: drf-spectacular offers the empty text of a field that
# allows it as a second choice (oneOf), which must not overlap this one.
NO_NUL_CHARACTER = "^[^\\u0000]+$"


def add_common_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Document the 405, 414, 500 and 503 answers, in the API's error body, on every
    operation."""
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


class SiteAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus what strict request serializers enforce."""

    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        # A view without permissions (the daily challenge's pages) answers anyone;
        # a token, when sent, only adds the caller's own game.
        if not self.view.get_permissions() and {} not in auths:
            auths.append({})
        return auths

    def _map_serializer_field(
        self, field: serializers.Field, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction != "request":
            return schema
        # DRF's CharField refuses NUL ("Null characters are not allowed.").
        if (
            isinstance(field, serializers.CharField)
            and schema.get("type") in ("string", ["string", "null"])
            and not {"enum", "pattern", "format"} & set(schema)
        ):
            schema["pattern"] = NO_NUL_CHARACTER
        # An upload that may not be empty (DRF's FileField: "The submitted file is empty.").
        if (
            isinstance(field, serializers.FileField)
            and not field.allow_empty_file
            and schema.get("format") == "binary"
        ):
            schema["minLength"] = 1
        return schema

    def _map_basic_serializer(
        self, serializer: serializers.Serializer, direction: str
    ) -> dict[str, Any]:
        result: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction != "request":
            return result
        if isinstance(serializer, StrictSerializer):
            result["additionalProperties"] = False
        rules = getattr(serializer, "request_schema_rules", None)
        if rules:
            result.update(rules() if callable(rules) else rules)
        return result
