"""Writes about puzzles: generating one, starting an attempt, recording actions, finishing.

Every write runs in one transaction, and an action locks its attempt row
(``SELECT ... FOR UPDATE``) so that the actions of an attempt are applied one
at a time, in order. As for Decodoku moves, the client sends the step it
believes the attempt is at: equal to the attempt's count, the action is
applied; lower, and the action recorded at that step is the same one, it is
a retry and the stored result is returned; otherwise ``StaleStep`` (409)
with the current step.

An attempt that ends (solved or given up) shows the player its solution, so
their attempts at the same puzzle that start later, or that are still open
then, are marked ``seen_solution`` and are not research data: starting a
puzzle again marks the new attempt when an earlier one has ended, ending one
marks the player's other open attempts at it, and an attempt that ends after
another one has ended is marked then at the latest. "The same puzzle" is any
puzzle with the same answer key (``Puzzle.solution_digest``), however it was
started: from its seed, from its puzzle ID, or entered with more givens.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.tasks import enqueue
from games.errors import GameOver, IllegalMoveError, InvalidInput, NotFound, StaleStep
from games.models import Player
from puzzles.engines.answer_key import solution_digest
from puzzles.engines.base import ActionRejected
from puzzles.engines.decodoku import platform as decodoku_platform
from puzzles.engines.decodoku.bots import BOT_VERSION, BOTS
from puzzles.engines.decodoku.published import PublishedPuzzle, published_puzzles
from puzzles.engines.decodoku.solver import solve as solve_decodoku
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind
from puzzles.engines.solver import solve_logically
from puzzles.loading import engine_puzzle, puzzle_kind
from puzzles.models import (
    OWN,
    SOLUTION_CELLS_MAX_LENGTH,
    Action,
    Attempt,
    DecodokuBotAnswer,
    Puzzle,
    RevealedSolution,
    same_answer_condition,
)
from puzzles.selectors import InvalidPuzzle, own_puzzle_check

logger = logging.getLogger(__name__)
DECODOKU = decodoku_platform.KIND

SEED_BITS = 63
CLIENT_INFO_MAX_LENGTH = 300


@dataclass(frozen=True, slots=True)
class ActResult:
    """What one action did; ``replayed`` when it repeated an action already recorded."""

    attempt: Attempt
    action: Action
    replayed: bool


def _clean_client_info(client_info: Mapping[str, Any] | None) -> dict[str, str]:
    return {
        str(key)[:40]: str(value)[:CLIENT_INFO_MAX_LENGTH]
        for key, value in (client_info or {}).items()
        if value is not None
    }


# Values 10 to 35 as one letter, so that cell (r, c) stays character r*N + c beyond 9 x 9.
CELL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _cell_character(value: Any) -> str:
    number = int(value)
    return CELL_LETTERS[number - 10] if 10 <= number < 10 + len(CELL_LETTERS) else str(number)


def _cells_text(solution: Any) -> str:
    """A Latin square as one text of one character per cell (10 is A, 11 B, ...), row by
    row; empty for other shapes."""
    try:
        text = "".join(_cell_character(v) for row in solution for v in row)
    except (TypeError, ValueError):
        return ""
    return text[:SOLUTION_CELLS_MAX_LENGTH]


def _payload_cell(payload: Mapping[str, Any]) -> tuple[int | None, int | None, int | None]:
    cell = payload.get("cell", payload.get("a"))  # "a": the first cell of a 2mino bar
    row = col = None
    if isinstance(cell, list) and len(cell) == 2:
        row, col = cell
    value = payload.get("value")
    return row, col, value if isinstance(value, int) else None


def _result_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """The flat columns of what the player was told: the hint, the count of wrong cells."""
    columns: dict[str, Any] = {}
    hint = result.get("hint")
    if isinstance(hint, dict):
        columns["hint_kind"] = str(hint.get("kind", ""))
        cell = hint.get("cell")
        if isinstance(cell, list) and len(cell) == 2:
            columns["hint_row"], columns["hint_col"] = cell
        columns["hint_value"] = hint.get("value")
    elif "hint" in result:
        columns["hint_kind"] = "none"
    if isinstance(result.get("wrong"), list):
        columns["wrong_count"] = len(result["wrong"])
    if isinstance(result.get("unbalanced"), list):  # a Decodoku check: the unbalanced groups
        columns["wrong_count"] = len(result["unbalanced"])
    if isinstance(hint, dict) and isinstance(hint.get("a"), list) and len(hint["a"]) == 2:
        columns["hint_row"], columns["hint_col"] = hint["a"]  # a 2mino hint's first cell
    for key in ("formed", "broken"):  # 2mino toggles and resets
        if isinstance(result.get(key), list):
            columns[f"pairs_{key}"] = len(result[key])
    return columns


def _payload_second_cell(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The second cell of a 2mino bar (its first is ``row``/``col``)."""
    cell = payload.get("b")
    if isinstance(cell, list) and len(cell) == 2 and "a" in payload:
        return {"row_b": cell[0], "col_b": cell[1]}
    return {}


