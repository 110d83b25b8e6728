"""Request validation and the documented shape of responses.

Request serializers are strict: numbers must be whole (not strings, fractions
or booleans; ``3.0`` is 3, as JSON Schema's ``integer`` says), within bounds,
and unknown fields are refused, so that a typo never passes silently; the API
schema says so (``additionalProperties: false``, ``decodoku_site.schema``).
Response serializers describe what the selectors build (``games.selectors``)
for the OpenAPI schema; views return that data directly.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from core.api.serializers import (
    INT32_MAX,
    STEP_MAX,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
    StrictSerializer,
)
from games.consent import ACCEPTED_CONSENT_VERSIONS
from games.engine import EVENT_TYPES, Family, Variant
from games.engine.planar.game import SIDE_CASE
from games.engine.rules import (
    MAX_ERROR_RATE,
    MAX_MODULUS,
    MAX_SIZE,
    MIN_ERROR_RATE,
    MIN_MODULUS,
    MIN_SIZE,
)
from games.models import Game
from games.names import DISPLAY_NAME_INPUT_MAX_LENGTH
from games.services.play import NOTE_MAX_LENGTH
from games.services.players import CONSENT_VERSION_MAX_LENGTH
from games.tokens import RECOVERY_INPUT_MAX_LENGTH

# A game's modes, named for the API schema (decodoku_site.settings ENUM_NAME_OVERRIDES).
GAME_MODES = Game.Mode.values
LOSS_AXES = ("top_bottom", "left_right", "both")


class CellField(serializers.ListField):
    """A cell as ``[row, col]``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_length", 2)
        kwargs.setdefault("max_length", 2)
        super().__init__(
            child=StrictIntegerField(min_value=-INT32_MAX, max_value=INT32_MAX), **kwargs
        )


# -- requests ------------------------------------------------------------------


@extend_schema_field(
    {"type": ["string", "null"], "enum": [*sorted(ACCEPTED_CONSENT_VERSIONS), None]}
)
class ConsentVersionField(StrictCharField):
    """A consent version or null: the schema lists the versions on record, as the services do."""


class PlayerCreateSerializer(StrictSerializer):
    consent_version = ConsentVersionField(
        required=False,
        allow_null=True,
        max_length=CONSENT_VERSION_MAX_LENGTH,
        help_text=(
            "The player's answer: the version of the research consent they agreed to, or "
            "null for no. Left out: the player counts as never asked (no consent)."
        ),
    )


class ConsentChangeSerializer(StrictSerializer):
    consent_version = ConsentVersionField(
        allow_null=True,
        max_length=CONSENT_VERSION_MAX_LENGTH,
        help_text="Version of the consent text the player now agrees to; null to withdraw.",
    )


class RestoreSerializer(StrictSerializer):
    recovery_code = StrictCharField(
        max_length=RECOVERY_INPUT_MAX_LENGTH,
        help_text="The recovery code shown on My games (case and dashes do not matter).",
    )


class DisplayNameSerializer(StrictSerializer):
    display_name = StrictCharField(
        allow_null=True,
        allow_blank=True,
        max_length=DISPLAY_NAME_INPUT_MAX_LENGTH,
        trim_whitespace=False,
        help_text="The name shown on leaderboards; null or empty to remove it.",
    )


