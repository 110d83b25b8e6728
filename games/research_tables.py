"""The research tables of the games app: games, players, events and boards.

Each :class:`~core.research.Table` names the rows it reads, its columns with
their codebook text, its row order and how each export filter reaches its
rows; the research app writes, filters and documents them from these
declarations alone (see ``core.research``). Rows of a game are research data
by the games' own rule (``Game.objects.research_data()``), which the research
app applies through ``game_path``.

The event tables are not written out field by field: their columns come from
the engine's event dataclasses (``games.recording.fields_of_kind``), and each
field needs an entry in :data:`EVENT_FIELD_DOCS`; a new engine field without
one fails at import and in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from django.db.models import (
    BigIntegerField,
    BooleanField,
    Case,
    CharField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast, Replace

from core.research import Column, ColumnType, Table, register
from games.engine.planar.game import SIDE_CASE
from games.engine.rules import (
    MAX_FAMILY_SIZE,
    MAX_MODULUS,
    MAX_SIZE,
    MIN_MODULUS,
    MIN_SIZE,
    MergeLabel,
)
from games.engine.variants import variant_kinds
from games.models import BoardSnapshot, Event, Game, Player, seed_withheld_condition
from games.recording import engine_event_fields, fields_of_kind
from games.rulesets import PLANAR_FAMILY


def _choices(enum: type[Enum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


def provenance(prefix: str) -> tuple[Column, ...]:
    """Where a row comes from: its game and that game's rule set and engine version."""
    return (
        Column("game_id", ColumnType.UUID, "The game this row belongs to.", f"{prefix}id"),
        Column(
            "rules_key",
            ColumnType.STRING,
            "The game's rule set as one stable text: variant, L, budget, moves per round "
            "and merge label, e.g. z10-L7-b6-m5-destination; a planar game's names d, L "
            "and p, e.g. z2-planar-L5-p0.100.",
            f"{prefix}rules_key",
        ),
        Column("board_size", ColumnType.INTEGER,
               f"L: the board is L x L cells ({MIN_SIZE}-{MAX_SIZE}; planar games played by "
               f"bots up to {MAX_FAMILY_SIZE}).", f"{prefix}size",
               unit="cells", values=f"{MIN_SIZE}-{MAX_FAMILY_SIZE}"),
        Column(
            "variant",
            ColumnType.STRING,
            "z10: numbers 1-9 add mod 10; phi_lambda: the same engine, but a 5 is shown as "
            "Lambda and every other number as Phi; colors: imported Decodoku: Colors save "
            "files, which show only which cells share a group (values unknown; in boards, "
            "G is a number of unknown value); planar: a game of the planar code (family "
            "planar), whose numbers add mod d (modulus).",
            f"{prefix}variant",
            allowed=tuple(kind.stored for kind in variant_kinds()),
        ),
        Column("noise_budget", ColumnType.FLOAT,
               "The weight at which a noise round stops (6 in the original game); 0 for a "
               "planar game (one noise round of errors per edge, no budget).",
               f"{prefix}noise_budget", unit="weight"),
        Column("moves_per_round", ColumnType.INTEGER,
               "Moves between two noise rounds (5 in the original game); 0 for a planar game "
               "(no noise after its first board).",
               f"{prefix}moves_per_round", unit="moves"),
        Column(
            "merge_label",
            ColumnType.STRING,
            "Which group id survives when a move merges two groups (a label only: "
            "destination as in the iOS app, moved as in the later apps); empty for a "
            "planar game, which has no groups.",
            f"{prefix}merge_label",
            allowed=_choices(MergeLabel),
        ),
        Column(
            "family",
            ColumnType.STRING,
            "The rule family: empty for the original game; planar for a game of the planar "
            "code (docs/rules.md): an L x L board with open left and right sides, one round "
            "of noise per edge at rate error_rate, values mod modulus, played until the "
            "board is clean and judged by its logical outcome.",
            f"{prefix}family",
            allowed=(PLANAR_FAMILY,),
        ),
        Column("modulus", ColumnType.INTEGER,
               "Planar games: d, the numbers add mod d; empty otherwise.", f"{prefix}modulus",
               values=f"{MIN_MODULUS}-{MAX_MODULUS}", nullable=True),
        Column("error_rate", ColumnType.FLOAT,
               "Planar games: p, the probability of an error on each edge of the board; "
               "empty otherwise.", f"{prefix}error_rate", unit="per edge", nullable=True),
        Column("engine_version", ColumnType.INTEGER,
               "Version of the game engine that recorded the game.", f"{prefix}engine_version"),
    )