def puzzle_get_or_create(
    *, kind: str, size: int | None = None, difficulty: str | None = None, seed: int | None = None
) -> Puzzle:
    """The stored puzzle for these generation arguments, generated and stored if new."""
    try:
        puzzle_kind_ = get_kind(kind)
        size = puzzle_kind_.default_size if size is None else size
        puzzle_kind_.check_size(size)
        if difficulty is not None and difficulty not in puzzle_kind_.difficulties:
            raise PuzzleError(f"difficulty must be one of {', '.join(puzzle_kind_.difficulties)}")
    except PuzzleError as exc:
        raise InvalidInput(str(exc)) from None
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    elif not 0 <= seed < 2**SEED_BITS:
        raise InvalidInput(f"seed must be between 0 and 2**{SEED_BITS} - 1")
    lookup = {
        "kind": kind,
        "size": size,
        "seed": seed,
        "engine_version": puzzle_kind_.engine_version,
        "requested_difficulty": difficulty or "",
    }
    existing = Puzzle.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    try:
        made = puzzle_kind_.generate(size=size, seed=seed, difficulty=difficulty)
    except PuzzleError as exc:  # a level that this size and seed did not reach
        raise InvalidInput(str(exc), code="level_not_reached") from None
    data = made.to_dict()
    rating = puzzle_kind_.rate(made.puzzle) if puzzle_kind_.rate else data.get("difficulty") or {}
    definition = {k: v for k, v in data.items() if k not in ("solution", "difficulty", "seed")}
    techniques: dict[str, int] = dict(rating.get("techniques", {}))
    engine_obj = made.puzzle
    # Latin-square kinds: the solver's technique use (a kind with a rating of its own, or
    # Decodoku, whose board also has a geometry, has none).
    if puzzle_kind_.rate is None and kind != DECODOKU and hasattr(engine_obj, "geometry"):
        trace = solve_logically(engine_obj)
        techniques = dict(Counter(step.technique for step in trace.steps))
    try:
        with transaction.atomic():
            return Puzzle.objects.create(
                **lookup,
                difficulty=str(rating.get("label", "")),
                hardest_technique=str(rating.get("hardest", "")),
                solver_steps=int(rating.get("steps", 0)),
                solver_techniques=techniques,
                definition=definition,
                solution=data["solution"],
                solution_cells=_cells_text(data["solution"]),
                solution_digest=solution_digest(kind=kind, size=size, solution=data["solution"]),
            )
    except IntegrityError:  # generated at the same time by another request
        return Puzzle.objects.get(**lookup)


@transaction.atomic
def attempt_start(
    *,
    player: Player,
    kind: str,
    size: int | None = None,
    difficulty: str | None = None,
    seed: int | None = None,
    number: int | None = None,
    source: str = Attempt.Source.API,
    client_info: Mapping[str, Any] | None = None,
) -> Attempt:
    """Start solving a puzzle (a new one, the one these arguments generate, or a published
    Decodoku puzzle by its ``number``)."""
    if source not in Attempt.Source.values:
        raise InvalidInput(f"unknown source {source!r}")
    if number is not None:
        if kind != DECODOKU or size is not None or difficulty is not None or seed is not None:
            raise InvalidInput("number names a published decodoku puzzle; give only the kind")
        puzzle = decodoku_published_get_or_create(number=number)
    else:
        puzzle = puzzle_get_or_create(kind=kind, size=size, difficulty=difficulty, seed=seed)
    play = puzzle_kind(puzzle).play
    return Attempt.objects.create(
        puzzle=puzzle,
        player=player,
        source=source,
        state=play.empty_state(engine_puzzle(puzzle)),
        client_info=_clean_client_info(client_info),
        research_consent=player.research_consent,
        seen_solution=_solution_seen(puzzle, player_id=player.pk),
    )