class GameCreateSerializer(StrictSerializer):
    size = StrictIntegerField(
        required=False, min_value=MIN_SIZE, max_value=MAX_SIZE, help_text="L; 7 by default."
    )
    variant = serializers.ChoiceField(
        choices=[v.value for v in Variant],
        required=False,
        help_text="z10 by default (the original game only: a planar game has no variant).",
    )
    family = serializers.ChoiceField(
        choices=[Family.PLANAR.value],
        required=False,
        help_text=(
            "planar: a game of the planar code (docs/rules.md), with modulus and error_rate; "
            "absent for the original game."
        ),
    )
    modulus = StrictIntegerField(
        required=False, min_value=MIN_MODULUS, max_value=MAX_MODULUS,
        help_text="Planar games: d, the values are Z_d.",
    )
    error_rate = StrictFloatField(
        required=False, min_value=MIN_ERROR_RATE, max_value=MAX_ERROR_RATE,
        help_text="Planar games: p, the probability of an error on each edge.",
    )
    mode = serializers.ChoiceField(
        choices=GAME_MODES,
        required=False,
        help_text="normal by default; practice shows the groups.",
    )
    bot_name = StrictCharField(
        required=False, max_length=64,
        help_text="Your own bot's name, kept with the game as declared. The game stays your "
        "player's (source api or web): research data only with your research consent.",
    )
    bot_version = StrictCharField(
        required=False, max_length=32, allow_blank=True,
        help_text="Your bot's version, kept with its name.",
    )

    # What no single field says, for the API schema (decodoku_site.schema): a
    # planar game needs its modulus and error rate, has no variant and is played
    # in normal mode (games.api.views._requested_rules, games.services.play); the
    # original game has neither modulus nor error rate.
    request_schema_rules: typing.ClassVar[dict[str, Any]] = {
        "if": {"required": ["family"]},
        "then": {
            "required": ["modulus", "error_rate"],
            "properties": {"mode": {"enum": [Game.Mode.NORMAL.value]}},
            "not": {"required": ["variant"]},
        },
        "else": {"not": {"anyOf": [{"required": ["modulus"]}, {"required": ["error_rate"]}]}},
    }


class MoveCreateSerializer(StrictSerializer):
    step = StrictIntegerField(
        min_value=0,
        max_value=STEP_MAX,
        help_text=(
            "Number of moves made so far, as last seen by the client. Resending a move "
            "with the same step is safe: the recorded result is returned."
        ),
    )
    to = CellField(
        help_text=(
            "Destination cell [row, col]; in a planar game column -1 or L moves the number "
            "off the board through the left or right side."
        )
    )
    client_time = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the player moved, by the client's clock."
    )
    note = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=NOTE_MAX_LENGTH,
        trim_whitespace=False,
        help_text="The player's note on this move.",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # "from" is a Python keyword, so it cannot be declared as a class attribute.
        declared = super().get_fields()
        fields = {"step": declared.pop("step"), "from": CellField(help_text="Source cell.")}
        fields.update(declared)
        return fields


class NoteSerializer(StrictSerializer):
    note = StrictCharField(
        allow_blank=True, max_length=NOTE_MAX_LENGTH, trim_whitespace=False
    )


class HistoryQuerySerializer(StrictSerializer):
    step = StrictIntegerField(min_value=0, max_value=STEP_MAX, required=False)

    def to_internal_value(self, data: Any) -> Any:
        # Query strings carry text: read digits as an integer, refuse the rest.
        values = dict(data.items()) if hasattr(data, "items") else data
        step = values.get("step") if isinstance(values, dict) else None
        if isinstance(step, str):
            if not step.isascii() or not step.isdigit() or len(step) > 10:
                raise serializers.ValidationError({"step": ["A whole number is required."]})
            values["step"] = int(step)
        return super().to_internal_value(values)


class ImportSerializer(StrictSerializer):
    file = serializers.FileField(help_text="A save file of the original apps (CSV).")


# -- responses -----------------------------------------------------------------


class PlayerCreatedSerializer(serializers.Serializer):
    player_id = serializers.UUIDField()
    token = serializers.CharField(help_text="The API token, shown only this once.")
    token_prefix = serializers.CharField(help_text="The token's first characters (not secret).")


class ConsentRecordSerializer(serializers.Serializer):
    consent_version = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()


class PlayerConsentSerializer(serializers.Serializer):
    player_id = serializers.UUIDField()
    consent_version = serializers.CharField(allow_null=True)
    consented_at = serializers.DateTimeField(allow_null=True)
    consent_decided_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the player last answered (yes or no); null: never asked.",
    )
    history = ConsentRecordSerializer(many=True, help_text="Every choice, oldest first.")


class RecoveryCodeSerializer(serializers.Serializer):
    recovery_code = serializers.CharField(
        help_text="Shown only this once; replaces any earlier code."
    )