# -- games and players ---------------------------------------------------------

GAMES = Table(
    name="games",
    title="Games",
    description="One row per game: its player, rule set, outcome and research flags.",
    queryset=Game.objects.all,
    game_path="",
    row_id=None,
    order_by=("started_at", "id"),
    columns=(
        *provenance(""),
        Column("player", ColumnType.PSEUDONYM, "The player's pseudonym (see players).",
               "player_id"),
        Column("source", ColumnType.STRING, "How the game was recorded.", "source",
               allowed=_choices(Game.Source)),
        Column("bot_name", ColumnType.STRING, "The bot that played it (bot games only).",
               "bot_name"),
        Column("bot_version", ColumnType.STRING, "The bot's version (bot games only).",
               "bot_version"),
        Column("mode", ColumnType.STRING,
               "normal: group ids hidden while playing; practice: groups shown.",
               "mode", allowed=_choices(Game.Mode)),
        Column("status", ColumnType.STRING,
               "lost; abandoned; finished: a planar game whose board is clean (see "
               "logical_failure). Exports hold finished games only, never a game that is "
               "still active.",
               "status", allowed=_choices(Game.Status)),
        Column("seed", ColumnType.STRING,
               "The random seed of the noise (a whole number of up to 63 bits), typed as "
               "text (Parquet: a string) so that no reader takes it for a floating-point "
               "number; a spreadsheet opening the CSV rounds 16 or more digits unless the "
               "column is imported as text. Empty for uploaded "
               "save files that do not name their seed, while the game is active (it "
               "would tell the noise still to come), and for a daily-challenge game while "
               "its day is open (every player of the day meets the same noise), as for "
               "any other game on that day's board (its seed and rule set, e.g. a "
               "decoder's game).",
               Cast(Case(When(seed_withheld_condition(), then=Value(None)), default=F("seed"),
                         output_field=BigIntegerField()), output_field=CharField()),
               nullable=True),
        Column("daily_date", ColumnType.STRING,
               "The UTC day (YYYY-MM-DD) whose daily challenge this game is: the original "
               "rules and one seed for every player and bot of that day, so their games "
               "meet the same noise. Empty for every other game.",
               Cast("daily__date", output_field=CharField()), nullable=True,
               values="YYYY-MM-DD"),
        Column("score", ColumnType.INTEGER,
               "The clock t when the game ended (or now): moves made plus moves skipped "
               "by jumps on an empty board. A planar game has no jumps: its moves made (it "
               "is judged by logical_failure, not by its score).", "score", unit="moves"),
        Column("rounds", ColumnType.INTEGER, "Noise rounds played.", "rounds", unit="rounds"),
        Column("moves_count", ColumnType.INTEGER, "Moves made by the player.", "moves_count",
               unit="moves"),
        Column("logical_charge", ColumnType.INTEGER,
               "Planar games whose board is clean (status finished): the net charge the noise "
               "and the moves carried rightwards across the left side, mod modulus (the same "
               "across every vertical line); empty otherwise, also while the game is active.",
               "logical_charge", values=f"0-{MAX_MODULUS - 1}", nullable=True),
        Column("logical_failure", ColumnType.BOOLEAN,
               "Planar games whose board is clean: true when logical_charge is not 0, a "
               "logical error (the noise and the corrections form a chain from one side to "
               "the other); empty otherwise. A planar game abandoned, or stopped by a bot's "
               "move cap, has none.", "logical_failure", nullable=True),
        Column("class_odds", ColumnType.FLOAT,
               "Planar games whose board is clean: the probability, given only the charges "
               "of the game's first board (after the noise) and the game's error_rate and "
               "modulus, that the logical class the game's moves undid was the noise's own "
               "class, i.e. that a game ending in this class succeeds. It is the posterior of "
               "the maximum-likelihood (optimal) decoder, computed exactly. Empty for boards "
               "beyond the exact computation's reach (modulus^size above 2^20, e.g. modulus 2 "
               "above size 20, modulus 10 above size 6) and for every other game.",
               "class_odds", values="0-1", nullable=True),
        Column("best_class_odds", ColumnType.FLOAT,
               "Planar games whose board is clean: the probability of the most likely class "
               "on the same board, the chance the best possible decoder succeeds there; "
               "class_odds equals it when the game ended in a most likely class. Empty when "
               "class_odds is.", "best_class_odds", values="0-1", nullable=True),
        Column("started_at", ColumnType.DATETIME, "When the game started.", "started_at"),
        Column("ended_at", ColumnType.DATETIME, "When the game ended; empty while active.",
               "ended_at", nullable=True),
        Column("research_consent", ColumnType.BOOLEAN,
               "Whether the player had consented to research when the game started.",
               "research_consent"),
        Column("excluded_from_research", ColumnType.BOOLEAN,
               "Whether a curator excluded the game from research data.",
               "excluded_from_research"),
        Column("excluded_reason", ColumnType.STRING, "The curator's reason for excluding it.",
               "excluded_reason"),
        Column("partially_observed", ColumnType.BOOLEAN,
               "True for save files that do not hold every value (Phi-Lambda files show "
               "Phi and Lambda, Colors files only groups) or that miss steps.",
               "partially_observed"),
        Column("source_name", ColumnType.STRING,
               "For imported save files: the published collection they come from, if named "
               "at import (manage.py import_legacy --source-name); empty otherwise.",
               "source_name"),
        Column("source_url", ColumnType.STRING,
               "Where that collection is published (--source-url); empty otherwise.",
               "source_url"),
    ),
)


