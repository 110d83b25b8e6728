"""Reads about puzzles: a player's attempts, what the player may see, replays.

While an attempt is active the player sees the puzzle and the grid, never
the seed or the solution (either would give the answer away); once it has
ended, both are shown, with every action.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, DurationField, ExpressionWrapper, F, Min, QuerySet

from games.engine.legacy.errors import Deadline
from games.errors import InvalidInput, InvalidStep, NotFound
from games.models import Player
from puzzles.engines import puzzle_id, twomino_play
from puzzles.engines.budget import BudgetSpent
from puzzles.engines.grading import LEVEL_NAMES, Grade, grade, ladder_kind
from puzzles.engines.kenken import KenKen, operation_result
from puzzles.engines.latin import LatinPuzzle, PuzzleError
from puzzles.engines.registry import KINDS, stored_level_label
from puzzles.engines.solver import count_solutions
from puzzles.loading import engine_puzzle, puzzle_kind
from puzzles.models import Action, Attempt
from puzzles.offered import OfferedSize, offered_levels


def kinds_view() -> list[dict[str, Any]]:
    """The puzzle kinds on offer, for clients and the web page."""
    return [
        {
            "kind": kind.name,
            "title": kind.title,
            # The base kind, whose rules and drawing a sub-kind shares (itself if none);
            # the API calls it "family".
            "family": kind.base_kind or kind.name,
            "engine_version": kind.engine_version,
            "min_size": kind.min_size,
            "max_size": kind.max_size,
            "default_size": kind.default_size,
            "difficulties": list(kind.difficulties),
            "actions": list(kind.play.ACTION_KINDS),
        }
        for kind in KINDS.values()
    ]


def offered_levels_view(*, kind: str | None = None) -> list[OfferedSize]:
    """Per kind and size, the levels the menus offer (:mod:`puzzles.offered`); an unknown
    ``kind`` is a 400."""
    if kind is not None and kind not in KINDS:
        raise InvalidInput(f"unknown puzzle kind {kind!r} (one of {', '.join(sorted(KINDS))})")
    return offered_levels(kind=kind)


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
    if puzzle.kind in OWN_KINDS:
        # The description as one line (kind:size:description): no seed, no solution,
        # so it can be shown while the attempt is active.
        data["puzzle_id"] = puzzle_id.encode(engine_puzzle(puzzle))
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
    actions = [(a.kind, a.payload, a.elapsed_ms) for a in attempt_actions(attempt=attempt)]
    return twomino_play.analyse(engine_puzzle(puzzle), actions)


# --- Puzzles that players make: check a definition -------------------------------

OWN_KINDS = ("kenken", "kenken-multiply", "futoshiki", "futoshiki-adjacent")
OWN_FORMAT = "decodoku-lab-puzzle"
OWN_FORMAT_VERSION = 1
# Search nodes of the exact counter before it gives up ("unknown").
OWN_CHECK_MAX_NODES = 4_000
# Processor seconds (of the request's thread) that loading, counting and grading one
# player's puzzle may take before the answer is "unknown". The node budget alone does
# not bound time: 4,000 nodes of an empty 16 x 16 Adjacent Futoshiki took 8 s.
OWN_CHECK_CPU_SECONDS = 0.5
# Fillings of one cage tried before a target is taken as reachable.
OWN_CAGE_MAX_NODES = 50_000


class InvalidPuzzle(InvalidInput):
    """A player's puzzle definition that does not describe a puzzle (overlapping cages...)."""

    code = "invalid_puzzle"