class RestoredSerializer(serializers.Serializer):
    player_id = serializers.UUIDField()


class MyGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    variant = serializers.CharField()
    size = serializers.IntegerField()
    mode = serializers.CharField()
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a value, not a field
        choices=Game.Source.values,
        help_text="Where the game was played: web, api, legacy_upload (a save file) or bot.",
    )
    score = serializers.IntegerField()
    rounds = serializers.IntegerField()
    status = serializers.CharField()
    daily_date = serializers.DateField(
        allow_null=True, help_text="The day whose daily challenge this game is."
    )
    percentile = serializers.FloatField(
        allow_null=True,
        help_text=(
            "Finished games: the share (percent) of everyone's finished games at the same "
            "rules (variant, size, noise budget, moves per round) and mode that scored less, "
            "ties counting half; null while active."
        ),
    )
    compared_with = serializers.IntegerField(
        allow_null=True, help_text="How many games the percentile compares with."
    )


class PersonalBestSerializer(serializers.Serializer):
    variant = serializers.CharField()
    size = serializers.IntegerField()
    mode = serializers.CharField()
    best_score = serializers.IntegerField()
    best_rounds = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Lost games counted.")


class StreakSerializer(serializers.Serializer):
    current = serializers.IntegerField(
        help_text="Consecutive days played up to today or yesterday."
    )
    longest = serializers.IntegerField()
    days_played = serializers.IntegerField()


class MyGamesSerializer(serializers.Serializer):
    player_id = serializers.UUIDField()
    display_name = serializers.CharField(allow_null=True)
    games = MyGameSerializer(many=True, help_text="Newest first (at most 200).")
    bests = PersonalBestSerializer(many=True, help_text="Per variant, size and mode.")
    streak = StreakSerializer()
    recovery_code_created_at = serializers.DateTimeField(allow_null=True)


class DailyEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField(help_text="The display name, else the pseudonym.")
    named = serializers.BooleanField(help_text="True when `player` is a display name.")
    you = serializers.BooleanField(help_text="The caller's own game.")
    score = serializers.IntegerField()
    rounds = serializers.IntegerField()
    status = serializers.CharField()
    ended_at = serializers.DateTimeField()


class DailyBotSerializer(serializers.Serializer):
    bot_name = serializers.CharField()
    bot_version = serializers.CharField()
    score = serializers.IntegerField()
    rounds = serializers.IntegerField()
    status = serializers.CharField()
    players_above = serializers.IntegerField(help_text="Players who scored more.")


class DailyMyGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
    score = serializers.IntegerField()


class DailyDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    players = serializers.IntegerField(help_text="Players who finished the day's game.")
    best_score = serializers.IntegerField(allow_null=True)
    best_bot_score = serializers.IntegerField(allow_null=True)


class RulesSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    # Every variant a stored game can have: uploaded Decodoku: Colors saves are "colors",
    # planar games "planar".
    variant = serializers.ChoiceField(
        choices=[value for value, _ in Game._meta.get_field("variant").choices or ()]
    )
    noise_budget = serializers.FloatField(help_text="0 for a planar game (no budget).")
    moves_per_round = serializers.IntegerField(
        help_text="0 for a planar game (no noise after its first board)."
    )
    merge_label = serializers.CharField(
        allow_blank=True, help_text="Empty for a planar game (it has no groups)."
    )
    family = serializers.ChoiceField(
        choices=[Family.PLANAR.value], allow_null=True,
        help_text="planar for a game of the planar code; null for the original game.",
    )
    modulus = serializers.IntegerField(allow_null=True, help_text="Planar games: d of Z_d.")
    error_rate = serializers.FloatField(
        allow_null=True, help_text="Planar games: p, per edge."
    )
    key = serializers.CharField()


class BoardSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="Moves made (save files: the step number).")
    t = serializers.IntegerField(help_text="The clock, which is the score.")
    rows = serializers.ListField(
        child=serializers.CharField(),
        help_text=(
            "One string per row, one character per cell: 0 empty, 1-9 the value; while a "
            "Phi-Lambda game is active, L for a 5 and P for any other number."
        ),
    )
    groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        allow_null=True,
        help_text="Group id of every cell (0 when empty); null while they are hidden.",
    )
    comment = serializers.CharField(allow_blank=True)


