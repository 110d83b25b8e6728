"""Decodoku puzzles as a kind of the platform's puzzle registry.

Pure Python, no Django. The registry (:mod:`puzzles.engines.registry`) and
the services call a kind's functions with positional arguments and expect
PuzzleError for bad input; :mod:`play` takes keyword arguments and raises
DecodokuError. This module is the adapter between the two, plus what the
registry needs besides play: generate (with the exact solver's answer, so
that a stored puzzle carries its minimum), load, solve.

A stored puzzle's ``definition`` is what the player may see while playing:
the grid with both corners as ``?``, its size, and either the noise rate
(generated) or the published numbers. Its ``solution`` is what is shown once
the attempt has ended and what scoring reads: ``corners`` (the recorded
top-left and bottom-right values, or None), ``corners_source`` (``noise``
for a generated puzzle, ``published`` for a published one; see
``docs/decodoku-puzzles.md``), and the solver's ``minimum``, ``corner``,
``ties``, ``tied``, ``optimal`` and one minimum ``explanation``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from puzzles.engines.base import Generated, Outcome
from puzzles.engines.decodoku import generate as generation
from puzzles.engines.decodoku import play as decodoku_play
from puzzles.engines.decodoku.board import SIZE, Board, DecodokuError, parse_grid
from puzzles.engines.decodoku.published import PublishedPuzzle
from puzzles.engines.decodoku.solver import Solution, solve
from puzzles.engines.latin import PuzzleError

KIND = "decodoku"
ENGINE_VERSION = generation.GENERATOR_VERSION
# The noise rate per link of a generated puzzle, by difficulty. At 0.25 a
# generated board needs about as many links as a published one (median 27
# against 29, docs/decodoku-puzzles.md).
RATES: dict[str, float] = {"normal": 0.25}
DIFFICULTIES = tuple(RATES)
PUBLISHED = "published"  # the difficulty (and requested difficulty) of published puzzles
ACTION_KINDS = decodoku_play.ACTION_KINDS


def generated_dict(made: Generated[Board, float]) -> dict[str, Any]:
    """A generated puzzle's JSON: the grid (corners hidden), its noise rate (the
    ``difficulty`` of a generated Decodoku puzzle) and the solver's answer."""
    return {
        "grid": made.puzzle.grid(),
        "size": made.puzzle.geometry.rows,
        "rate": made.difficulty,
        "generator_version": made.engine_version,
        "solution": made.solution,
        "difficulty": {"label": _label(made.difficulty), "hardest": "", "steps": 0},
    }


def _label(rate: float) -> str:
    return next((name for name, r in RATES.items() if r == rate), "")


def solution_data(board: Board, found: Solution, *, corners_source: str) -> dict[str, Any]:
    """The stored ``solution`` of a puzzle: its recorded corners and the solver's answer."""
    return {
        "corners": list(board.corners) if board.corners is not None else None,
        "corners_source": corners_source if board.corners is not None else "",
        "minimum": found.links,
        "corner": found.corner,
        "ties": list(found.ties),
        "tied": bool(found.ties),
        "optimal": found.optimal,
        "explanation": sorted(found.explanations[found.corner]),
    }


def generate(
    *, size: int = SIZE, seed: int, difficulty: str | None = None
) -> Generated[Board, float]:
    """The generated puzzle of a seed, solved exactly."""
    chosen = difficulty or "normal"
    if chosen not in RATES:
        raise PuzzleError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    try:
        made = generation.generate(seed=seed, rate=RATES[chosen], size=size)
    except DecodokuError as exc:
        raise PuzzleError(str(exc)) from None
    found = solve(made.board)
    return Generated(
        puzzle=made.board,
        seed=seed,
        solution=solution_data(made.board, found, corners_source="noise"),
        difficulty=made.rate,
        engine_version=generation.GENERATOR_VERSION,
        describe=generated_dict,
    )


def published_definition(puzzle: PublishedPuzzle) -> dict[str, Any]:
    """What the player sees of a published puzzle: the grid with hidden corners, its numbers."""
    return {
        "grid": puzzle.board().grid(),
        "size": SIZE,
        "number": puzzle.number,
        "numbers": list(puzzle.numbers),
    }


def load(data: Mapping[str, Any]) -> Board:
    """The board of a stored definition (its corners are not in it: see :func:`with_corners`)."""
    grid = data.get("grid")
    size = data.get("size", SIZE)
    if not isinstance(grid, str) or isinstance(size, bool) or not isinstance(size, int):
        raise PuzzleError("a Decodoku puzzle has a grid (a string) and a size")
    try:
        return parse_grid(grid, rows=size, cols=size)
    except DecodokuError as exc:
        raise PuzzleError(str(exc)) from None


def read_solution(data: Mapping[str, Any], size: int) -> None:
    """A stated solution is not read: the solver finds the minimum itself."""
    del data, size
    return None


def solve_board(board: Board) -> dict[str, Any]:
    """The solver's answer as JSON-ready data (``manage.py puzzle solve``)."""
    return solution_data(board, solve(board), corners_source="")


def with_corners(board: Board, solution: Mapping[str, Any] | None) -> Board:
    """The board with the recorded corners of a stored solution (for scoring answers)."""
    corners = (solution or {}).get("corners")
    if not isinstance(corners, list) or len(corners) != 2:
        return board
    try:
        return Board(board.geometry, board.values, (int(corners[0]), int(corners[1])))
    except (DecodokuError, TypeError, ValueError):
        return board


def _minimum(solution: Mapping[str, Any] | None) -> int | None:
    found = (solution or {}).get("minimum")
    return found if isinstance(found, int) and not isinstance(found, bool) else None


# --- play, with the services' positional calls ---------------------------------


def empty_state(puzzle: Board) -> dict[str, Any]:
    return decodoku_play.empty_state(board=puzzle)


def is_solved(puzzle: Board, state: Mapping[str, Any]) -> bool:
    del puzzle
    return decodoku_play.is_solved(state=state)


def public_state(puzzle: Board, state: Mapping[str, Any]) -> dict[str, Any]:
    """The player's links and answer, as the API shows them."""
    del puzzle
    return {"links": list(state.get("links", [])), "answer": state.get("answer")}


def apply_action(
    puzzle: Board,
    solution: Mapping[str, Any] | None,
    state: Mapping[str, Any],
    kind: str,
    payload: Any,
) -> Outcome:
    """One action (see :mod:`play`): refused, ActionRejected; malformed, PuzzleError."""
    try:
        outcome = decodoku_play.apply_action(
            board=with_corners(puzzle, solution),
            minimum=_minimum(solution),
            state=state,
            kind=kind,
            payload=payload,
        )
    except DecodokuError as exc:  # an ActionRejected is no DecodokuError: it passes as it is
        raise PuzzleError(str(exc)) from None
    return outcome


def replay(
    puzzle: Board, solution: Mapping[str, Any] | None, actions: Sequence[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """The state after each recorded action (index 0: the empty state)."""
    try:
        return decodoku_play.replay(
            board=with_corners(puzzle, solution), minimum=_minimum(solution), actions=actions
        )
    except DecodokuError as exc:
        raise PuzzleError(str(exc)) from None
