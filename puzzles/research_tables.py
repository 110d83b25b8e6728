"""The research tables of the logic puzzles: puzzles, attempts, actions.

The kinds, difficulties and action kinds allowed in these tables are those
of the kinds registered in ``puzzles.engines.registry`` (KenKen, Futoshiki,
2mino), so that a new kind is exported without a change here.

Attempts and actions are research data only when the player consented, no
curator excluded the attempt and the player had not seen the puzzle's
solution before it ended: the tables read ``Attempt.objects.research_data()``
(the one rule, ``puzzles.models.attempt_research_condition``) and hold nothing
else (there is no ``include_...`` filter for them); an attempt is listed once
it has ended. Puzzle rows follow their own rule
(``puzzles.models.puzzle_research_condition``): every generated or published
puzzle, and a puzzle a player entered only when its author consented. A
puzzle's seed and solution are withheld (empty) while anyone's attempt at a
puzzle with the same answer key is open
(``puzzles.models.solution_withheld_condition``). A puzzle is regenerated
exactly from its kind, size, seed, engine version and requested difficulty
with ``manage.py puzzle generate`` (see docs/puzzles.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import (
    BigIntegerField,
    BooleanField,
    Case,
    CharField,
    ExpressionWrapper,
    F,
    Field,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from core.research import Column, ColumnType, Table, register, register_player_records
from puzzles.engines import grading, solver
from puzzles.engines.decodoku import platform as decodoku_platform
from puzzles.engines.decodoku.bots import BOTS
from puzzles.engines.registry import KINDS as REGISTERED
from puzzles.models import (
    Action,
    Attempt,
    DecodokuBotAnswer,
    Puzzle,
    puzzle_research_condition,
    solution_withheld_condition,
)

_INT = ColumnType.INTEGER
_STR = ColumnType.STRING
_BOOL = ColumnType.BOOLEAN
_TIME = ColumnType.DATETIME


def _registered() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Kinds, difficulties and action kinds of every registered puzzle kind, in order."""
    kinds = tuple(REGISTERED)
    difficulties: list[str] = []
    actions: list[str] = []
    for kind in REGISTERED.values():
        difficulties += [d for d in kind.difficulties if d not in difficulties]
        actions += [a for a in kind.play.ACTION_KINDS if a not in actions]
    return kinds, tuple(difficulties), tuple(actions)


KINDS, DIFFICULTIES, ACTIONS = _registered()
# Published Decodoku puzzles are not generated: their difficulty (and requested
# difficulty) is "published" (docs/decodoku-puzzles.md).
DIFFICULTIES = (*DIFFICULTIES, decodoku_platform.PUBLISHED)
# Hardest techniques: the solver's (engine version 1) then the grading ladders'
# (versions 2 and 3), each name once; the engines are the one source of the names.
TECHNIQUES = tuple(dict.fromkeys((*solver.TECHNIQUE_LEVELS, *grading.TECHNIQUE_NAMES)))
ENTRY_TAGS = solver.ENTRY_TAGS


def _puzzle_columns(prefix: str) -> tuple[Column, ...]:
    return (
        Column("puzzle_id", ColumnType.UUID, "The puzzle.", f"{prefix}id"),
        Column(
            "kind",
            _STR,
            "The puzzle kind. A variant is a kind of its own: kenken-multiply is KenKen "
            "whose cages of two cells or more are all products (op x); futoshiki-adjacent "
            "is Futoshiki with a bar between every two neighbours that differ by one and "
            "no signs.",
            f"{prefix}kind",
            allowed=KINDS,
        ),
        Column(
            "size",
            _INT,
            "N: the grid is N x N cells holding 1..N (2mino: N symbols 0..N-1 on N+1 rows "
            "of N cells).",
            f"{prefix}size",
            unit="cells",
            values="3-9 (Futoshiki: 4-10, Adjacent Futoshiki: 4-16; 2mino: 3-12)",
        ),
        Column(
            "engine_version",
            _INT,
            "Version of the puzzle kind's engine that generated it.",
            f"{prefix}engine_version",
        ),
        Column(
            "difficulty",
            _STR,
            "The rating, on the ladder of the puzzle's engine_version. KenKen and Futoshiki "
            "(and their variants), version 3: the levels of Simon Tatham's Keen (easy, "
            "normal, hard, extreme, unreasonable) and Unequal (trivial, easy, tricky, "
            "extreme, recursive); version 2: our earlier ladder (KenKen the same names; "
            "Futoshiki easy, tricky, hard, extreme, recursive); version 1: easy, medium, "
            "hard, expert. The same name can mean another level under another version: "
            "compare within one engine_version (docs/puzzles.md, Difficulty levels). "
            "2mino: its own levels (docs/2mino.md).",
            f"{prefix}difficulty",
            allowed=DIFFICULTIES,
        ),
    )