def _players_with_games(queryset: QuerySet, games: Q, elsewhere: Q | None) -> QuerySet:
    """Players with a game the filters select, and those with research data elsewhere only."""
    listed = Q(export_games__gt=0)
    if elsewhere is not None:
        listed |= elsewhere
    return queryset.annotate(export_games=Count("games", filter=games)).filter(listed)


PLAYERS = Table(
    name="players",
    title="Players",
    description=(
        "One row per player who has at least one game selected by the filters, or research "
        "data outside the games (puzzle attempts, listed unless a filter selects games by "
        "variant, size, rules key, engine version, source or status; the dates then apply to "
        "when the attempt started). Players have no accounts: only a pseudonym, the consent "
        "they gave and when they were seen."
    ),
    queryset=Player.objects.all,
    game_path="games__",
    row_id=None,
    order_by=("created_at", "id"),
    prepare=_players_with_games,
    lists_records_elsewhere=True,
    columns=(
        Column("player", ColumnType.PSEUDONYM,
               "The player's pseudonym: a keyed hash of the player id, the same in every "
               "export.", "id"),
        Column("consent_version", ColumnType.STRING,
               "Version of the research consent text the player agreed to; empty: none.",
               "consent_version", nullable=True),
        Column("consented_at", ColumnType.DATETIME, "When the player consented.",
               "consented_at", nullable=True),
        Column("created_at", ColumnType.DATETIME, "When the player was created.", "created_at"),
        Column("last_seen_at", ColumnType.DATETIME,
               "When the player last used the site (refreshed at most every 5 minutes).",
               "last_seen_at", nullable=True),
        Column("games", ColumnType.INTEGER,
               "The player's games selected by the filters (0 for a player listed for puzzle "
               "attempts only: see puzzle_attempts and decodoku_attempts).",
               "export_games", unit="games"),
    ),
)


