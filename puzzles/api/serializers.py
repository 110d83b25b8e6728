"""Request validation of the puzzles API (strict, as the play API's) and response shapes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import STEP_MAX, StrictCharField, StrictIntegerField, StrictSerializer
from puzzles.engines.registry import KINDS

PAYLOAD_MAX_FIELDS = 8
PUZZLE_KINDS = sorted(KINDS)


# Component names in the schema start with "Puzzle": the play API's names stay free,
# and no name is another's plus a field (generated clients name an inline object
# of component X, field y, "XY": Action.result would have clashed with ActionResult).


class AttemptCreateSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=PUZZLE_KINDS, help_text="The puzzle kind.")
    size = StrictIntegerField(required=False, min_value=1, max_value=64)
    difficulty = StrictCharField(required=False, max_length=16)
    seed = StrictIntegerField(required=False, min_value=0, max_value=2**63 - 1)

    class Meta:
        ref_name = "PuzzleAttemptCreate"

    def request_schema_rules(self) -> dict[str, Any]:
        """Each kind's sizes and difficulties, for the API schema (decodoku_site.schema)."""
        return {
            "allOf": [
                {
                    "if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
                    "then": {
                        "properties": {
                            "size": {"minimum": kind.min_size, "maximum": kind.max_size},
                            "difficulty": {"enum": list(kind.difficulties)},
                        }
                    },
                }
                for name, kind in sorted(KINDS.items())
            ]
        }


@extend_schema_field(
    {"type": "object", "additionalProperties": {}, "maxProperties": PAYLOAD_MAX_FIELDS}
)
class ActionPayloadInputField(serializers.DictField):
    """An action's payload as sent: at most PAYLOAD_MAX_FIELDS fields (the schema says so)."""


class ActionCreateSerializer(StrictSerializer):
    step = StrictIntegerField(
        min_value=0,
        max_value=STEP_MAX,
        help_text=(
            "Number of actions recorded so far, as last seen by the client. Resending an "
            "action with the same step is safe: the recorded result is returned."
        ),
    )
    kind = StrictCharField(max_length=16, help_text="entry, erase, candidate, undo, hint, check")
    payload = ActionPayloadInputField(
        required=False, help_text='For example {"cell": [0, 1], "value": 3}.'
    )
    client_time = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the player acted, by the client's clock."
    )

    class Meta:
        ref_name = "PuzzleActionCreate"

    def validate_payload(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > PAYLOAD_MAX_FIELDS:
            raise serializers.ValidationError("Too many fields.")
        return value


@extend_schema_field(
    {"type": "object", "additionalProperties": {}}, component_name="PuzzleActionPayload"
)
class ActionPayloadField(serializers.DictField):
    """The action's payload, as sent (its fields depend on the kind of action)."""


@extend_schema_field(
    {"type": "object", "additionalProperties": {}}, component_name="PuzzleActionOutcome"
)
class ActionOutcomeField(serializers.DictField):
    """What the action did (its fields depend on the puzzle and the kind of action)."""


class ActionSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    kind = serializers.CharField()
    payload = ActionPayloadField()
    result = ActionOutcomeField()
    server_time = serializers.DateTimeField()
    elapsed_ms = serializers.IntegerField()

    class Meta:
        ref_name = "PuzzleAction"


class RecordedActionSerializer(ActionSerializer):
    """An action as an ended attempt lists it: with its solving technique and whether it was
    right."""

    technique = serializers.CharField(allow_blank=True)
    correct = serializers.BooleanField(allow_null=True)

    class Meta:
        ref_name = "PuzzleRecordedAction"


class AttemptSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    size = serializers.IntegerField()
    engine_version = serializers.IntegerField()
    difficulty = serializers.CharField()
    status = serializers.CharField()
    step = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    solve_seconds = serializers.FloatField(allow_null=True)
    puzzle = serializers.DictField(required=False)
    state = serializers.DictField(required=False)
    can_undo = serializers.BooleanField(required=False)
    seed = serializers.IntegerField(required=False, help_text="Only once the attempt has ended.")
    solution = serializers.ListField(required=False, help_text="Only once it has ended.")
    actions = RecordedActionSerializer(many=True, required=False)

    class Meta:
        ref_name = "PuzzleAttempt"


class ActionResultSerializer(serializers.Serializer):
    attempt = AttemptSerializer(help_text="The attempt after the action (as GET returns).")
    action = ActionSerializer()
    replayed = serializers.BooleanField()

    class Meta:
        ref_name = "PuzzleActionResult"