class LossSerializer(serializers.Serializer):
    t = serializers.IntegerField()
    axis = serializers.ChoiceField(choices=list(LOSS_AXES))
    group = serializers.IntegerField(required=False)


class LogicalOutcomeSerializer(serializers.Serializer):
    """A planar game's logical outcome, given once its board is clean."""

    charge = serializers.IntegerField(
        help_text="The charge carried rightwards across the left side, mod d."
    )
    failed = serializers.BooleanField(
        help_text="True when the charge is not 0: a logical error."
    )
    class_odds = serializers.FloatField(
        allow_null=True,
        help_text="The probability, given the first board's charges, of the logical class "
        "the game ended in (the chance such a game succeeds); null where the exact "
        "computation does not reach (d^L above 2^20).",
    )
    best_class_odds = serializers.FloatField(
        allow_null=True,
        help_text="The probability of the most likely class on the same board; null with "
        "class_odds.",
    )
    odds_text = serializers.CharField(
        help_text="The odds in words (empty when there are none)."
    )


# -- events: one shape per kind ---------------------------------------------------

# Engine event fields of type str that take one of a few values (games.engine.events).
EVENT_FIELD_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("noise", "case"): ("new_pair", "one_new", "both_occupied", SIDE_CASE),
    ("merge", "cause"): ("noise", "move"),
    ("jump", "reason"): ("empty_after_move", "empty_after_noise"),
    ("regenerated", "reason"): ("spanning", "empty"),
    ("loss", "axis"): LOSS_AXES,
}
# What the boards of a Phi-Lambda or Colors save file do not tell about a move:
# an imported game's move events have these as null (games.services.legacy).
MOVE_FIELDS_NULL_IN_SAVES = frozenset(
    {"value", "to_value_before", "to_value_after", "to_group_after", "annihilated"}
)
_SCALAR_FIELDS: dict[type, type[serializers.Field]] = {
    int: serializers.IntegerField,
    float: serializers.FloatField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
}


def _kind_field(kind: str) -> serializers.Field:
    """``kind``, always this one value: the discriminator of GameEvent."""
    field_class = extend_schema_field({"type": "string", "const": kind})(
        type(f"{_component_word(kind)}KindField", (serializers.CharField,), {})
    )
    return field_class(help_text="The event's kind.")


