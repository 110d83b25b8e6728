"""Conversions between engine objects and database rows.

The Event table has one column per engine event field. The list of those
fields is not written out by hand here: :func:`engine_event_fields` reads it
from the engine's event dataclasses, so a field added to the engine shows up
in a test (``tests/games/test_models.py``) until the model gains its column.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from dataclasses import fields
from datetime import datetime
from functools import cache
from typing import Any

from games.engine import EVENT_TYPES, Board, event_from_dict
from games.engine import Event as EngineEvent
from games.engine.legacy.model import (
    EMPTY,
    LegacyCell,
    LegacyRow,
    LegacySave,
    LegacyStep,
    RawLine,
)
from games.engine.variants import variant_kind
from games.models import BoardSnapshot, Event, Game

# Cells of partially observed boards (Phi-Lambda save files) besides "0" (empty).
PARTIAL_SYMBOLS = {
    "P": "a Phi: a number other than 5, its value not recorded",
    "L": "a Lambda: the number 5",
    "G": "a number of unknown value (Colors saves show only its group)",
}

# Columns of Event that are not engine fields.
MOVE_ONLY_COLUMNS = ("client_time", "server_time", "note", "move_certain", "explanations")


@cache
def engine_event_fields() -> dict[str, type]:
    """Every field of every engine event, with its Python type, in first-seen order."""
    found: dict[str, type] = {}
    for cls in EVENT_TYPES.values():
        hints = typing.get_type_hints(cls)
        for field in fields(cls):
            kind = hints[field.name]
            previous = found.setdefault(field.name, kind)
            if previous is not kind:  # pragma: no cover - guards the one-column design
                raise TypeError(
                    f"engine event field {field.name!r} is both {previous} and {kind}"
                )
    return found


@cache
def fields_of_kind(kind: str) -> tuple[str, ...]:
    return tuple(field.name for field in fields(EVENT_TYPES[kind]))


def event_row(
    *,
    game: Game,
    seq: int,
    data: Mapping[str, Any],
    server_time: datetime | None = None,
    client_time: datetime | None = None,
    note: str = "",
) -> Event:
    """An unsaved Event row for an engine event given as ``to_dict()`` output."""
    kind = data["kind"]
    values = {name: data[name] for name in fields_of_kind(kind)}
    return Event(
        game=game,
        seq=seq,
        kind=kind,
        server_time=server_time,
        client_time=client_time,
        note=note,
        **values,
    )


def event_dict(row: Event) -> dict[str, Any]:
    """The engine's ``to_dict()`` of a stored event (its kind and its fields only)."""
    data: dict[str, Any] = {"kind": row.kind}
    for name in fields_of_kind(row.kind):
        data[name] = getattr(row, name)
    return data


def event_from_row(row: Event) -> EngineEvent:
    return event_from_dict(event_dict(row))


def event_dicts(rows: Iterable[Event]) -> list[dict[str, Any]]:
    return [event_dict(row) for row in rows]


def labels_text(labels: Iterable[int]) -> str:
    return ",".join(str(label) for label in labels)


def parse_labels(text: str) -> list[int]:
    return [int(item) for item in text.split(",")] if text else []


def snapshot_row(
    *, game: Game, step: int, t: int, board: Board, comment: str = ""
) -> BoardSnapshot:
    return BoardSnapshot(
        game=game,
        step=step,
        t=t,
        values="".join(str(v) for v in board.values),
        labels=labels_text(board.labels),
        comment=comment,
    )


def board_from_snapshot(snapshot: BoardSnapshot, *, size: int) -> Board:
    """The engine Board of a fully observed snapshot."""
    return Board(
        size,
        tuple(int(char) for char in snapshot.values),
        tuple(parse_labels(snapshot.labels)),
    )


def board_from_state(state: Mapping[str, Any]) -> Board:
    """The engine Board held by a stored engine state (a planar game's: group ids 0)."""
    size = int(state["rules"]["size"])
    values = tuple(int(c) for c in state["values"])
    return Board(size, values, tuple(state.get("labels") or (0,) * len(values)))


# -- stored boards as a save file of the original apps ------------------------------


def _legacy_cell(value: str, label: int, shown: str | None) -> LegacyCell:
    symbol = EMPTY if value == "0" else value
    override = None
    if shown is not None and shown != value:
        override = EMPTY if shown == "0" else shown
    return LegacyCell(symbol, label if symbol != EMPTY else 0, override)


def _comment_field(comment: str) -> str:
    """A comment as one CSV field of a save file's line (the apps wrote them so too)."""
    text = comment.replace("\r", " ").replace("\n", " ")
    if any(char in text for char in ',"'):
        return '"' + text.replace('"', '""') + '"'
    return text


def save_from_snapshots(*, game: Game, snapshots: Iterable[BoardSnapshot]) -> LegacySave:
    """The save file that a game's stored boards stand for, ready to write.

    Used for games without a seed (uploaded save files): to download them in
    the original apps' format and to check them again. Each board's comment
    lines go beside its first rows, as the apps wrote them.
    """
    size = game.size
    steps = []
    hard = False
    for board in snapshots:
        labels = parse_labels(board.labels)
        hard = hard or bool(board.shown)
        cells = [
            _legacy_cell(board.values[i], labels[i], board.shown[i] if board.shown else None)
            for i in range(size * size)
        ]
        rows = [LegacyRow(cells[r * size : (r + 1) * size]) for r in range(size)]
        comments = board.comment.splitlines()[:size]
        for r, comment in enumerate(comments):
            rows[r].tail = "," + _comment_field(comment)
        steps.append(LegacyStep(
            t=board.t, rows=rows, comments=comments, trailer=[RawLine(""), RawLine("")]
        ))
    return LegacySave(
        name=str(game.pk),
        size=size,
        variant=variant_kind(game.variant).saved_as,
        hard=hard,
        steps=steps,
        header=[RawLine(f",,,,Decodoku Lab game {game.pk},{game.rules_key},uploaded save file")],
    )