def _attempt_columns(*, solved: str, finished: str) -> tuple[Column, ...]:
    """Who played an attempt, where, how it ended, when, and its actions: the same columns in
    each kind's attempts table; ``solved`` says what solved means for the kind, ``finished``
    the verb of its end ("solved", "answered")."""
    return (
        Column("player", ColumnType.PSEUDONYM, "The player's pseudonym.", "player_id"),
        Column(
            "source",
            _STR,
            "Where it was played: the web page or an API client.",
            "source",
            allowed=("web", "api"),
        ),
        Column(
            "status",
            _STR,
            f"solved ({solved}) or abandoned (given up). Open attempts are not listed until "
            "they end.",
            "status",
            allowed=("solved", "abandoned"),
        ),
        Column("started_at", _TIME, "When the attempt started.", "started_at"),
        Column("finished_at", _TIME, f"When it was {finished} or given up.", "finished_at"),
        Column("actions", _INT, "Actions recorded.", "steps", unit="actions"),
    )


def _action_time_columns() -> tuple[Column, ...]:
    """When an action happened, by the server's and the client's clocks: the last columns of
    each kind's actions table."""
    return (
        Column(
            "elapsed_ms",
            _INT,
            "Time since the attempt started, by the server's clock.",
            "elapsed_ms",
            unit="ms",
        ),
        Column("server_time", _TIME, "When the server recorded it.", "server_time"),
        Column(
            "client_time",
            _TIME,
            "When the player acted, by the client's clock.",
            "client_time",
            nullable=True,
        ),
    )


def _attempt_filters(prefix: str) -> dict[str, str]:
    return {
        "date": f"{prefix}started_at",
        "engine_version": f"{prefix}puzzle__engine_version",
        "player": f"{prefix}player_id",
    }


def research_actions() -> QuerySet[Action]:
    return Attempt.objects.research_data().actions()


def research_puzzles() -> QuerySet[Puzzle]:
    return Puzzle.objects.filter(puzzle_research_condition())


def _unless_withheld(field: str, output: Field[Any, Any]) -> Case:
    """A puzzle's ``field``, empty while it would give the answer of an open attempt away."""
    return Case(
        When(solution_withheld_condition(), then=Value(None)),
        default=F(field),
        output_field=output,
    )


_WITHHELD_TEXT = (
    " Empty while anyone's attempt at a puzzle with the same solution is still open "
    "(it would give the answer away); filled once every such attempt has ended."
)


def _decodoku_only(expression: Any, output: Field[Any, Any]) -> Case:
    """``expression`` for a Decodoku puzzle, null for every other kind."""
    return Case(
        When(kind=decodoku_platform.KIND, then=expression), default=Value(None), output_field=output
    )


def _recorded_corner(index: int) -> Case:
    """A Decodoku puzzle's recorded corner: 0 the top left, 1 the bottom right.

    The corners are the puzzle's answer: empty while an attempt at it is open, as a
    puzzle's solution is.
    """
    return Case(
        When(solution_withheld_condition(), then=Value(None)),
        default=_decodoku_only(
            Cast(KeyTextTransform(str(index), "solution__corners"), IntegerField()),
            IntegerField(),
        ),
        output_field=IntegerField(),
    )


