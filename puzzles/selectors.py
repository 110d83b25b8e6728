"""Reads about puzzles: a player's attempts, what the player may see, replays.

While an attempt is active the player sees the puzzle and the grid, never
the seed or the solution (either would give the answer away); once it has
ended, both are shown, with every action.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet

from games.errors import InvalidStep, NotFound
from games.models import Player
from puzzles.engines.registry import KINDS
from puzzles.loading import engine_puzzle, puzzle_kind
from puzzles.models import Action, Attempt


def kinds_view() -> list[dict[str, Any]]:
    """The puzzle kinds on offer, for clients and the web page."""
    return [
        {
            "kind": kind.name,
            "title": kind.title,
            "engine_version": kind.engine_version,
            "min_size": kind.min_size,
            "max_size": kind.max_size,
            "default_size": kind.default_size,
            "difficulties": list(kind.difficulties),
            "actions": list(kind.play.ACTION_KINDS),
        }
        for kind in KINDS.values()
    ]


def attempt_list_for_player(*, player: Player) -> QuerySet[Attempt]:
    attempts = Attempt.objects.filter(player=player).select_related("puzzle")
    return attempts.order_by("-started_at", "-id")


def attempt_get_for_player(*, attempt_id: uuid.UUID, player: Player) -> Attempt:
    """The attempt, if it is the player's; another player's attempt is simply not found."""
    attempt = Attempt.objects.select_related("puzzle").filter(pk=attempt_id, player=player).first()
    if attempt is None:
        raise NotFound("No such attempt.")
    return attempt


def attempt_actions(*, attempt: Attempt) -> QuerySet[Action]:
    return Action.objects.filter(attempt=attempt).order_by("step")


def action_view(action: Action) -> dict[str, Any]:
    return {
        "step": action.step,
        "kind": action.kind,
        "payload": action.payload,
        "result": action.result,
        "server_time": action.server_time.isoformat(),
        "elapsed_ms": action.elapsed_ms,
    }


def attempt_public_view(*, attempt: Attempt, detail: bool = True) -> dict[str, Any]:
    puzzle = attempt.puzzle
    ended = not attempt.is_active
    data: dict[str, Any] = {
        "id": str(attempt.pk),
        "kind": puzzle.kind,
        "size": puzzle.size,
        "engine_version": puzzle.engine_version,
        "difficulty": puzzle.difficulty,
        "status": attempt.status,
        "step": attempt.steps,
        "started_at": attempt.started_at.isoformat(),
        "finished_at": attempt.finished_at.isoformat() if attempt.finished_at else None,
        "solve_seconds": attempt.solve_seconds,
    }
    if not detail:
        return data
    data["puzzle"] = puzzle.definition
    play = puzzle_kind(puzzle).play
    public_state = getattr(play, "public_state", None)
    if public_state is not None:  # a kind whose state is not a Latin grid (2mino)
        data["state"] = public_state(engine_puzzle(puzzle), attempt.state)
    else:
        data["state"] = {"entries": attempt.state["entries"], "marks": attempt.state["marks"]}
    data["can_undo"] = bool(attempt.state.get("undo"))
    if ended:
        data["seed"] = puzzle.seed
        data["solution"] = puzzle.solution
        data["actions"] = [
            {**action_view(a), "technique": a.technique, "correct": a.correct}
            for a in attempt_actions(attempt=attempt)
        ]
    return data


def attempt_replay(*, attempt: Attempt) -> list[dict[str, Any]]:
    """The player's state after every action (index 0: before the first)."""
    puzzle = attempt.puzzle
    play = puzzle_kind(puzzle).play
    actions = [(a.kind, a.payload) for a in attempt_actions(attempt=attempt)]
    return play.replay(engine_puzzle(puzzle), puzzle.solution, actions)


def attempt_state_at(*, attempt: Attempt, step: int) -> dict[str, Any]:
    if not 0 <= step <= attempt.steps:
        raise InvalidStep(f"The attempt has steps 0 to {attempt.steps}.")
    return attempt_replay(attempt=attempt)[step]


def attempt_twomino_analysis(*, attempt: Attempt) -> dict[str, Any]:
    """The analysis of a 2mino attempt (see ``twomino_play.analyse``); {} for other kinds."""
    puzzle = attempt.puzzle
    if puzzle.kind != "2mino":
        return {}
    from puzzles.engines import twomino_play

    actions = [(a.kind, a.payload, a.elapsed_ms) for a in attempt_actions(attempt=attempt)]
    return twomino_play.analyse(engine_puzzle(puzzle), actions)