def _component_word(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def _event_field(kind: str, name: str, python_type: type) -> serializers.Field:
    nullable = kind == "move" and name in MOVE_FIELDS_NULL_IN_SAVES
    choices = EVENT_FIELD_CHOICES.get((kind, name))
    if choices is not None:
        return serializers.ChoiceField(choices=list(choices), allow_null=nullable)
    return _SCALAR_FIELDS[python_type](allow_null=nullable)


def _move_only_fields() -> dict[str, serializers.Field]:
    """What a stored move carries besides the engine's fields (games.recording)."""
    return {
        "client_time": serializers.DateTimeField(
            allow_null=True, help_text="When the player moved, by the client's clock."
        ),
        "server_time": serializers.DateTimeField(allow_null=True),
        "note": serializers.CharField(allow_blank=True, help_text="The player's note."),
        "move_certain": serializers.BooleanField(
            allow_null=True,
            help_text="Imported save files: whether the boards single the move out.",
        ),
        "explanations": serializers.IntegerField(
            allow_null=True,
            help_text="Imported save files: how many moves explain the same two boards.",
        ),
    }


def _event_serializer(kind: str, event_class: type) -> type[serializers.Serializer]:
    hints = typing.get_type_hints(event_class)
    declared: dict[str, Any] = {
        "seq": serializers.IntegerField(help_text="Order of the event in its game, from 0."),
        "kind": _kind_field(kind),
    }
    for field in dataclasses.fields(event_class):
        declared[field.name] = _event_field(kind, field.name, hints[field.name])
    if kind == "move":
        declared.update(_move_only_fields())
    name = f"{_component_word(kind)}Event"
    meta = type("Meta", (), {"ref_name": name})
    doc = (event_class.__doc__ or "").strip() or f"A {kind} event."
    return type(f"{name}Serializer", (serializers.Serializer,), {
        **declared, "Meta": meta, "__doc__": doc, "__module__": __name__,
    })


EVENT_SERIALIZERS: dict[str, Any] = {
    kind: _event_serializer(kind, event_class) for kind, event_class in EVENT_TYPES.items()
}
GAME_EVENT = PolymorphicProxySerializer(
    component_name="GameEvent",
    serializers=EVENT_SERIALIZERS,
    resource_type_field_name="kind",
    many=False,
)


@extend_schema_field(GAME_EVENT)
class GameEventField(serializers.DictField):
    """An engine event as the API writes it: ``seq``, ``kind`` and that kind's fields.

    Only its schema is typed (one shape per kind, discriminated by ``kind``);
    the views return the selectors' dictionaries as they are.
    """


def game_events_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=GameEventField(), **kwargs)


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    open = serializers.BooleanField(help_text="True while the day's challenge can be played.")
    rules = RulesSerializer()
    seed = serializers.CharField(allow_null=True, help_text="Given once the day is over.")
    my_game = DailyMyGameSerializer(allow_null=True)
    entries = DailyEntrySerializer(many=True, help_text="Finished games, best first.")
    playing = serializers.IntegerField(help_text="Games of the day still being played.")
    bots = DailyBotSerializer(many=True, help_text="The bots' games at the day's seed.")


class GameStateSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    mode = serializers.ChoiceField(choices=GAME_MODES)
    # A declared field named like Field.source: DRF's metaclass takes it off the class.
    source = serializers.ChoiceField(choices=Game.Source.values)  # type: ignore[assignment]
    rules = RulesSerializer()
    engine_version = serializers.IntegerField()
    step = serializers.IntegerField(help_text="Moves made so far: send it with the next move.")
    score = serializers.IntegerField()
    round = serializers.IntegerField()
    moves_until_noise = serializers.IntegerField(allow_null=True)
    game_over = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    seed = serializers.CharField(
        allow_null=True,
        help_text="Shown once the game has ended (a daily challenge's: once its day is over).",
    )
    daily_date = serializers.DateField(
        allow_null=True, help_text="The day whose daily challenge this game is; else null."
    )
    partially_observed = serializers.BooleanField()
    share_token = serializers.CharField(
        allow_null=True, help_text="The key of the public replay page, while the game is shared."
    )
    loss = LossSerializer(allow_null=True)
    outcome = LogicalOutcomeSerializer(
        allow_null=True,
        help_text="A planar game's logical outcome, once its board is clean; null before "
        "and for other games.",
    )
    board = BoardSerializer(allow_null=True)
    events = game_events_field(
        allow_null=True, help_text="Every event, once the game has ended."
    )
    replay = BoardSerializer(
        many=True, allow_null=True, help_text="The board after every step, once the game has ended."
    )


class ShareSerializer(serializers.Serializer):
    share_token = serializers.CharField()
    url = serializers.URLField(help_text="The public replay page.")
    image_url = serializers.URLField(help_text="Its preview image (PNG, 1200 by 630 pixels).")
    text = serializers.CharField(help_text="A text to share: score, variant, size and the link.")
    shared_at = serializers.DateTimeField()


class SharedGameSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[Game.Status.LOST, Game.Status.ABANDONED, Game.Status.FINISHED]
    )
    mode = serializers.ChoiceField(choices=GAME_MODES)
    rules = RulesSerializer()
    variant_label = serializers.CharField()
    score = serializers.IntegerField()
    round = serializers.IntegerField()
    step = serializers.IntegerField(help_text="Moves made (steps of a save file).")
    ended_on = serializers.DateField(allow_null=True)
    partially_observed = serializers.BooleanField()
    loss = LossSerializer(allow_null=True)
    outcome = LogicalOutcomeSerializer(
        allow_null=True, help_text="A planar game's logical outcome; null for other games."
    )
    board = BoardSerializer(allow_null=True)
    replay = BoardSerializer(many=True, help_text="The board after every step.")


