"""Typed events: everything that happens in a game, as plain data.

Every field is a scalar (int, float, str or bool) so that an event can be
stored as a row, written to a flat CSV file, sent as JSON and fed back into
``event_from_dict`` unchanged. Cells are given as (row, col) with row 0 at
the top; group ids are 0 for an empty cell.

``t`` is the clock (the score) when the event happened; ``round`` is the
number of the noise round the event belongs to or follows (1 for the first).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import EngineError

MoveTuple = tuple[int, int, int, int]
"""A move as plain numbers: (from_row, from_col, to_row, to_col)."""


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            data[f.name] = getattr(self, f.name)
        return data


@dataclass(frozen=True, slots=True)
class NoiseRoundStarted(Event):
    kind: ClassVar[str] = "round_start"
    t: int
    round: int


@dataclass(frozen=True, slots=True)
class NoiseError(Event):
    """One error of a noise round: ``a`` added to cell 1 and ``aa`` to cell 2.

    ``case`` is decided by the values before the error: ``new_pair`` (both
    empty, weight 1), ``one_new`` (exactly one empty, weight 1) or
    ``both_occupied`` (weight 0.1). ``round_weight`` is the round's weight
    after this error, accumulated as a double exactly as the original did.
    """

    kind: ClassVar[str] = "noise"
    t: int
    round: int
    index: int
    row1: int
    col1: int
    row2: int
    col2: int
    a: int
    aa: int
    case: str
    weight: float
    round_weight: float
    value1_before: int
    value2_before: int
    value1_after: int
    value2_after: int
    group1_before: int
    group2_before: int
    group1_after: int
    group2_after: int


@dataclass(frozen=True, slots=True)
class GroupMerge(Event):
    """Two groups became one: every cell of ``absorbed`` now carries ``surviving``."""

    kind: ClassVar[str] = "merge"
    t: int
    round: int
    cause: str  # "noise" or "move"
    surviving: int
    absorbed: int
    size: int  # cells in the merged group, counted after the merge


@dataclass(frozen=True, slots=True)
class NoiseRoundEnded(Event):
    kind: ClassVar[str] = "round_end"
    t: int
    round: int
    errors: int
    weight: float
    numbers: int  # non-empty cells on the board after the round


@dataclass(frozen=True, slots=True)
class Move(Event):
    """The player's move number ``index`` (1-based), after which the clock reads ``t``."""

    kind: ClassVar[str] = "move"
    t: int
    round: int
    index: int
    from_row: int
    from_col: int
    to_row: int
    to_col: int
    value: int
    to_value_before: int
    to_value_after: int
    from_group: int
    to_group_before: int
    to_group_after: int
    annihilated: bool


@dataclass(frozen=True, slots=True)
class JumpAhead(Event):
    """The board was empty, so the clock jumped to the next noise round."""

    kind: ClassVar[str] = "jump"
    t: int  # the clock after the jump
    round: int
    from_t: int
    reason: str  # "empty_after_move" or "empty_after_noise"


@dataclass(frozen=True, slots=True)
class Regenerated(Event):
    """The first board of the game spanned or was empty and was drawn again."""

    kind: ClassVar[str] = "regenerated"
    t: int
    round: int
    attempt: int
    reason: str  # "spanning" or "empty"


@dataclass(frozen=True, slots=True)
class Loss(Event):
    """After a move, ``group`` touches two opposite edges: the game is over at ``t``.

    ``axis`` is ``top_bottom``, ``left_right`` or ``both``; ``spanning_groups``
    counts every group spanning at that moment (usually 1).
    """

    kind: ClassVar[str] = "loss"
    t: int
    round: int
    group: int
    axis: str
    spanning_groups: int


@dataclass(frozen=True, slots=True)
class LogicalOutcome(Event):
    """A planar game's board is clean at ``t``: its logical outcome.

    ``charge`` is the net charge carried rightwards across the left side by
    the noise and the moves, mod d; ``failed`` is true when it is not 0 (the
    noise and the corrections form a chain from one side to the other: a
    logical error).

    Planar games (``games.engine.planar``) record their noise round and moves
    with the kinds above, a side edge's outside end and a move off the board
    written as column -1 or L (``docs/engine.md``), and end with this event.
    """

    kind: ClassVar[str] = "logical_outcome"
    t: int
    round: int
    charge: int
    failed: bool


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        NoiseRoundStarted,
        NoiseError,
        GroupMerge,
        NoiseRoundEnded,
        Move,
        JumpAhead,
        Regenerated,
        Loss,
        LogicalOutcome,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``Event.to_dict`` output (for example a stored row)."""
    if not isinstance(data, dict):
        raise EngineError("an event must be an object", code="invalid_event")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EngineError(f"unknown event kind {kind!r}", code="invalid_event")
    names = [f.name for f in fields(cls)]
    missing = [n for n in names if n not in data]
    if missing:
        raise EngineError(
            f"{kind} event is missing {', '.join(missing)}", code="invalid_event"
        )
    return cls(**{n: data[n] for n in names})
