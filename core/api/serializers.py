"""The API framework's serializers, shared by every app's API.

Request serializers are strict: numbers must be whole (not strings, fractions
or booleans; ``3.0`` is 3, as JSON Schema's ``integer`` says), within bounds,
and unknown fields are refused, so that a typo never passes silently; the API
schema says so (``additionalProperties: false``, ``decodoku_site.schema``).
The error body's serializers describe ``core.api.error_body`` for the schema.
"""

from __future__ import annotations

import math
from typing import Any

from rest_framework import serializers

from core.api import ERROR_CODES

INT32_MAX = 2**31 - 1
# The largest step a request may name (a game's or a puzzle attempt's).
STEP_MAX = 10**9


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: strings, fractions and booleans are refused.

    A number written with a zero fraction (``3.0``) is the integer 3: JSON does
    not tell the two apart, and the schema's ``type: integer`` admits it.
    """

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, float) and math.isfinite(data) and data.is_integer():
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFloatField(serializers.FloatField):
    """A JSON number (an integer or not): strings, booleans and non-finite values are refused."""

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        if not math.isfinite(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: numbers and booleans are refused rather than turned into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["This field is not known."] for name in unknown}
                )
        return super().to_internal_value(data)


# -- the error body ----------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=list(ERROR_CODES.items()),
        help_text="Stable machine-readable code (docs/api.md#errors).",
    )
    message = serializers.CharField(help_text="Human-readable explanation.")
    current_step = serializers.IntegerField(
        required=False, help_text="The game's current step (move conflicts)."
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled and service_unavailable: seconds to wait."
    )
    limit = serializers.IntegerField(
        required=False,
        help_text="The limit that was passed: bytes (file_too_large), characters "
        "(uri_too_long), levels (nesting_too_deep), the value of the limit reason names "
        "(upload_limit).",
    )
    step = serializers.IntegerField(required=False, allow_null=True)
    line = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(required=False)
    game_id = serializers.UUIDField(
        required=False, help_text="daily_already_played: the player's game of that day."
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # "fields" would hide Serializer.fields if it were declared as an attribute.
        fields = super().get_fields()
        fields["fields"] = serializers.DictField(
            required=False, help_text="invalid_request only: the problems by request field."
        )
        return fields


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()