class MoveSummarySerializer(serializers.Serializer):
    index = serializers.IntegerField()
    t = serializers.IntegerField()
    to = serializers.ListField(child=serializers.IntegerField())
    value = serializers.CharField()
    to_value_before = serializers.CharField()
    to_value_after = serializers.CharField()
    annihilated = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = serializers.ListField(child=serializers.IntegerField())
        return fields


class CellChangeSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    before = serializers.CharField()
    after = serializers.CharField()


class MoveResultSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="Moves made after this one.")
    replayed = serializers.BooleanField(
        help_text="True when this repeated a move already recorded (nothing was played again)."
    )
    move = MoveSummarySerializer()
    noise_rounds = serializers.IntegerField()
    noise = CellChangeSerializer(many=True, help_text="Cells the noise after the move changed.")
    jumped_from = serializers.IntegerField(
        allow_null=True, help_text="The clock before it jumped ahead on an empty board."
    )
    game_over = serializers.BooleanField()
    score = serializers.IntegerField()
    board = BoardSerializer()
    events = game_events_field(
        allow_null=True,
        help_text="The move's events, when the player may see them (practice mode, Z10).",
    )
    game = GameStateSerializer()


class NoteResultSerializer(serializers.Serializer):
    move_index = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)


class ImportReportSerializer(serializers.Serializer):
    """What the importer found in a save file."""

    filename = serializers.CharField(allow_blank=True)
    summary = serializers.CharField(help_text="One line, as check_save prints it.")
    variant = serializers.CharField(help_text="z10, phi_lambda or colors.")
    observed = serializers.ChoiceField(
        choices=["values", "symbols", "groups"],
        help_text="What the record shows: every value (z10), Phi/Lambda symbols, or only "
        "which cells share a group (colors).",
    )
    size = serializers.IntegerField()
    hard = serializers.BooleanField(help_text="Hard Phi-Lambda (display overrides found).")
    score = serializers.IntegerField()
    steps_read = serializers.IntegerField()
    missing_steps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="[first, last] of every run of steps missing from the file.",
    )
    moves = serializers.IntegerField(help_text="Moves the record holds.")
    moves_inferred = serializers.IntegerField(help_text="Moves the boards reveal.")
    ambiguous_moves = serializers.IntegerField(
        help_text="Moves that several moves explain equally (e.g. which of two moved)."
    )
    partially_observed = serializers.BooleanField()
    merge_label = serializers.CharField(allow_null=True)
    comments = serializers.IntegerField(help_text="Player's comments kept.")
    header = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField())
    merged = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="Files of the same game uploaded later whose notes were merged into it: "
        "filename, sha256, header_lines and comments added.",
    )


class ArchiveFileSerializer(serializers.Serializer):
    name = serializers.CharField(
        help_text="The file's path in the archive (a workbook's sheet: book.xlsx[Sheet])."
    )
    outcome = serializers.ChoiceField(
        choices=["imported", "comments_merged", "already_imported", "not_save", "invalid"],
        help_text="comments_merged: the same game as one imported before; the notes this "
        "file adds (header lines, comments) were merged into that game (game_id).",
    )
    message = serializers.CharField(help_text="As manage.py import_legacy prints it.")
    game_id = serializers.UUIDField(allow_null=True)


class ArchiveSummarySerializer(serializers.Serializer):
    imported = serializers.IntegerField()
    comments_merged = serializers.IntegerField()
    already_imported = serializers.IntegerField()
    not_save = serializers.IntegerField()
    invalid = serializers.IntegerField()


class ImportArchiveResultSerializer(serializers.Serializer):
    archive = serializers.CharField()
    files = ArchiveFileSerializer(many=True)
    summary = ArchiveSummarySerializer()


class ImportResultSerializer(serializers.Serializer):
    created = serializers.BooleanField(help_text="False when this file was uploaded before.")
    report = ImportReportSerializer()
    game = GameStateSerializer()