# -- events --------------------------------------------------------------------

_INT = ColumnType.INTEGER
_FIELD_TYPES: dict[type, ColumnType] = {
    int: ColumnType.INTEGER,
    float: ColumnType.FLOAT,
    str: ColumnType.STRING,
    bool: ColumnType.BOOLEAN,
}
_CELL = f"0-{MAX_FAMILY_SIZE - 1}"
_COLUMN = f"0-{MAX_FAMILY_SIZE - 1}; -1 or L for the outside of a planar board's left or right side"
_VALUE = "0-9"


@dataclass(frozen=True, slots=True)
class FieldDoc:
    meaning: str
    unit: str = ""
    allowed: tuple[str, ...] = ()
    values: str = ""


# The meaning of every engine event field. Keys are field names, or
# (kind, field name) where a field means something else for that kind.
EVENT_FIELD_DOCS: dict[str | tuple[str, str], FieldDoc] = {
    "t": FieldDoc("The clock (the score so far) when the event happened.", "moves"),
    ("jump", "t"): FieldDoc("The clock after the jump.", "moves"),
    ("move", "t"): FieldDoc(
        "The clock just after the move, before any jump, for every source: games played "
        "here and imported save files alike (an imported move that emptied the board has "
        "the previous board's t + 1, not the t after the jump).", "moves"),
    "round": FieldDoc("The noise round the event belongs to or follows (1: the first).",
                      "rounds"),
    "index": FieldDoc("The error's number within its noise round (1: the first)."),
    ("move", "index"): FieldDoc("The move's number in the game (1: the first)."),
    "row1": FieldDoc("Row of the first cell hit (0: top).", values=_CELL),
    "col1": FieldDoc(
        "Column of the first cell hit (0: left). Planar games: the upper or left end of "
        "the edge, -1 for the outside of the left side.", values=_COLUMN),
    "row2": FieldDoc("Row of the second cell, next to the first.", values=_CELL),
    "col2": FieldDoc(
        "Column of the second cell, next to the first. Planar games: L (board_size) for "
        "the outside of the right side.", values=_COLUMN),
    "a": FieldDoc("Added to the first cell, mod 10 (planar games: mod modulus).",
                  values="1-9"),
    "aa": FieldDoc(
        "Added to the second cell, mod 10: (10 - a) mod 10 (planar games: modulus - a, mod "
        "modulus). The outside of a planar board's side is not tracked: its values are 0 "
        "before and after.", values="1-9"),
    "case": FieldDoc(
        "Decided by the values before the error: both cells empty, exactly one, or none; "
        "side: a planar game's error on a side edge (one end outside the board).",
        allowed=("new_pair", "one_new", "both_occupied", SIDE_CASE),
    ),
    "weight": FieldDoc(
        "The error's weight: 1 (a new number) or 0.1 (both occupied); 1 for every error "
        "of a planar game (no budget).", "weight"),
    ("round_end", "weight"): FieldDoc("The round's total weight, accumulated as a double.",
                                      "weight"),
    "round_weight": FieldDoc("The round's weight after this error, accumulated as a double.",
                             "weight"),
    "value1_before": FieldDoc("First cell's value before the error (0: empty).", values=_VALUE),
    "value2_before": FieldDoc("Second cell's value before the error.", values=_VALUE),
    "value1_after": FieldDoc("First cell's value after the error.", values=_VALUE),
    "value2_after": FieldDoc("Second cell's value after the error.", values=_VALUE),
    "group1_before": FieldDoc(
        "First cell's group id before the error (0: none; always 0 in planar games, which "
        "have no groups)."),
    "group2_before": FieldDoc("Second cell's group id before the error."),
    "group1_after": FieldDoc("First cell's group id after the error."),
    "group2_after": FieldDoc("Second cell's group id after the error."),
    "cause": FieldDoc("What merged the groups.", allowed=("noise", "move")),
    "surviving": FieldDoc("The group id that remains."),
    "absorbed": FieldDoc("The group id that was relabelled to the surviving one."),
    "size": FieldDoc("Cells in the merged group, counted after the merge.", "cells"),
    "errors": FieldDoc("Errors in the round.", "errors"),
    "numbers": FieldDoc("Non-empty cells on the board after the round.", "cells"),
    "from_row": FieldDoc("Row of the moved number.", values=_CELL),
    "from_col": FieldDoc("Column of the moved number.", values=_CELL),
    "to_row": FieldDoc("Row it was moved to (a neighbour).", values=_CELL),
    "to_col": FieldDoc(
        "Column it was moved to. Planar games: -1 or L (board_size) for a number moved off "
        "the board through the left or right side.", values=_COLUMN),
    "value": FieldDoc("The moved number.", values="1-9"),
    "to_value_before": FieldDoc(
        "The destination's value before the move (0: empty, and off a planar board).",
        values=_VALUE),
    "to_value_after": FieldDoc(
        "The destination's value after: (before + value) mod 10 (planar games: mod modulus; "
        "0 off the board).", values=_VALUE),
    "from_group": FieldDoc("Group id of the moved number."),
    "to_group_before": FieldDoc("Group id of the destination before the move (0: empty)."),
    "to_group_after": FieldDoc("Group id of the destination after the move (0: emptied)."),
    "annihilated": FieldDoc("True when the two numbers summed to 0 mod 10 and vanished."),
    "from_t": FieldDoc("The clock before the jump.", "moves"),
    ("jump", "reason"): FieldDoc("Why the board was empty.",
                                 allowed=("empty_after_move", "empty_after_noise")),
    ("regenerated", "reason"): FieldDoc("Why the first board was drawn again.",
                                        allowed=("spanning", "empty")),
    "attempt": FieldDoc("The number of the draw that was discarded (1: the first)."),
    "group": FieldDoc("The group id that spans the board."),
    "axis": FieldDoc("Which opposite edges it touches.",
                     allowed=("top_bottom", "left_right", "both")),
    "spanning_groups": FieldDoc("Groups spanning at that moment (usually 1)."),
    ("logical_outcome", "t"): FieldDoc(
        "The clock when the board became clean: the moves made (0: the noise left it "
        "clean).", "moves"),
    "charge": FieldDoc(
        "The net charge carried rightwards across the left side by the noise and the "
        "moves, mod modulus (the same across every vertical line of a clean board).",
        values=f"0-{MAX_MODULUS - 1}"),
    "failed": FieldDoc("True when the charge is not 0: a logical error."),
}