def _solution_seen(
    puzzle: Puzzle, *, player_id: uuid.UUID, other_than: uuid.UUID | None = None
) -> bool:
    """Whether the player was shown the solution of ``puzzle`` (or of any puzzle with its
    answer key): by an attempt that ended (but ``other_than``) or by the checker."""
    ended = _ended_attempts_at(puzzle, player_id=player_id)
    if other_than is not None:
        ended = ended.exclude(pk=other_than)
    revealed = RevealedSolution.objects.filter(
        player_id=player_id, solution_digest=puzzle.solution_digest
    )
    return ended.exists() or revealed.exists()


def _ended_attempts_at(puzzle: Puzzle, *, player_id: uuid.UUID) -> QuerySet[Attempt]:
    """The player's attempts at ``puzzle`` (or any puzzle with its answer key) that were
    solved or given up."""
    return Attempt.objects.filter(same_answer_condition(puzzle), player_id=player_id).exclude(
        status=Attempt.Status.ACTIVE
    )


def _end(attempt: Attempt, *, status: str, now: datetime) -> list[str]:
    """End ``attempt`` (not saved): the fields to save.

    Ending shows the solution: the player's other open attempts at the puzzle
    are marked ``seen_solution`` (an open attempt locked by a request of its
    own is left to its own end), and so is this one if another had ended before.
    """
    attempt.status = status
    attempt.finished_at = now
    fields = ["status", "finished_at"]
    if attempt.puzzle.kind == DECODOKU:
        puzzle_id = attempt.puzzle_id
        transaction.on_commit(lambda: _queue_decodoku_bots(puzzle_id))
    others = Attempt.objects.filter(
        same_answer_condition(attempt.puzzle),
        player_id=attempt.player_id,
        status=Attempt.Status.ACTIVE,
        seen_solution=False,
    ).exclude(pk=attempt.pk)
    open_ids = list(others.select_for_update(skip_locked=True).values_list("pk", flat=True))
    if open_ids:
        Attempt.objects.filter(pk__in=open_ids).update(seen_solution=True)
    if not attempt.seen_solution and _solution_seen(
        attempt.puzzle, player_id=attempt.player_id, other_than=attempt.pk
    ):
        attempt.seen_solution = True
        fields.append("seen_solution")
    return fields


def _locked_attempt(*, attempt_id: uuid.UUID, player: Player) -> Attempt:
    attempt = (
        Attempt.objects.select_for_update()
        .select_related("puzzle")
        .filter(pk=attempt_id, player=player)
        .first()
    )
    if attempt is None:
        raise NotFound("No such attempt.")
    return attempt


COUNTERS = {
    "entry": "entries_count",
    "toggle": "entries_count",
    "hint": "hints_count",
    "check": "checks_count",
    "undo": "undos_count",
}


# The most actions one batch may hold: every candidate of a 9 x 9 grid is 729; a
# client splits a larger group (a 16 x 16 grid's 4,096 candidates) into batches.
MAX_BATCH_ACTIONS = 1000


@dataclass(frozen=True)
class ActionIn:
    """One action of a batch, as the player sent it."""

    kind: str
    payload: Mapping[str, Any]
    client_time: datetime | None = None


@dataclass
class BatchResult:
    """What a batch did: the actions recorded (fewer than sent when the puzzle was solved
    before the last), or, ``replayed``, those recorded by an earlier copy of the batch."""

    attempt: Attempt
    actions: list[Action]
    replayed: bool


