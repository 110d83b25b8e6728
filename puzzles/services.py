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
another one has ended is marked then at the latest.
"""

from __future__ import annotations

import secrets
import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.errors import GameOver, IllegalMoveError, InvalidInput, NotFound, StaleStep
from games.models import Player
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind
from puzzles.engines.solver import solve_logically
from puzzles.loading import engine_puzzle, puzzle_kind
from puzzles.models import Action, Attempt, Puzzle, same_puzzle_condition

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


def _cells_text(solution: Any) -> str:
    """A Latin square as one text of digits, row by row; empty for other shapes."""
    try:
        return "".join(str(int(v)) for row in solution for v in row)[:81]
    except (TypeError, ValueError):
        return ""


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
    made = puzzle_kind_.generate(size=size, seed=seed, difficulty=difficulty)
    data = made.to_dict()
    rating = puzzle_kind_.rate(made.puzzle) if puzzle_kind_.rate else data.get("difficulty") or {}
    definition = {k: v for k, v in data.items() if k not in ("solution", "difficulty", "seed")}
    techniques: dict[str, int] = dict(rating.get("techniques", {}))
    engine_obj = made.puzzle
    if hasattr(engine_obj, "geometry"):  # Latin-square kinds: the solver's technique use
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
    source: str = Attempt.Source.API,
    client_info: Mapping[str, Any] | None = None,
) -> Attempt:
    """Start solving a puzzle (a new one, or the one these arguments generate)."""
    if source not in Attempt.Source.values:
        raise InvalidInput(f"unknown source {source!r}")
    puzzle = puzzle_get_or_create(kind=kind, size=size, difficulty=difficulty, seed=seed)
    play = puzzle_kind(puzzle).play
    return Attempt.objects.create(
        puzzle=puzzle,
        player=player,
        source=source,
        state=play.empty_state(engine_puzzle(puzzle)),
        client_info=_clean_client_info(client_info),
        research_consent=player.research_consent,
        seen_solution=_ended_attempts_at(puzzle, player_id=player.pk).exists(),
    )


def _ended_attempts_at(puzzle: Puzzle, *, player_id: uuid.UUID) -> QuerySet[Attempt]:
    """The player's attempts at ``puzzle`` (or the same grid) that were solved or given up."""
    return Attempt.objects.filter(same_puzzle_condition(puzzle), player_id=player_id).exclude(
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
    others = Attempt.objects.filter(
        same_puzzle_condition(attempt.puzzle),
        player_id=attempt.player_id,
        status=Attempt.Status.ACTIVE,
        seen_solution=False,
    ).exclude(pk=attempt.pk)
    open_ids = list(others.select_for_update(skip_locked=True).values_list("pk", flat=True))
    if open_ids:
        Attempt.objects.filter(pk__in=open_ids).update(seen_solution=True)
    if not attempt.seen_solution:
        seen = _ended_attempts_at(attempt.puzzle, player_id=attempt.player_id).exclude(
            pk=attempt.pk
        )
        if seen.exists():
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


@transaction.atomic
def attempt_act(
    *,
    attempt_id: uuid.UUID,
    player: Player,
    step: int,
    kind: str,
    payload: Mapping[str, Any] | None = None,
    client_time: datetime | None = None,
) -> ActResult:
    """Apply and record one action of ``player``'s attempt, or answer a retried one."""
    payload = dict(payload or {})
    attempt = _locked_attempt(attempt_id=attempt_id, player=player)
    current = attempt.steps
    if step != current:
        if 0 <= step < current:
            recorded = Action.objects.filter(attempt=attempt, step=step + 1).first()
            if recorded is not None and recorded.kind == kind and recorded.payload == payload:
                return ActResult(attempt=attempt, action=recorded, replayed=True)
        raise StaleStep(f"The attempt is at step {current}, not {step}.", current_step=current)
    if not attempt.is_active:
        raise GameOver(f"The attempt is {attempt.status}.", current_step=current)
    puzzle = attempt.puzzle
    play = puzzle_kind(puzzle).play
    try:
        outcome = play.apply_action(
            engine_puzzle(puzzle), puzzle.solution, attempt.state, kind, payload
        )
    except play.ActionRejected as exc:
        raise IllegalMoveError(str(exc), code="illegal_action", current_step=current) from None
    except PuzzleError as exc:
        raise InvalidInput(str(exc), current_step=current) from None
    now = timezone.now()
    row, col, value = _payload_cell(payload)
    action = Action.objects.create(
        attempt=attempt,
        step=current + 1,
        kind=kind,
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
        client_time=client_time,
        elapsed_ms=int((now - attempt.started_at).total_seconds() * 1000),
    )
    attempt.state = outcome.state
    attempt.steps = current + 1
    fields = ["state", "steps"]
    counter = COUNTERS.get(kind)
    if counter:
        setattr(attempt, counter, getattr(attempt, counter) + 1)
        fields.append(counter)
    if outcome.correct is False:
        attempt.wrong_entries += 1
        fields.append("wrong_entries")
    if play.is_solved(engine_puzzle(puzzle), attempt.state):
        fields += _end(attempt, status=Attempt.Status.SOLVED, now=now)
    attempt.save(update_fields=fields)
    return ActResult(attempt=attempt, action=action, replayed=False)


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