_MOVE_EXTRA = (
    Column("client_time", ColumnType.DATETIME,
           "When the player's device says the move was made (as sent by the client).",
           "client_time", nullable=True),
    Column("server_time", ColumnType.DATETIME, "When the server recorded the move.",
           "server_time", nullable=True),
    Column("note", ColumnType.STRING, "The player's own note on the move.", "note"),
    Column("move_certain", ColumnType.BOOLEAN,
           "Imported save files only (empty for games played here, where every move is "
           "known): true when the two boards single the move out, or the file names the "
           "move (files written by this platform); false for an annihilation whose "
           "direction they cannot tell or a move hidden by the noise that followed (the row "
           "then holds one of the moves that fit; see explanations).",
           "move_certain", nullable=True),
    Column("explanations", ColumnType.INTEGER,
           "Imported save files only: how many moves explain the two boards equally well "
           "(1 when the boards single the move out, 2 for an annihilation either number "
           "could have made; a move the file names is certain whatever this count).",
           "explanations", nullable=True),
)


def _field_doc(kind: str, name: str) -> FieldDoc:
    doc = EVENT_FIELD_DOCS.get((kind, name)) or EVENT_FIELD_DOCS.get(name)
    if doc is None:
        raise LookupError(
            f"engine event field {name!r} of {kind!r} has no entry in EVENT_FIELD_DOCS"
        )
    return doc