@transaction.atomic
def attempt_act_many(
    *, attempt_id: uuid.UUID, player: Player, step: int, actions: Sequence[ActionIn]
) -> BatchResult:
    """Apply and record several actions of ``player``'s attempt in one go, each as its own
    step, as :func:`attempt_act` would one by one: all of them or, when one is refused,
    none (the error names it). Actions after the one that solves the puzzle are not
    applied. Resending a recorded batch answers what was recorded."""
    if not 1 <= len(actions) <= MAX_BATCH_ACTIONS:
        raise InvalidInput(f"A batch holds 1 to {MAX_BATCH_ACTIONS} actions.")
    attempt = _locked_attempt(attempt_id=attempt_id, player=player)
    current = attempt.steps
    if step != current:
        if 0 <= step < current:
            recorded = list(
                Action.objects.filter(attempt=attempt, step__gt=step).order_by("step")[
                    : len(actions)
                ]
            )
            # The whole batch, or the part of it up to the action that solved the puzzle.
            complete = len(recorded) == len(actions) or (
                bool(recorded) and not attempt.is_active and recorded[-1].step == current
            )
            same = complete and all(
                a.kind == sent.kind and a.payload == dict(sent.payload)
                for a, sent in zip(recorded, actions, strict=False)
            )
            if same:
                return BatchResult(attempt=attempt, actions=recorded, replayed=True)
        raise StaleStep(f"The attempt is at step {current}, not {step}.", current_step=current)
    if not attempt.is_active:
        raise GameOver(f"The attempt is {attempt.status}.", current_step=current)
    puzzle = attempt.puzzle
    play = puzzle_kind(puzzle).play
    engine_obj = engine_puzzle(puzzle)
    now = timezone.now()
    elapsed_ms = int((now - attempt.started_at).total_seconds() * 1000)
    state = attempt.state
    fields = {"state", "steps"}
    rows: list[Action] = []
    solved = False
    for number, sent in enumerate(actions):
        payload = dict(sent.payload)
        # In a batch of several, an error names the action (the first is action 0).
        which = f"action {number}: " if len(actions) > 1 else ""
        try:
            outcome = play.apply_action(engine_obj, puzzle.solution, state, sent.kind, payload)
        except ActionRejected as exc:
            raise IllegalMoveError(
                f"{which}{exc}", code="illegal_action", current_step=current
            ) from None
        except PuzzleError as exc:
            raise InvalidInput(f"{which}{exc}", current_step=current) from None
        state = outcome.state
        row, col, value = _payload_cell(payload)
        rows.append(
            Action(
                attempt=attempt,
                step=current + number + 1,
                kind=sent.kind,
                payload=payload,
                result=outcome.result,
                row=row,
                col=col,
                value=value,
                **_result_columns(outcome.result),
                **_payload_second_cell(payload),
                technique=outcome.technique,
                correct=outcome.correct,
                server_time=now,
                client_time=sent.client_time,
                elapsed_ms=elapsed_ms,
            )
        )
        counter = COUNTERS.get(sent.kind)
        if counter:
            setattr(attempt, counter, getattr(attempt, counter) + 1)
            fields.add(counter)
        if outcome.correct is False:
            attempt.wrong_entries += 1
            fields.add("wrong_entries")
        solved = play.is_solved(engine_obj, state)
        if solved:
            break
    Action.objects.bulk_create(rows)
    attempt.state = state
    attempt.steps = current + len(rows)
    if solved:
        fields.update(_end(attempt, status=Attempt.Status.SOLVED, now=now))
    attempt.save(update_fields=sorted(fields))
    return BatchResult(attempt=attempt, actions=rows, replayed=False)


def attempt_act(
    *,
    attempt_id: uuid.UUID,
    player: Player,
    step: int,
    kind: str,
    payload: Mapping[str, Any] | None = None,
    client_time: datetime | None = None,
) -> ActResult:
    """Apply and record one action of ``player``'s attempt, or answer a retried one: a
    batch of one (:func:`attempt_act_many`)."""
    result = attempt_act_many(
        attempt_id=attempt_id,
        player=player,
        step=step,
        actions=[ActionIn(kind=kind, payload=dict(payload or {}), client_time=client_time)],
    )
    return ActResult(attempt=result.attempt, action=result.actions[0], replayed=result.replayed)


@transaction.atomic
def attempt_finish(*, attempt_id: uuid.UUID, player: Player) -> Attempt:
    """End an attempt: solved if the grid is solved, else abandoned. Idempotent once ended."""
    attempt = _locked_attempt(attempt_id=attempt_id, player=player)
    if not attempt.is_active:
        return attempt
    puzzle = attempt.puzzle
    play = puzzle_kind(puzzle).play
    solved = play.is_solved(engine_puzzle(puzzle), attempt.state)
    status = Attempt.Status.SOLVED if solved else Attempt.Status.ABANDONED
    attempt.save(update_fields=_end(attempt, status=status, now=timezone.now()))
    return attempt