PUZZLES = Table(
    name="puzzles",
    title="Logic puzzles",
    description=(
        "One row per puzzle that someone started and that is research data: generated "
        "KenKen, Futoshiki and 2mino puzzles with the solver's rating (the seed, engine "
        "version and requested difficulty regenerate each), a puzzle a player entered "
        "(requested difficulty own) only when its author consented to research, and Decodoku "
        "puzzles, generated or published, with their grid and recorded corners "
        "(docs/decodoku-puzzles.md)."
    ),
    queryset=research_puzzles,
    game_path=None,
    row_id=None,
    order_by=("created_at", "id"),
    extra_filter_paths={"date": "created_at", "engine_version": "engine_version"},
    columns=(
        *_puzzle_columns(""),
        Column(
            "seed",
            _INT,
            "The generation seed (for an own puzzle, a digest of its definition); for a "
            "published Decodoku puzzle (difficulty published), which has none, its published "
            "number instead (as in number)." + _WITHHELD_TEXT,
            _unless_withheld("seed", BigIntegerField()),
            nullable=True,
        ),
        Column(
            "number",
            _INT,
            "Decodoku: a published puzzle's number (its first); empty for a generated puzzle "
            "and for every other kind.",
            "number",
            nullable=True,
            values="0-102",
        ),
        Column(
            "grid",
            _STR,
            "Decodoku: the grid as the player sees it, 64 characters row-major from the top "
            "left (cell (r, c) is character r*8 + c), the two hidden corners as ?; empty for "
            "every other kind.",
            _decodoku_only(KeyTextTransform("grid", "definition"), CharField()),
            nullable=True,
        ),
        Column(
            "corner_top_left",
            _INT,
            "Decodoku: the recorded top-left value, the one answers are scored against (see "
            "corners_source); empty for every other kind." + _WITHHELD_TEXT,
            _recorded_corner(0),
            nullable=True,
            values="0-9",
        ),
        Column(
            "corner_bottom_right",
            _INT,
            "Decodoku: the recorded bottom-right value; empty for every other kind."
            + _WITHHELD_TEXT,
            _recorded_corner(1),
            nullable=True,
            values="0-9",
        ),
        Column(
            "corners_source",
            _STR,
            "Decodoku: noise (a generated puzzle: the true values) or published (the digits "
            "the puzzle was published with, taken as the true values: "
            "docs/decodoku-puzzles.md); empty for every other kind.",
            _decodoku_only(KeyTextTransform("corners_source", "solution"), CharField()),
            nullable=True,
            allowed=("noise", "published"),
        ),
        Column(
            "requested_difficulty",
            _STR,
            "The difficulty asked for (empty: the kind's default).",
            "requested_difficulty",
            allowed=DIFFICULTIES,
        ),
        Column(
            "hardest_technique",
            _STR,
            "The hardest technique the puzzle needs: for engine version 1 the hardest step "
            "of the solver's logical solution; for versions 2 and 3 (KenKen, Futoshiki) the "
            "hardest technique of the version's level ladder (basic: level 1 in bulk; "
            "version 3: cage_arithmetic, operator_chain or adjacency when the kind's whole "
            "rule made it level 2; docs/puzzles.md).",
            "hardest_technique",
            allowed=TECHNIQUES,
        ),
        Column(
            "solver_steps",
            _INT,
            "Steps of the solver's logical solution (each removes candidates); 2mino: forced "
            "pairs placed before a guess is needed (only place for a pair, only partner for a "
            "cell).",
            "solver_steps",
            unit="steps",
        ),
        Column(
            "solution",
            _STR,
            "The solution, row by row from the top left, one character per cell (10 is "
            "A, 11 B, ...): cell "
            "(row r, column c) is character r*N + c (0-based). Empty for 2mino: its "
            "solution is a tiling, regenerated with manage.py puzzle generate 2mino."
            + _WITHHELD_TEXT,
            _unless_withheld("solution_cells", CharField()),
            nullable=True,
            values="N*N characters 1-9, A-G (10-16)",
        ),
        Column("created_at", _TIME, "When the puzzle was first generated here.", "created_at"),
    ),
)

