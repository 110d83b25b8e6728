"""Playing a Decodoku puzzle: the player's links, the actions on them, the answer, replay.

Pure Python, no Django. This module holds the play in keyword-only
functions (``empty_state``, ``apply_action``, ``is_solved``, ``replay``);
:mod:`puzzles.engines.decodoku.platform` adapts them to the positional calls
of the platform's puzzle registry (:mod:`puzzles.engines.registry`), where
the kind is registered as ``decodoku`` (``docs/decodoku-puzzles.md``).

The player's state is plain JSON: ``links``, the links drawn (ascending link
numbers, as in :mod:`puzzles.engines.decodoku.board`), and ``answer``, the
top-left value answered (``None`` until then). Applying the recorded actions
in order to the empty state gives the board at any step.

Actions (``kind`` and ``payload``):

* ``link`` ``{"link": n}``: draw link ``n`` (refused if it is drawn).
* ``unlink`` ``{"link": n}``: remove it (refused if it is not drawn).
* ``check`` ``{}``: say whether the links explain the board: the groups that
  do not sum to 0 mod 10 (and hold no corner), the top-left values allowed.
  The state does not change.
* ``answer`` ``{"value": c}``: answer with top-left value ``c``; refused
  unless the links explain the board and allow ``c``. The result is the
  score (:func:`explanation.score`): links used against the solver's
  minimum, and whether ``c`` is the board's recorded top-left value. An
  answered puzzle takes no more actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from puzzles.engines.base import ActionRejected, Outcome
from puzzles.engines.decodoku.board import MODULUS, Board, DecodokuError
from puzzles.engines.decodoku.explanation import check, score

ACTION_KINDS = ("link", "unlink", "check", "answer")
PAYLOAD_FIELDS: dict[str, set[str]] = {
    "link": {"link"},
    "unlink": {"link"},
    "check": set(),
    "answer": {"value"},
}


def empty_state(*, board: Board) -> dict[str, Any]:
    """No links drawn, no answer."""
    del board  # every board starts the same way
    return {"links": [], "answer": None}


def is_solved(*, state: Mapping[str, Any]) -> bool:
    """Whether the player has answered (an answer is accepted only for a valid explanation)."""
    return state.get("answer") is not None


def _integer(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DecodokuError(f"{what} is an integer from {low} to {high}, not {value!r}")
    return int(value)


def _links(board: Board, state: Mapping[str, Any]) -> list[int]:
    raw = state.get("links")
    if not isinstance(raw, list):
        raise DecodokuError("the state's links are a list")
    count = len(board.geometry.links)
    return sorted({_integer(link, "a link", 0, count - 1) for link in raw})


def apply_action(
    *,
    board: Board,
    minimum: int | None,
    state: Mapping[str, Any],
    kind: str,
    payload: Any,
) -> Outcome:
    """Apply one action to a copy of ``state`` (``minimum``: the solver's fewest links)."""
    if kind not in ACTION_KINDS:
        raise DecodokuError(f"unknown action kind {kind!r} (one of {', '.join(ACTION_KINDS)})")
    if payload is None:
        payload = {}
    if not isinstance(payload, Mapping):
        raise DecodokuError("the payload is a JSON object")
    unknown = set(payload) - PAYLOAD_FIELDS[kind]
    if unknown:
        raise DecodokuError(f"{kind}: unknown payload field {sorted(unknown)[0]!r}")
    links = _links(board, state)
    if is_solved(state=state):
        raise ActionRejected("the puzzle is answered")
    count = len(board.geometry.links)
    if kind in ("link", "unlink"):
        link = _integer(payload.get("link"), "link", 0, count - 1)
        if kind == "link" and link in links:
            raise ActionRejected(f"link {link} is already drawn")
        if kind == "unlink" and link not in links:
            raise ActionRejected(f"link {link} is not drawn")
        chosen = sorted({*links, link}) if kind == "link" else [n for n in links if n != link]
        return Outcome({"links": chosen, "answer": None}, {"links": len(chosen)})
    verdict = check(board, links)
    if kind == "check":
        return Outcome(
            {"links": links, "answer": None},
            {
                "valid": verdict.valid,
                "unbalanced": [list(group.cells) for group in verdict.unbalanced],
                "answers": sorted(verdict.answers),
            },
        )
    value = _integer(payload.get("value"), "value", 0, MODULUS - 1)
    if not verdict.valid:
        raise ActionRejected("the links do not explain the board yet: check them first")
    if value not in verdict.answers:
        raise ActionRejected(f"these links give the top-left value {verdict.top_left}, not {value}")
    scored = score(board, links, value, minimum=minimum)
    return Outcome(
        {"links": links, "answer": value},
        {
            "links": scored.links,
            "minimum": scored.minimum,
            "excess": scored.excess,
            "correct": scored.correct,
        },
        correct=scored.correct,
    )


def replay(
    *, board: Board, minimum: int | None, actions: Sequence[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """The state after each action (index 0 is the empty state)."""
    states = [empty_state(board=board)]
    for kind, payload in actions:
        outcome = apply_action(
            board=board, minimum=minimum, state=states[-1], kind=kind, payload=payload
        )
        states.append(outcome.state)
    return states