@transaction.atomic
def attempts_set_excluded(*, attempt_ids: list[uuid.UUID], excluded: bool) -> int:
    """Exclude attempts from the research exports (or include them again); returns the count."""
    return Attempt.objects.filter(pk__in=attempt_ids).update(excluded_from_research=excluded)


# --- Decodoku puzzles: the published ones as rows, and the bots' answers ----------


def _published_by_number(number: int) -> PublishedPuzzle:
    for puzzle in published_puzzles():
        if number in puzzle.numbers:
            return puzzle
    last = max(n for p in published_puzzles() for n in p.numbers)
    raise NotFound(f"No published decodoku puzzle {number} (they are numbered 0 to {last}).")


def _store_published(puzzle: PublishedPuzzle) -> Puzzle:
    board = puzzle.board()
    found = solve_decodoku(board)
    solution = decodoku_platform.solution_data(board, found, corners_source="published")
    lookup = {
        "kind": DECODOKU,
        "size": board.geometry.rows,
        "seed": puzzle.number,
        "engine_version": decodoku_platform.ENGINE_VERSION,
        "requested_difficulty": decodoku_platform.PUBLISHED,
    }
    try:
        with transaction.atomic():
            return Puzzle.objects.create(
                **lookup,
                number=puzzle.number,
                difficulty=decodoku_platform.PUBLISHED,
                hardest_technique="",
                solver_steps=0,
                definition=decodoku_platform.published_definition(puzzle),
                solution=solution,
                solution_digest=solution_digest(
                    kind=DECODOKU, size=board.geometry.rows, solution=solution
                ),
            )
    except IntegrityError:  # stored at the same time by another request
        return Puzzle.objects.get(**lookup)


def decodoku_published_get_or_create(*, number: int) -> Puzzle:
    """The row of a published Decodoku puzzle (any of its numbers), solved and stored if new."""
    published = _published_by_number(number)
    existing = Puzzle.objects.filter(
        kind=DECODOKU, number=published.number, engine_version=decodoku_platform.ENGINE_VERSION
    ).first()
    return existing if existing is not None else _store_published(published)


def decodoku_published_load() -> tuple[int, int]:
    """Store every published Decodoku puzzle not stored yet: (created, already there)."""
    stored = set(
        Puzzle.objects.filter(
            kind=DECODOKU,
            number__isnull=False,
            engine_version=decodoku_platform.ENGINE_VERSION,
        ).values_list("number", flat=True)
    )
    created = 0
    for puzzle in published_puzzles():
        if puzzle.number not in stored:
            _store_published(puzzle)
            created += 1
    return created, len(published_puzzles()) - created


def _queue_decodoku_bots(puzzle_id: uuid.UUID) -> None:
    """Queue the bots' decoding of a puzzle (after the commit; a failure is only logged)."""
    try:
        enqueue("puzzles.decode_decodoku", str(puzzle_id))
    except Exception:  # the broker is down: the command's "bots" runs them later
        logger.exception("could not queue the decodoku bots for puzzle %s", puzzle_id)


def decodoku_bots_run(*, puzzle_id: uuid.UUID) -> int:
    """Every bot's answer on a Decodoku puzzle, stored once: returns how many were new.

    Idempotent: a bot (at its version) that has answered on the puzzle is not
    run again, and two runs at once store one row each (the unique constraint).
    """
    puzzle = Puzzle.objects.filter(pk=puzzle_id, kind=DECODOKU).first()
    if puzzle is None:
        raise NotFound("No such decodoku puzzle.")
    done = set(
        DecodokuBotAnswer.objects.filter(puzzle=puzzle, bot_version=BOT_VERSION).values_list(
            "bot", flat=True
        )
    )
    board = decodoku_platform.with_corners(engine_puzzle(puzzle), puzzle.solution)
    created = 0
    for name, bot in BOTS.items():
        if name in done:
            continue
        answer = bot(board)
        try:
            with transaction.atomic():
                DecodokuBotAnswer.objects.create(
                    puzzle=puzzle,
                    bot=name,
                    bot_version=BOT_VERSION,
                    corner=answer.corner,
                    links=sorted(answer.links),
                    links_count=len(answer.links),
                    correct=None if board.corners is None else answer.corner == board.corners[0],
                    optimal=answer.optimal,
                    ties=list(answer.ties),
                )
        except IntegrityError:  # stored by a concurrent run
            continue
        created += 1
    return created


