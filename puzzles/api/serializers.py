"""Request validation of the puzzles API (strict, as the play API's) and response shapes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api.serializers import STEP_MAX, StrictCharField, StrictIntegerField, StrictSerializer
from puzzles.engines.decodoku.platform import KIND as DECODOKU
from puzzles.engines.puzzle_id import MAX_ID_LENGTH
from puzzles.engines.registry import KINDS
from puzzles.services import MAX_BATCH_ACTIONS

PAYLOAD_MAX_FIELDS = 8
PUZZLE_KINDS = sorted(KINDS)


# Component names in the schema start with "Puzzle": the play API's names stay free,
# and no name is another's plus a field (generated clients name an inline object
# of component X, field y, "XY": Action.result would have clashed with ActionResult).


class OfferedLevelsSerializer(serializers.Serializer):
    kind = serializers.CharField()
    size = serializers.IntegerField()
    levels = serializers.ListField(
        child=serializers.CharField(),
        help_text="The levels offered, easiest first: each came for at least 19 of 20 fresh "
        "seeds within 4 CPU seconds.",
    )
    any = serializers.BooleanField(help_text="Whether a puzzle of no level in particular is.")


class AttemptCreateSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=PUZZLE_KINDS, help_text="The puzzle kind.")
    size = StrictIntegerField(required=False, min_value=1, max_value=64)
    difficulty = StrictCharField(required=False, max_length=16)
    seed = StrictIntegerField(required=False, min_value=0, max_value=2**63 - 1)
    number = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=999,
        help_text="decodoku only: a published puzzle's number (then no size, difficulty or seed).",
    )

    class Meta:
        ref_name = "PuzzleAttemptCreate"

    def request_schema_rules(self) -> dict[str, Any]:
        """Each kind's sizes and difficulties, for the API schema (decodoku_site.schema);
        ``number`` (a published Decodoku puzzle) only with kind decodoku and alone."""
        by_kind = [
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
        published_alone = {
            "if": {"required": ["number"]},
            "then": {
                "properties": {"kind": {"const": DECODOKU}},
                "not": {"anyOf": [{"required": [name]} for name in ("size", "difficulty", "seed")]},
            },
        }
        return {"allOf": [*by_kind, published_alone]}


@extend_schema_field(
    {"type": "object", "additionalProperties": {}, "maxProperties": PAYLOAD_MAX_FIELDS}
)
class ActionPayloadInputField(serializers.DictField):
    """An action's payload as sent: at most PAYLOAD_MAX_FIELDS fields (the schema says so)."""


