"""Playing a Latin-square puzzle: the player's grid, the actions on it, replay.

The player's state is plain JSON: ``entries`` (N x N values, 0 for empty),
``marks`` (N x N candidate bitmasks, the pencil marks) and ``undo`` (a
stack of what each undoable action changed: ``[row, col, entry, marks]``
before it). Applying the recorded actions in order to the empty state gives
the grid at any step: that is the replay.

Actions (``kind`` and ``payload``):

* ``entry`` ``{"cell": [r, c], "value": v}``: write v (1..N) in an empty or
  filled cell that is not given.
* ``erase`` ``{"cell": [r, c]}``: empty the cell (a no-op on an empty one is refused).
* ``candidate`` ``{"cell": [r, c], "value": v}``: toggle the pencil mark v.
* ``undo`` ``{}``: take back the last entry, erasure or candidate mark.
* ``hint`` ``{}``: ask for a hint (the grid does not change; the hint is the result:
  a single, or else the next steps of the technique ladder, see
  :mod:`puzzles.engines.hints`).
* ``check`` ``{}``: compare the entries with the solution (the wrong cells are the result).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from puzzles.engines.base import ActionRejected, Outcome
from puzzles.engines.common import require_cell, require_int, require_mapping
from puzzles.engines.hints import next_hint
from puzzles.engines.latin import Grid, LatinPuzzle, PuzzleError, bit
from puzzles.engines.solver import justify_entry

ACTION_KINDS = ("entry", "erase", "candidate", "undo", "hint", "check")
UNDO_DEPTH = 1000


def empty_state(puzzle: LatinPuzzle) -> dict[str, Any]:
    n = puzzle.size
    entries = [[0] * n for _ in range(n)]
    for index, value in puzzle.given_cells().items():
        r, c = divmod(index, n)
        entries[r][c] = value
    return {"entries": entries, "marks": [[0] * n for _ in range(n)], "undo": []}


def _copy(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "entries": [list(row) for row in state["entries"]],
        "marks": [list(row) for row in state["marks"]],
        "undo": [list(item) for item in state["undo"]],
    }


def _free_cell(puzzle: LatinPuzzle, payload: Mapping[str, Any]) -> tuple[int, int]:
    r, c = require_cell(payload.get("cell"), puzzle.size, "cell")
    if r * puzzle.size + c in puzzle.given_cells():
        raise ActionRejected(f"cell [{r}, {c}] is given and cannot change")
    return r, c


def _push(state: dict[str, Any], r: int, c: int) -> None:
    state["undo"].append([r, c, state["entries"][r][c], state["marks"][r][c]])
    if len(state["undo"]) > UNDO_DEPTH:
        del state["undo"][0]


def is_complete(state: Mapping[str, Any]) -> bool:
    return all(all(row) for row in state["entries"])


def is_solved(puzzle: LatinPuzzle, state: Mapping[str, Any]) -> bool:
    return is_complete(state) and puzzle.is_solution(state["entries"])


def apply_action(
    puzzle: LatinPuzzle,
    solution: Grid,
    state: Mapping[str, Any],
    kind: str,
    payload: Any,
    *,
    tag: bool = True,
) -> Outcome:
    """Apply one action to a copy of ``state``. Raises ActionRejected for an invalid action."""
    if kind not in ACTION_KINDS:
        raise PuzzleError(f"unknown action kind {kind!r} (one of {', '.join(ACTION_KINDS)})")
    payload = require_mapping(payload if payload is not None else {}, "payload")
    allowed = {"entry": {"cell", "value"}, "candidate": {"cell", "value"}, "erase": {"cell"}}
    unknown = set(payload) - allowed.get(kind, set())
    if unknown:
        raise PuzzleError(f"{kind}: unknown payload field {sorted(unknown)[0]!r}")
    new = _copy(state)
    entries = new["entries"]
    if kind == "entry":
        r, c = _free_cell(puzzle, payload)
        value = require_int(payload.get("value"), "value", 1, puzzle.size)
        if entries[r][c] == value:
            raise ActionRejected(f"cell [{r}, {c}] already holds {value}")
        technique = justify_entry(puzzle, entries, (r, c), value) if tag else ""
        _push(new, r, c)
        entries[r][c] = value
        return Outcome(new, {"solved": is_solved(puzzle, new)}, technique, solution[r][c] == value)
    if kind == "erase":
        r, c = _free_cell(puzzle, payload)
        if not entries[r][c]:
            raise ActionRejected(f"cell [{r}, {c}] is already empty")
        _push(new, r, c)
        entries[r][c] = 0
        return Outcome(new)
    if kind == "candidate":
        r, c = _free_cell(puzzle, payload)
        value = require_int(payload.get("value"), "value", 1, puzzle.size)
        _push(new, r, c)
        new["marks"][r][c] ^= bit(value)
        return Outcome(new, {"marks": new["marks"][r][c]})
    if kind == "undo":
        if not new["undo"]:
            raise ActionRejected("there is nothing to undo")
        r, c, entry, marks = new["undo"].pop()
        entries[r][c] = entry
        new["marks"][r][c] = marks
        return Outcome(new, {"cell": [r, c], "value": entry, "marks": marks})
    if kind == "hint":
        return Outcome(new, {"hint": next_hint(puzzle, entries, solution=solution)})
    # check
    wrong = [
        [r, c]
        for r, row in enumerate(entries)
        for c, v in enumerate(row)
        if v and v != solution[r][c]
    ]
    filled = sum(1 for row in entries for v in row if v)
    return Outcome(new, {"wrong": wrong, "filled": filled, "solved": is_solved(puzzle, new)})


def replay(
    puzzle: LatinPuzzle, solution: Grid, actions: list[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """The state after each action (index 0 is the empty state)."""
    states = [empty_state(puzzle)]
    for kind, payload in actions:
        states.append(apply_action(puzzle, solution, states[-1], kind, payload, tag=False).state)
    return states