def _event_columns(kinds: tuple[str, ...]) -> tuple[Column, ...]:
    types = engine_event_fields()
    columns = [
        Column("event_id", _INT,
               "The event's row id: increases with every event stored; use it for "
               "incremental pulls (after_id).", "id"),
        *provenance("game__"),
        Column("seq", _INT, "The event's position in its game (0: the first event).", "seq"),
    ]
    if len(kinds) > 1:
        columns.append(Column("kind", ColumnType.STRING, "The event's kind.", "kind",
                              allowed=kinds))
    seen: set[str] = set()
    for kind in kinds:
        for name in fields_of_kind(kind):
            if name in seen:
                continue
            seen.add(name)
            docs = [_field_doc(k, name) for k in kinds if name in fields_of_kind(k)]
            doc = docs[0]
            meaning = doc.meaning
            if len(kinds) > 1 and len(docs) < len(kinds):
                present = ", ".join(k for k in kinds if name in fields_of_kind(k))
                meaning += f" Only for {present}; empty otherwise."
            columns.append(
                Column(name, _FIELD_TYPES[types[name]], meaning, name, unit=doc.unit,
                       allowed=doc.allowed, values=doc.values,
                       nullable=len(docs) < len(kinds))
            )
    if "move" in kinds:
        columns.extend(_MOVE_EXTRA)
    if set(kinds) & set(_BEFORE_FIRST_BOARD_KINDS):
        columns.extend((_ATTEMPT, _DISCARDED))
    return tuple(columns)


# Events that a regenerated first board leaves behind: the noise of the boards
# drawn and thrown away before the kept one (same t = 0, round 1, index).
_BEFORE_FIRST_BOARD_KINDS = ("noise", "merge", "round_start", "round_end")
_DISCARDED = Column(
    "discarded", ColumnType.BOOLEAN,
    "True for the rows of a first board that spanned or was empty and was drawn again "
    "(a regenerations row follows them in the same game): they are not part of the game "
    "played, and they repeat the kept board's t = 0, round 1 and error indexes. Keep "
    "discarded = false to see only the game played: its round_end rows then number "
    "games.rounds. Group ids are unique within a game from engine_version 2 on; in "
    "engine_version 1 games they start again at 1 on each board drawn, so there keep "
    "discarded = false before matching group ids (the kept rows' ids are unique).",
    ExpressionWrapper(
        Exists(Event.objects.filter(game=OuterRef("game"), kind="regenerated",
                                    seq__gt=OuterRef("seq"))),
        output_field=BooleanField(),
    ),
)


# The draw of the first board a row of round 1 belongs to: one more than the
# regenerations recorded before it in its game.
_ATTEMPT = Column(
    "first_board_attempt", ColumnType.INTEGER,
    "Rows of the first noise round (round 1) only: which draw of the first board the row "
    "belongs to (1: the first board drawn). A first board that spanned or was empty is "
    "drawn again: its rows keep their draw's number, which the regenerations row after "
    "them names as its attempt, and the kept board's rows have the next one. With it, "
    "game_id, first_board_attempt, t, round and index name one noise error of a first "
    "board. Empty for later rounds.",
    Case(
        When(
            round=1,
            then=Value(1) + Subquery(
                Event.objects.filter(game=OuterRef("game"), kind="regenerated",
                                     seq__lt=OuterRef("seq"))
                .order_by()
                .annotate(drawn=Func(F("id"), function="COUNT"))
                .values("drawn"),
                output_field=IntegerField(),
            ),
        ),
        default=Value(None),
        output_field=IntegerField(),
    ),
    nullable=True,
)