def _cage_reachable(
    *,
    size: int,
    cells: list[tuple[int, int]],
    op: str,
    target: int,
    deadline: Deadline | None = None,
) -> bool:
    """Whether some filling of the cage (no value twice in a row or column) meets its target;
    True also when the search is cut short (OWN_CAGE_MAX_NODES, or ``deadline``: the
    solution count after it then stops at once, "unknown")."""
    chosen: list[int] = []
    nodes = 0

    def extend(pos: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > OWN_CAGE_MAX_NODES or (deadline is not None and deadline.passed()):
            return True
        if pos == len(cells):
            return operation_result(op, chosen) == target
        row, col = cells[pos]
        for value in range(1, size + 1):
            if any(
                chosen[j] == value and (cells[j][0] == row or cells[j][1] == col)
                for j in range(pos)
            ):
                continue
            chosen.append(value)
            partial = operation_result(op, chosen) if op in ("+", "x") else None
            too_big = partial is not None and (
                partial > target if op == "+" else target % partial != 0
            )
            if not too_big and extend(pos + 1):
                return True
            chosen.pop()
        return False

    return extend(0)


def own_puzzle_load(*, definition: dict[str, Any], deadline: Deadline | None = None) -> LatinPuzzle:
    """The engine object of a player's KenKen, Futoshiki or sub-kind; ``InvalidPuzzle``
    naming the cage, cell, sign or bar at fault otherwise (a KenKen cage whose target no
    filling meets too, as far as ``deadline`` lets the cages be tried)."""
    kind = definition.get("kind")
    if kind not in OWN_KINDS:
        raise InvalidPuzzle(f"kind must be one of {', '.join(OWN_KINDS)}")
    try:
        puzzle = KINDS[str(kind)].load(definition)
    except PuzzleError as exc:
        raise InvalidPuzzle(str(exc)) from None
    if isinstance(puzzle, KenKen):
        for number, cage in enumerate(puzzle.cages):
            if not _cage_reachable(
                size=puzzle.size,
                cells=list(cage.cells),
                op=cage.op,
                target=cage.target,
                deadline=deadline,
            ):
                raise InvalidPuzzle(
                    f"cage {number}: no filling of its {len(cage.cells)} cells gives "
                    f"{cage.target} with {cage.op}"
                )
    if not isinstance(puzzle, LatinPuzzle):  # every own kind loads as a Latin square
        raise InvalidPuzzle(f"{kind} is not a Latin-square puzzle")
    return puzzle


@dataclass(frozen=True, slots=True)
class OwnVerdict:
    """What the checker found: ``solutions`` is none, one, many or unknown (budget spent)."""

    puzzle: LatinPuzzle
    solutions: str
    solution: list[list[int]] | None
    grade: Grade | None

    def to_dict(self, *, reveal: bool) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.puzzle.kind,
            "size": self.puzzle.size,
            "solutions": self.solutions,
            "level": self.grade.label if self.grade is not None else None,
            "level_rank": self.grade.rank if self.grade is not None else None,
            "max_nodes": OWN_CHECK_MAX_NODES,
            "cpu_seconds": OWN_CHECK_CPU_SECONDS,
        }
        if reveal and self.solution is not None:
            data["solution"] = self.solution
        return data


def own_puzzle_check(*, definition: dict[str, Any]) -> OwnVerdict:
    """Check a player's puzzle: load it, count its solutions (stopping at two), and grade
    it on the technique ladder when it has exactly one. "unknown" when the search spends
    OWN_CHECK_MAX_NODES nodes, or the whole check OWN_CHECK_CPU_SECONDS of processor time,
    before it knows."""
    # Processor time of this thread only: other requests of the process do not count.
    deadline = Deadline.after(cpu_seconds=OWN_CHECK_CPU_SECONDS)
    puzzle = own_puzzle_load(definition=definition, deadline=deadline)
    counted = count_solutions(puzzle, limit=2, max_nodes=OWN_CHECK_MAX_NODES, deadline=deadline)
    if counted.count >= 2:
        return OwnVerdict(puzzle, "many", None, None)
    if not counted.complete:
        return OwnVerdict(puzzle, "unknown", None, None)
    if counted.count == 0:
        return OwnVerdict(puzzle, "none", None, None)
    try:
        graded = grade(puzzle, deadline=deadline)
    except BudgetSpent:
        return OwnVerdict(puzzle, "unknown", None, None)
    return OwnVerdict(puzzle, "one", counted.solutions[0], graded)


# --- A player's bests ---------------------------------------------------------------


def _level_order(kind: str, label: str) -> int:
    names = LEVEL_NAMES.get(ladder_kind(kind), ())
    return names.index(label) if label in names else len(names)


def puzzle_bests_for_player(*, player: Player) -> list[dict[str, Any]]:
    """The player's solved puzzles by kind, size and level: how many, and the fastest solve
    (seconds); by kind, size and level from the easiest. Own puzzles count at their level;
    a level given by an earlier engine version is a level of its own, named with it."""
    rows = (
        Attempt.objects.filter(player=player, status=Attempt.Status.SOLVED)
        .values("puzzle__kind", "puzzle__size", "puzzle__engine_version", "puzzle__difficulty")
        .annotate(
            solved=Count("pk"),
            fastest=Min(
                ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
            ),
        )
    )
    bests = [
        {
            "kind": row["puzzle__kind"],
            "size": row["puzzle__size"],
            "level": stored_level_label(
                row["puzzle__kind"], row["puzzle__difficulty"], row["puzzle__engine_version"]
            ),
            "solved": row["solved"],
            "fastest_seconds": row["fastest"].total_seconds() if row["fastest"] else None,
        }
        for row in rows
    ]
    return sorted(
        bests, key=lambda b: (b["kind"], b["size"], _level_order(b["kind"], b["level"]), b["level"])
    )