ATTEMPTS = Table(
    name="puzzle_attempts",
    title="Puzzle attempts",
    description=(
        "One row per ended attempt of a player at a puzzle (consenting players, not "
        "excluded, made before the player had seen the puzzle's solution, on this puzzle or "
        "on any with the same solution: another seed, its puzzle ID, more givens): its "
        "outcome, timing and counts of actions."
    ),
    queryset=Attempt.objects.research_data,
    game_path=None,
    row_id=None,
    order_by=("started_at", "id"),
    extra_filter_paths=_attempt_filters(""),
    columns=(
        Column("attempt_id", ColumnType.UUID, "The attempt.", "id"),
        *_puzzle_columns("puzzle__"),
        *_attempt_columns(solved="the grid was completed correctly", finished="solved"),
        Column("entries", _INT, "Numbers written.", "entries_count", unit="actions"),
        Column(
            "wrong_entries",
            _INT,
            "Numbers written that differ from the solution.",
            "wrong_entries",
            unit="actions",
        ),
        Column("hints", _INT, "Hints asked for.", "hints_count", unit="actions"),
        Column("checks", _INT, "Checks asked for.", "checks_count", unit="actions"),
        Column("undos", _INT, "Undos.", "undos_count", unit="actions"),
    ),
)

ACTIONS_TABLE = Table(
    name="puzzle_actions",
    title="Puzzle actions",
    description=(
        "Every action of every attempt in the puzzle_attempts table, in order. Replaying "
        "them from the empty grid gives the grid at every step."
    ),
    queryset=research_actions,
    game_path=None,
    order_by=("id",),
    extra_filter_paths=_attempt_filters("attempt__"),
    columns=(
        Column("action_id", _INT, "The row id: use it for incremental pulls.", "id"),
        Column("attempt_id", ColumnType.UUID, "The attempt.", "attempt_id"),
        *_puzzle_columns("attempt__puzzle__"),
        Column("player", ColumnType.PSEUDONYM, "The player's pseudonym.", "attempt__player_id"),
        Column("step", _INT, "The action's number in its attempt (1: the first).", "step"),
        Column(
            "action",
            _STR,
            "entry (write a number), erase, candidate (toggle a pencil mark), undo (take "
            "back the last entry, erasure or mark), hint, check (compare with the solution). "
            "2mino: toggle (draw or remove the bar between two cells), reset (remove every "
            "bar drawn), hint, check (a whole tiling accepted; refused ones are not recorded).",
            "kind",
            allowed=ACTIONS,
        ),
        Column(
            "row",
            _INT,
            "The cell's row (0 at the top) for entry, erase and candidate; for a 2mino "
            "toggle, the bar's first cell.",
            "row",
            nullable=True,
            values="0 to N-1",
        ),
        Column(
            "col",
            _INT,
            "The cell's column (0 at the left).",
            "col",
            nullable=True,
            values="0 to N-1",
        ),
        Column(
            "value", _INT, "The number written or marked.", "value", nullable=True, values="1 to N"
        ),
        Column(
            "technique",
            _STR,
            "For entries: the simplest technique that forces this value from the numbers "
            "on the grid just before it (the rules' candidates, not the player's marks), "
            "or not_justified (a guess, or an error).",
            "technique",
            allowed=ENTRY_TAGS,
        ),
        Column(
            "correct", _BOOL, "For entries: the value is the solution's.", "correct", nullable=True
        ),
        Column(
            "hint",
            _STR,
            "For hints, what the hint said: single_candidate (a cell with one candidate "
            "left), single_place (a number with one place left in a row or column), "
            "no_candidate (a cell with no candidate left: an error), technique (steps of "
            "the technique ladder that decide a cell, docs/puzzles.md Ladder hints), "
            "wrong_entry (a number written is wrong, not said which), stuck (nothing on the "
            "ladder applies), none (no hint: the grid is full); "
            "2mino's hints are forced, tiling and wrong_bar (docs/2mino.md); hint_row and "
            "hint_col are then the first cell of the hinted domino or bar.",
            "hint_kind",
        ),
        Column(
            "hint_row", _INT, "The hint's cell row.", "hint_row", nullable=True, values="0 to N-1"
        ),
        Column(
            "hint_col",
            _INT,
            "The hint's cell column.",
            "hint_col",
            nullable=True,
            values="0 to N-1",
        ),
        Column(
            "hint_value",
            _INT,
            "The hint's number (empty for no_candidate).",
            "hint_value",
            nullable=True,
            values="1 to N",
        ),
        Column(
            "row_b",
            _INT,
            "2mino toggles: the row of the bar's second cell (the bar lies between it and "
            "the cell at row, col).",
            "row_b",
            nullable=True,
            values="0 to N",
        ),
        Column(
            "col_b",
            _INT,
            "2mino toggles: the column of the bar's second cell.",
            "col_b",
            nullable=True,
            values="0 to N-1",
        ),
        Column(
            "pairs_formed",
            _INT,
            "2mino toggles and resets: how many pairs the action formed (the pairs "
            "themselves are in the attempt's replay).",
            "pairs_formed",
            nullable=True,
            unit="pairs",
        ),
        Column(
            "pairs_broken",
            _INT,
            "2mino toggles and resets: how many formed pairs the action broke.",
            "pairs_broken",
            nullable=True,
            unit="pairs",
        ),
        Column(
            "wrong_cells",
            _INT,
            "For checks: how many numbers on the grid differed from the solution.",
            "wrong_count",
            nullable=True,
            unit="cells",
        ),
        *_action_time_columns(),
    ),
)