def _event_table(name: str, title: str, description: str, kinds: tuple[str, ...]) -> Table:
    condition = Q(kind__in=kinds) if len(kinds) > 1 else Q(kind=kinds[0])
    return Table(
        name=name,
        title=title,
        description=description,
        queryset=lambda: Event.objects.filter(condition),
        game_path="game__",
        order_by=("id",),
        columns=_event_columns(kinds),
    )


EVENT_TABLES = (
    _event_table("noise_errors", "Noise errors",
                 "One row per error of a noise round: both cells, the values and group ids "
                 "before and after, and the weight.", ("noise",)),
    _event_table("moves", "Moves",
                 "One row per move of a player, with the server's and the client's time and "
                 "the player's note.", ("move",)),
    _event_table("merges", "Group merges",
                 "One row per merge of two groups, caused by noise or by a move.", ("merge",)),
    _event_table("jumps", "Jump-aheads",
                 "One row per jump of the clock to the next noise round on an empty board.",
                 ("jump",)),
    _event_table("losses", "Losses",
                 "One row per lost game: the spanning group, the axis and the clock.",
                 ("loss",)),
    _event_table("round_boundaries", "Noise round boundaries",
                 "One row when a noise round starts (round_start) and one when it ends "
                 "(round_end, with its errors, weight and numbers on the board).",
                 ("round_start", "round_end")),
    _event_table("regenerations", "Regenerated first boards",
                 "One row each time the first board of a game spanned or was empty and "
                 "was drawn again.", ("regenerated",)),
    _event_table("logical_outcomes", "Logical outcomes of planar games",
                 "One row per planar game whose board is clean: the charge carried across "
                 "the sides and whether it is a logical error (as games.logical_charge and "
                 "games.logical_failure).", ("logical_outcome",)),
)


# -- boards --------------------------------------------------------------------

BOARDS = Table(
    name="boards",
    title="Boards after every step",
    description=(
        "The board after every step of every game: after each move (and the noise that "
        "followed it), step 0 being the first board. One row per board; the cells are "
        "written as one text of L*L characters, row by row."
    ),
    queryset=BoardSnapshot.objects.all,
    game_path="game__",
    order_by=("id",),
    columns=(
        Column("board_id", _INT, "The board's row id: use it for incremental pulls.", "id"),
        *provenance("game__"),
        Column("step", _INT,
               "Moves made (0: the first board). For uploaded save files, the file's step "
               "number; steps skipped by a jump have no board.", "step", unit="moves"),
        Column("t", _INT, "The clock at this board.", "t", unit="moves"),
        Column(
            "cells",
            ColumnType.STRING,
            "Every cell, row by row from the top left, one character each: 0 empty, "
            "1-9 the number. Partially observed save files (Phi-Lambda) hold P (a Phi: a "
            "number other than 5, value unknown) or L (a Lambda: a 5) instead of numbers. "
            "Cell (row r, column c) is character r*L + c (0-based).",
            "values",
            allowed=tuple("0123456789PL"),
            values="L*L characters",
        ),
        Column(
            "shown_cells",
            ColumnType.STRING,
            "Only for hard Phi-Lambda save files: what the player was shown, same symbols "
            "as cells; empty when the player saw the cells themselves.",
            "shown",
            values="L*L characters or empty",
        ),
        Column(
            "groups",
            ColumnType.STRING,
            "The group id of every cell, in the same order as cells, separated by single "
            "spaces; 0 for an empty cell.",
            Replace(F("labels"), Value(","), Value(" "), output_field=TextField()),
            values="L*L integers separated by spaces",
        ),
        Column("comment", ColumnType.STRING,
               "The player's notes written next to this step in a save file, one per line.",
               "comment"),
    ),
)


register(GAMES, PLAYERS, *EVENT_TABLES, BOARDS)
