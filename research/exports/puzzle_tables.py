"""Export tables of the logic puzzles: puzzles, attempts, actions.

The kinds, difficulties and action kinds allowed in these tables are those
of the kinds registered in ``puzzles.engines.registry`` (KenKen, Futoshiki,
2mino), so that a new kind is exported without a change here.

Attempts and actions are research data only when the player consented, no
curator excluded the attempt and the player had not seen the puzzle's
solution before it ended (``puzzles.models.attempt_research_condition``): the
tables hold nothing else (there is no ``include_...`` filter for them).
Puzzles hold no personal data: every generated puzzle is listed. A puzzle is
regenerated exactly from its kind, size, seed, engine version and requested
difficulty with ``manage.py puzzle generate`` (see docs/puzzles.md).
"""

from __future__ import annotations

from django.db.models import Q

from puzzles.models import attempt_research_condition
from research.exports.columns import Column, ColumnType
from research.exports.tables import Table

_INT = ColumnType.INTEGER
_STR = ColumnType.STRING
_BOOL = ColumnType.BOOLEAN
_TIME = ColumnType.DATETIME


def _registered() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Kinds, difficulties and action kinds of every registered puzzle kind, in order."""
    from puzzles.engines.registry import KINDS as REGISTERED

    kinds = tuple(REGISTERED)
    difficulties: list[str] = []
    actions: list[str] = []
    for kind in REGISTERED.values():
        difficulties += [d for d in kind.difficulties if d not in difficulties]
        actions += [a for a in kind.play.ACTION_KINDS if a not in actions]
    return kinds, tuple(difficulties), tuple(actions)


KINDS, DIFFICULTIES, ACTIONS = _registered()
TECHNIQUES = (
    "naked_single",
    "hidden_single",
    "cage_arithmetic",
    "operator_chain",
    "naked_pair",
    "naked_triple",
    "permutation_filter",
    "search",
)
ENTRY_TAGS = (*TECHNIQUES[:-1], "not_justified")


def _puzzle_columns(prefix: str) -> tuple[Column, ...]:
    return (
        Column("puzzle_id", ColumnType.UUID, "The puzzle.", f"{prefix}id"),
        Column("kind", _STR, "The puzzle kind.", f"{prefix}kind", allowed=KINDS),
        Column(
            "size",
            _INT,
            "N: the grid is N x N cells holding 1..N (2mino: N symbols 0..N-1 on N+1 rows "
            "of N cells).",
            f"{prefix}size",
            unit="cells",
            values="3-9 (2mino: 3-12)",
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
            "The solver's rating: easy (singles and the kind's own technique), medium "
            "(naked pairs or triples), hard (permutation filtering), expert (search); "
            "2mino: normal or unique (docs/2mino.md).",
            f"{prefix}difficulty",
            allowed=DIFFICULTIES,
        ),
    )


def _attempt_filters(prefix: str) -> dict[str, str]:
    return {
        "date": f"{prefix}started_at",
        "engine_version": f"{prefix}puzzle__engine_version",
        "player": f"{prefix}player_id",
    }


def _research_only(prefix: str) -> Q:
    return attempt_research_condition(prefix=prefix)


PUZZLES = Table(
    name="puzzles",
    title="Logic puzzles",
    description=(
        "One row per generated KenKen, Futoshiki or 2mino puzzle that someone started, with "
        "the "
        "solver's rating. The seed, engine version and requested difficulty regenerate it."
    ),
    model_label="puzzles.Puzzle",
    game_path=None,
    row_id=None,
    order_by=("created_at", "id"),
    extra_filter_paths={"date": "created_at", "engine_version": "engine_version"},
    columns=(
        *_puzzle_columns(""),
        Column("seed", _INT, "The generation seed.", "seed"),
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
            "The hardest technique the solver's logical solution needs.",
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
            "The solution, row by row from the top left, one digit per cell: cell "
            "(row r, column c) is character r*N + c (0-based). Empty for 2mino: its "
            "solution is a tiling, regenerated with manage.py puzzle generate 2mino.",
            "solution_cells",
            values="N*N digits 1-9",
        ),
        Column("created_at", _TIME, "When the puzzle was first generated here.", "created_at"),
    ),
)

ATTEMPTS = Table(
    name="puzzle_attempts",
    title="Puzzle attempts",
    description=(
        "One row per attempt of a player at a puzzle (consenting players, not excluded, "
        "made before the player had seen the puzzle's solution): its outcome, timing and "
        "counts of actions."
    ),
    model_label="puzzles.Attempt",
    game_path=None,
    row_id=None,
    order_by=("started_at", "id"),
    base_filter=_research_only(""),
    extra_filter_paths=_attempt_filters(""),
    columns=(
        Column("attempt_id", ColumnType.UUID, "The attempt.", "id"),
        *_puzzle_columns("puzzle__"),
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
            "active (still open), solved (the grid was completed correctly), abandoned.",
            "status",
            allowed=("active", "solved", "abandoned"),
        ),
        Column("started_at", _TIME, "When the attempt started.", "started_at"),
        Column(
            "finished_at",
            _TIME,
            "When it was solved or given up; empty while active.",
            "finished_at",
            nullable=True,
        ),
        Column("actions", _INT, "Actions recorded.", "steps", unit="actions"),
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
    model_label="puzzles.Action",
    game_path=None,
    order_by=("id",),
    base_filter=_research_only("attempt__"),
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
            "no_candidate (a cell with no candidate left: an error), none (no such hint); "
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
    ),
)


def puzzle_tables() -> tuple[Table, ...]:
    return (PUZZLES, ATTEMPTS, ACTIONS_TABLE)