# --- Decodoku puzzles: attempts, actions and the bots' answers, with their own columns ----

DECODOKU = decodoku_platform.KIND
_LINKS_TEXT = (
    "Links are numbered as in docs/decodoku-puzzles.md: on the 8 x 8 board, link "
    "r*7 + c (0-55) joins (r, c) and (r, c+1); link 56 + r*8 + c (56-111) joins (r, c) "
    "and (r+1, c); rows and columns from 0 at the top left."
)


def _json_int(key: str, path: str) -> Cast:
    return Cast(KeyTextTransform(key, path), IntegerField())


def _generated_seed(prefix: str) -> Case:
    """The seed of a generated puzzle (null for a published one, whose seed is its number)."""
    return Case(
        When(**{f"{prefix}number__isnull": True}, then=F(f"{prefix}seed")),
        default=Value(None),
    )


def _decodoku_puzzle_columns(prefix: str) -> tuple[Column, ...]:
    return (
        Column("puzzle_id", ColumnType.UUID, "The puzzle.", f"{prefix}id"),
        Column(
            "number",
            _INT,
            "A published puzzle's number (its first, when the source lists the grid twice); "
            "empty for a generated puzzle.",
            f"{prefix}number",
            nullable=True,
            values="0-102",
        ),
        Column(
            "seed",
            _INT,
            "A generated puzzle's seed (manage.py decodoku_puzzle generate --seed S --rate "
            "0.25 regenerates it); empty for a published puzzle.",
            _generated_seed(prefix),
            nullable=True,
        ),
        Column(
            "minimum",
            _INT,
            "The fewest links of any explanation of the board (the exact solver's, proven).",
            _json_int("minimum", f"{prefix}solution"),
            unit="links",
        ),
    )


def decodoku_attempts() -> QuerySet[Attempt]:
    return Attempt.objects.research_data().filter(puzzle__kind=DECODOKU)


def decodoku_actions() -> QuerySet[Action]:
    return Attempt.objects.research_data().actions().filter(attempt__puzzle__kind=DECODOKU)