def decodoku_bots_pending(*, every: bool = False) -> list[uuid.UUID]:
    """Decodoku puzzles with an ended attempt (``every``: any stored one) and a bot that has
    not answered on them yet."""
    ended = Puzzle.objects.filter(kind=DECODOKU)
    if not every:
        ended = ended.filter(
            attempts__status__in=[Attempt.Status.SOLVED, Attempt.Status.ABANDONED]
        ).distinct()
    pending: list[uuid.UUID] = []
    for puzzle_id in ended.values_list("pk", flat=True):
        answered = DecodokuBotAnswer.objects.filter(
            puzzle_id=puzzle_id, bot_version=BOT_VERSION
        ).count()
        if answered < len(BOTS):
            pending.append(puzzle_id)
    return pending


# --- Puzzles that players make -------------------------------------------------------


def _own_seed(definition: Mapping[str, Any]) -> int:
    text = json.dumps(definition, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> (64 - SEED_BITS)


def own_puzzle_get_or_create(*, definition: dict[str, Any], author: Player) -> Puzzle:
    """The stored row of a player's puzzle, checked and stored if new (``author`` is who
    entered it first); ``InvalidPuzzle`` unless it has exactly one solution."""
    verdict = own_puzzle_check(definition=definition)
    if verdict.solutions != "one" or verdict.grade is None or verdict.solution is None:
        raise InvalidPuzzle(
            f"only a puzzle with exactly one solution can be played; this one has "
            f"{verdict.solutions}"
        )
    engine_obj = verdict.puzzle
    stored = engine_obj.to_dict()
    # The seed of an own puzzle is a digest of its definition: the same puzzle entered
    # twice is one row.
    lookup = {
        "kind": engine_obj.kind,
        "size": engine_obj.size,
        "seed": _own_seed(stored),
        "engine_version": get_kind(engine_obj.kind).engine_version,
        "requested_difficulty": OWN,
    }
    existing = Puzzle.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return Puzzle.objects.create(
                **lookup,
                difficulty=verdict.grade.label,
                hardest_technique=verdict.grade.hardest,
                solver_steps=sum(verdict.grade.techniques.values()),
                solver_techniques=dict(verdict.grade.techniques),
                definition=stored,
                solution=verdict.solution,
                solution_cells=_cells_text(verdict.solution),
                solution_digest=solution_digest(
                    kind=engine_obj.kind, size=engine_obj.size, solution=verdict.solution
                ),
                author=author,
            )
    except IntegrityError:  # stored at the same time by another request
        return Puzzle.objects.get(**lookup)


@transaction.atomic
def own_puzzle_start(
    *,
    player: Player,
    definition: dict[str, Any],
    source: str = Attempt.Source.API,
    client_info: Mapping[str, Any] | None = None,
) -> Attempt:
    """Start an attempt at a puzzle the player entered (or loaded from a file)."""
    if source not in Attempt.Source.values:
        raise InvalidInput(f"unknown source {source!r}")
    puzzle = own_puzzle_get_or_create(definition=definition, author=player)
    play = puzzle_kind(puzzle).play
    return Attempt.objects.create(
        puzzle=puzzle,
        player=player,
        source=source,
        state=play.empty_state(engine_puzzle(puzzle)),
        client_info=_clean_client_info(client_info),
        research_consent=player.research_consent,
        seen_solution=_solution_seen(puzzle, player_id=player.pk),
    )


@transaction.atomic
def solution_revealed(*, player: Player, kind: str, size: int, solution: Any) -> None:
    """Record that the checker showed ``player`` a solution: their open attempts at any
    puzzle with it are marked ``seen_solution`` now, later ones from their start."""
    digest = solution_digest(kind=kind, size=size, solution=solution)
    RevealedSolution.objects.get_or_create(player=player, solution_digest=digest)
    Attempt.objects.filter(
        player=player,
        puzzle__solution_digest=digest,
        status=Attempt.Status.ACTIVE,
        seen_solution=False,
    ).update(seen_solution=True)