class BatchActionSerializer(StrictSerializer):
    """One action: what a single request sends besides its step, and an item of a batch."""

    kind = StrictCharField(
        max_length=16,
        help_text="entry, erase, candidate, undo, hint, check; 2mino: toggle, reset; decodoku: "
        "link, unlink, check, answer",
    )
    payload = ActionPayloadInputField(
        required=False, help_text='For example {"cell": [0, 1], "value": 3}.'
    )
    client_time = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the player acted, by the client's clock."
    )

    class Meta:
        ref_name = "PuzzleBatchAction"

    def validate_payload(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > PAYLOAD_MAX_FIELDS:
            raise serializers.ValidationError("Too many fields.")
        return value


class ActionCreateSerializer(BatchActionSerializer):
    step = StrictIntegerField(
        min_value=0,
        max_value=STEP_MAX,
        help_text=(
            "Number of actions recorded so far, as last seen by the client. Resending an "
            "action with the same step is safe: the recorded result is returned."
        ),
    )

    class Meta:
        ref_name = "PuzzleActionCreate"


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
    puzzle_id = serializers.CharField(
        required=False,
        help_text="KenKen, Futoshiki and their variants: the puzzle's ID "
        "(kind:size:description), without "
        "seed or solution: shown during play; POST it to from-id/ to play the same puzzle.",
    )
    state = serializers.DictField(required=False)
    can_undo = serializers.BooleanField(required=False)
    seed = serializers.IntegerField(required=False, help_text="Only once the attempt has ended.")
    solution = serializers.JSONField(
        required=False,
        help_text="Only once it has ended: a grid or tiling; decodoku: an object (corners, "
        "minimum, corner, ties, explanation).",
    )
    actions = RecordedActionSerializer(many=True, required=False)

    class Meta:
        ref_name = "PuzzleAttempt"


class ActionBatchCreateSerializer(StrictSerializer):
    step = StrictIntegerField(
        min_value=0,
        max_value=STEP_MAX,
        help_text="Number of actions recorded so far, as last seen by the client; the batch's "
        "actions become steps step + 1, step + 2, ... Resending a batch is safe.",
    )
    actions = serializers.ListField(
        child=BatchActionSerializer(),
        min_length=1,
        max_length=MAX_BATCH_ACTIONS,
        help_text=f"1 to {MAX_BATCH_ACTIONS} actions, applied in order.",
    )

    class Meta:
        ref_name = "PuzzleActionBatchCreate"


class ActionBatchResultSerializer(serializers.Serializer):
    attempt = AttemptSerializer(help_text="The attempt after the batch (as GET returns).")
    actions = ActionSerializer(
        many=True,
        help_text="The actions recorded, in order (fewer than sent when one solved the puzzle).",
    )
    replayed = serializers.BooleanField()

    class Meta:
        ref_name = "PuzzleActionBatchResult"


class ActionResultSerializer(serializers.Serializer):
    attempt = AttemptSerializer(help_text="The attempt after the action (as GET returns).")
    action = ActionSerializer()
    replayed = serializers.BooleanField()

    class Meta:
        ref_name = "PuzzleActionResult"


# -- puzzles that players make or open from an ID (the four Latin-square kinds) -----

OWN_KINDS = ["kenken", "kenken-multiply", "futoshiki", "futoshiki-adjacent"]
# Each kind's sizes are its registry entry's; the field limits take the largest.
OWN_SIZES = {kind: (KINDS[kind].min_size, KINDS[kind].max_size) for kind in OWN_KINDS}
OWN_SIZE = (min(low for low, _ in OWN_SIZES.values()), max(high for _, high in OWN_SIZES.values()))
OWN_CAGE_CELLS_MAX = 8
OWN_CELLS_MAX = OWN_SIZE[1] * OWN_SIZE[1]
OWN_RELATIONS_MAX = 2 * OWN_SIZE[1] * (OWN_SIZE[1] - 1)
OWN_TARGET_MAX = 9**9
OWN_OPS = ["+", "-", "x", "/", "="]
OWN_FORMATS = ["decodoku-lab-puzzle"]
OWN_VERDICTS = ["none", "one", "many", "unknown"]
OWN_MODES = ["adjacent"]
# The fields that describe a puzzle of each kind (besides kind and size), and those it
# must have. A sub-kind's own marks ("operations", "mode") are what its puzzles record.
OWN_FIELDS: dict[str, frozenset[str]] = {
    "kenken": frozenset({"cages"}),
    "kenken-multiply": frozenset({"cages", "operations"}),
    "futoshiki": frozenset({"givens", "relations"}),
    "futoshiki-adjacent": frozenset({"givens", "bars", "mode"}),
}
OWN_REQUIRED: dict[str, frozenset[str]] = {
    "kenken": frozenset({"cages"}),
    "kenken-multiply": frozenset({"cages"}),
    "futoshiki": frozenset(),
    "futoshiki-adjacent": frozenset(),
}
OWN_DESCRIBING = frozenset().union(*OWN_FIELDS.values())


class OwnCellField(serializers.ListField):
    """A cell as ``[row, col]``, both from 0."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_length", 2)
        kwargs.setdefault("max_length", 2)
        super().__init__(child=StrictIntegerField(min_value=0, max_value=OWN_SIZE[1] - 1), **kwargs)


class OwnCageSerializer(StrictSerializer):
    cells = serializers.ListField(child=OwnCellField(), min_length=1, max_length=OWN_CAGE_CELLS_MAX)
    op = serializers.ChoiceField(
        choices=OWN_OPS, help_text="+, -, x, / or = (one cell); kenken-multiply: x or =."
    )
    target = StrictIntegerField(min_value=1, max_value=OWN_TARGET_MAX)

    class Meta:
        ref_name = "PuzzleOwnCage"


class OwnRelationSerializer(StrictSerializer):
    a = OwnCellField()
    b = OwnCellField(help_text="A neighbour of a.")
    op = serializers.ChoiceField(choices=["<", ">"], help_text="a < b or a > b.")

    class Meta:
        ref_name = "PuzzleOwnSign"


class OwnBarSerializer(StrictSerializer):
    a = OwnCellField()
    b = OwnCellField(help_text="A neighbour of a whose value differs from a's by one.")

    class Meta:
        ref_name = "PuzzleOwnBar"


class OwnPuzzleSerializer(StrictSerializer):
    """A player's KenKen (cages), Futoshiki (givens and signs) or one of their variants;
    the puzzle file format."""

    format = serializers.ChoiceField(
        choices=OWN_FORMATS, required=False, help_text="Set in puzzle files."
    )
    version = StrictIntegerField(
        required=False, min_value=1, max_value=1, help_text="The file format's version."
    )
    kind = serializers.ChoiceField(choices=OWN_KINDS)
    size = StrictIntegerField(
        min_value=OWN_SIZE[0],
        max_value=OWN_SIZE[1],
        help_text="KenKen and kenken-multiply 3 to 9, Futoshiki 4 to 10, futoshiki-adjacent "
        "4 to 16.",
    )
    engine_version = StrictIntegerField(
        required=False, min_value=1, max_value=99, help_text="Ignored (stored puzzles carry it)."
    )
    cages = serializers.ListField(
        child=OwnCageSerializer(),
        required=False,
        min_length=1,
        max_length=OWN_CELLS_MAX,
        help_text="KenKen and kenken-multiply: cages covering every cell once, each contiguous.",
    )
    operations = serializers.ListField(
        child=serializers.ChoiceField(choices=["x"]),
        required=False,
        min_length=1,
        max_length=1,
        help_text='kenken-multiply: ["x"], as its puzzles record it.',
    )
    givens = serializers.ListField(
        child=serializers.ListField(
            child=StrictIntegerField(min_value=0, max_value=OWN_SIZE[1]), min_length=3, max_length=3
        ),
        required=False,
        max_length=OWN_CELLS_MAX,
        help_text="Futoshiki and futoshiki-adjacent: [row, col, value] of the cells shown filled.",
    )
    relations = serializers.ListField(
        child=OwnRelationSerializer(),
        required=False,
        max_length=OWN_RELATIONS_MAX,
        help_text="Futoshiki: the signs between neighbouring cells.",
    )
    bars = serializers.ListField(
        child=OwnBarSerializer(),
        required=False,
        max_length=OWN_RELATIONS_MAX,
        help_text="futoshiki-adjacent: a bar between every two neighbours one apart (two "
        "neighbours without one are not).",
    )
    mode = serializers.ChoiceField(
        choices=OWN_MODES, required=False, help_text="futoshiki-adjacent: adjacent."
    )

    class Meta:
        ref_name = "PuzzleOwn"

    def request_schema_rules(self) -> dict[str, Any]:
        """Each kind its sizes and its fields: cages for the KenKen kinds, givens and signs
        for Futoshiki, givens and bars for futoshiki-adjacent."""
        rules = []
        for kind in OWN_KINDS:
            low, high = OWN_SIZES[kind]
            other = sorted(OWN_DESCRIBING - OWN_FIELDS[kind])
            then: dict[str, Any] = {
                "properties": {"size": {"minimum": low, "maximum": high}},
                "not": {"anyOf": [{"required": [field]} for field in other]},
            }
            if OWN_REQUIRED[kind]:
                then["required"] = sorted(OWN_REQUIRED[kind])
            rules.append(
                {
                    "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                    "then": then,
                }
            )
        return {"allOf": rules}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        kind = attrs["kind"]
        low, high = OWN_SIZES[kind]
        if not low <= attrs["size"] <= high:
            raise serializers.ValidationError(
                {"size": [f"A {kind} is {low} to {high} cells wide."]}
            )
        foreign = sorted(field for field in OWN_DESCRIBING - OWN_FIELDS[kind] if field in attrs)
        if foreign:
            takes = ", ".join(sorted(OWN_FIELDS[kind]))
            raise serializers.ValidationError(f"A {kind} takes {takes}; not {', '.join(foreign)}.")
        for field in sorted(OWN_REQUIRED[kind] - attrs.keys()):
            raise serializers.ValidationError({field: [f"A {kind} needs its {field}."]})
        return attrs


class OwnCheckSerializer(OwnPuzzleSerializer):
    reveal = serializers.BooleanField(
        required=False, default=False, help_text="Answer the solution too (when there is one)."
    )

    class Meta:
        ref_name = "PuzzleOwnCheck"


class OwnVerdictSerializer(serializers.Serializer):
    kind = serializers.CharField()
    size = serializers.IntegerField()
    solutions = serializers.ChoiceField(
        choices=OWN_VERDICTS,
        help_text="unknown: the checker's budget (max_nodes search nodes, or cpu_seconds of "
        "processor time) ran out first.",
    )
    level = serializers.CharField(
        allow_null=True, help_text="The grading ladder's level when there is one solution."
    )
    level_rank = serializers.IntegerField(allow_null=True, help_text="1 (easiest) to 5.")
    max_nodes = serializers.IntegerField(help_text="The checker's search budget.")
    cpu_seconds = serializers.FloatField(
        help_text="The checker's processor-time budget (seconds, one request)."
    )
    solution = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        help_text="Only when asked (reveal) and there is one solution.",
    )

    class Meta:
        ref_name = "PuzzleOwnVerdict"


class PuzzleIdSerializer(StrictSerializer):
    id = StrictCharField(
        max_length=MAX_ID_LENGTH,
        help_text="A puzzle ID as an attempt shows it: kind:size:description.",
    )

    class Meta:
        ref_name = "PuzzleFromId"