def _answer(column: str, output: Field[Any, Any]) -> ExpressionWrapper:
    """A column of the attempt's answer action (null when it has none)."""
    answers = Action.objects.filter(attempt=OuterRef("pk"), kind="answer")
    return ExpressionWrapper(Subquery(answers.values(column)[:1]), output_field=output)


def _answer_int(key: str) -> ExpressionWrapper:
    """An integer of what the attempt's answer action told the player."""
    answers = Action.objects.filter(attempt=OuterRef("pk"), kind="answer")
    found = Subquery(answers.annotate(found=_json_int(key, "result")).values("found")[:1])
    return ExpressionWrapper(found, output_field=IntegerField())


DECODOKU_ATTEMPTS = Table(
    name="decodoku_attempts",
    title="Decodoku puzzle attempts",
    description=(
        "One row per ended attempt at a Decodoku puzzle (consenting players, not excluded, "
        "made before the player had seen the puzzle's solution): its outcome, the top-left "
        "value answered and the links used against the fewest."
    ),
    queryset=decodoku_attempts,
    game_path=None,
    row_id=None,
    order_by=("started_at", "id"),
    extra_filter_paths=_attempt_filters(""),
    columns=(
        Column("attempt_id", ColumnType.UUID, "The attempt.", "id"),
        *_decodoku_puzzle_columns("puzzle__"),
        Column(
            "corners_source",
            _STR,
            "Where the recorded top-left value comes from: noise (a generated puzzle: the "
            "true value) or published (the digit the puzzle was published with, taken as the "
            "true value: docs/decodoku-puzzles.md).",
            KeyTextTransform("corners_source", "puzzle__solution"),
            allowed=("noise", "published"),
        ),
        *_attempt_columns(solved="answered", finished="answered"),
        Column("checks", _INT, "Checks asked for.", "checks_count", unit="actions"),
        Column(
            "answer",
            _INT,
            "The top-left value answered; empty if the player did not answer.",
            _answer("value", IntegerField()),
            nullable=True,
            values="0-9",
        ),
        Column(
            "correct",
            _BOOL,
            "The answer is the puzzle's recorded top-left value (see corners_source).",
            _answer("correct", BooleanField()),
            nullable=True,
        ),
        Column(
            "links",
            _INT,
            "Links of the explanation answered with.",
            _answer_int("links"),
            nullable=True,
            unit="links",
        ),
        Column(
            "excess",
            _INT,
            "links minus minimum: links beyond the fewest.",
            _answer_int("excess"),
            nullable=True,
            unit="links",
        ),
    ),
)

DECODOKU_ACTIONS = Table(
    name="decodoku_actions",
    title="Decodoku puzzle actions",
    description=(
        "Every action of every attempt in the decodoku_attempts table, in order: links "
        "drawn and removed, checks, the answer. Replaying them from no links gives the "
        "player's links at every step. " + _LINKS_TEXT
    ),
    queryset=decodoku_actions,
    game_path=None,
    order_by=("id",),
    extra_filter_paths=_attempt_filters("attempt__"),
    columns=(
        Column("action_id", _INT, "The row id: use it for incremental pulls.", "id"),
        Column("attempt_id", ColumnType.UUID, "The attempt.", "attempt_id"),
        Column("puzzle_id", ColumnType.UUID, "The puzzle.", "attempt__puzzle_id"),
        Column("player", ColumnType.PSEUDONYM, "The player's pseudonym.", "attempt__player_id"),
        Column("step", _INT, "The action's number in its attempt (1: the first).", "step"),
        Column(
            "action",
            _STR,
            "link (draw a link), unlink (remove one), check (do the links explain the "
            "board?), answer (the top-left value; accepted only for links that explain the "
            "board and give that value). Giving up is the attempt's status, not an action.",
            "kind",
            allowed=tuple(decodoku_platform.ACTION_KINDS),
        ),
        Column(
            "link",
            _INT,
            "For link and unlink: the link's number. " + _LINKS_TEXT,
            _json_int("link", "payload"),
            nullable=True,
            values="0-111",
        ),
        Column(
            "value",
            _INT,
            "For answer: the top-left value answered.",
            "value",
            nullable=True,
            values="0-9",
        ),
        Column(
            "unbalanced_groups",
            _INT,
            "For check: the groups that do not sum to 0 mod 10 and hold no hidden corner "
            "(0: the links explain the board).",
            "wrong_count",
            nullable=True,
            unit="groups",
        ),
        Column(
            "correct",
            _BOOL,
            "For answer: the value is the puzzle's recorded top-left value.",
            "correct",
            nullable=True,
        ),
        *_action_time_columns(),
    ),
)

DECODOKU_BOTS = Table(
    name="decodoku_bot_answers",
    title="Decodoku puzzles: the bots' answers",
    description=(
        "One row per Decodoku puzzle someone attempted and per decoder bot (docs/decodoku-"
        "puzzles.md, 'The bots'): the top-left value it answers, the links it uses and, for "
        "the exact solver, the values tied with it. The puzzle's grid and recorded corners "
        "are in puzzles (puzzle_id). Bots need no consent; the puzzles hold no personal "
        "data."
    ),
    queryset=DecodokuBotAnswer.objects.all,
    game_path=None,
    order_by=("id",),
    extra_filter_paths={"date": "created_at"},
    columns=(
        Column("answer_id", _INT, "The row id: use it for incremental pulls.", "id"),
        *_decodoku_puzzle_columns("puzzle__"),
        Column(
            "bot",
            _STR,
            "exact: the exact solver (fewest links, the smallest tied value); clustering: a "
            "clustering decoder with the two hidden corners as sinks.",
            "bot",
            allowed=tuple(BOTS),
        ),
        Column(
            "bot_version",
            _INT,
            "The bots' version: an integer, as bot_version in decoder_comparisons, "
            "sweep_points and move_bot_agreements.",
            "bot_version",
        ),
        Column("corner", _INT, "The top-left value answered.", "corner", values="0-9"),
        Column("links", _INT, "Links of the bot's explanation.", "links_count", unit="links"),
        Column(
            "link_numbers",
            _STR,
            "The bot's explanation: its link numbers, ascending, as a JSON list. "
            + _LINKS_TEXT,
            Cast("links", output_field=CharField()),
        ),
        Column(
            "ties",
            _STR,
            "exact only: the other top-left values whose best explanation has as few links, "
            "as a JSON list ([] when the answer is the only one; always [] for the other "
            "bots). On a tied grid the exact solver answers the smallest tied value, so "
            "whether it is correct depends on that tie-break: count an answer as matching "
            "when the recorded value (puzzles.corner_top_left) is corner or one of these.",
            Cast("ties", output_field=CharField()),
        ),
        Column(
            "correct",
            _BOOL,
            "The answer is the puzzle's recorded top-left value (generated: the true value; "
            "published: the published digit; see puzzles.corner_top_left). For the exact "
            "solver on a tied grid this depends on its tie-break (see ties).",
            "correct",
            nullable=True,
        ),
        Column(
            "optimal",
            _BOOL,
            "exact only: the minimum is proven (false: the solver ran out of steps).",
            "optimal",
            nullable=True,
        ),
        Column("created_at", _TIME, "When the bot answered.", "created_at"),
    ),
)


def players_with_attempts(date_from: datetime | None, date_to: datetime | None) -> Q:
    """Players with a research-data attempt started in the dates given (for players.csv)."""
    attempts = Attempt.objects.research_data()
    if date_from is not None:
        attempts = attempts.filter(started_at__gte=date_from)
    if date_to is not None:
        attempts = attempts.filter(started_at__lt=date_to)
    return Q(pk__in=attempts.values("player_id"))


# A player who only did puzzles is listed in the games app's players table too.
register_player_records("puzzle_attempts", players_with_attempts)

# The Decodoku tables first: the generic puzzle tables stay the last of the codebook.
register(DECODOKU_ATTEMPTS, DECODOKU_ACTIONS, DECODOKU_BOTS, PUZZLES, ATTEMPTS, ACTIONS_TABLE)
