"""Replaying recorded games and checking stored event streams.

A game is fully determined by its engine version, rule set, seed and moves.
Replaying rebuilds the board at any step ("back in time") and regenerates
every event, so a stored event sequence can be compared with what the rules
produce, event by event. Games of every family replay here: ``start.new_game``
picks the engine of the rule set (the planar family's ``PlanarGame``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import EngineError, UnknownEngineVersion
from .events import Event, Move, MoveTuple, event_from_dict
from .game import Board
from .rules import RuleSet
from .start import AnyGame, new_game
from .version import SUPPORTED_ENGINE_VERSIONS


def _start(rules: RuleSet, seed: int, *, engine_version: int, record: bool) -> AnyGame:
    """A new game exactly as engine ``engine_version`` started it."""
    if engine_version not in SUPPORTED_ENGINE_VERSIONS:
        raise UnknownEngineVersion(f"no engine can replay version {engine_version!r}")
    return new_game(rules, seed, record=record, engine_version=engine_version)


def moves_of(events: Iterable[Event | dict[str, Any]]) -> list[MoveTuple]:
    """The player's moves, in order, from a recorded event sequence."""
    moves = []
    for event in events:
        if isinstance(event, dict):
            if event.get("kind") != Move.kind:
                continue
            event = event_from_dict(event)
        if isinstance(event, Move):
            moves.append((event.from_row, event.from_col, event.to_row, event.to_col))
    return moves


def replay(
    rules: RuleSet,
    seed: int,
    moves: Iterable[MoveTuple],
    *,
    engine_version: int,
    record: bool = True,
) -> AnyGame:
    """Play ``moves`` again from the start. Illegal moves raise ``IllegalMove``."""
    game = _start(rules, seed, engine_version=engine_version, record=record)
    for move in moves:
        game.move(*move)
    return game


def boards(
    rules: RuleSet, seed: int, moves: Sequence[MoveTuple], *, engine_version: int
) -> list[Board]:
    """The board at every step: index 0 is the first board, index k after move k."""
    game = _start(rules, seed, engine_version=engine_version, record=False)
    result = [game.board()]
    for move in moves:
        game.move(*move)
        result.append(game.board())
    return result


def board_at(
    rules: RuleSet, seed: int, moves: Sequence[MoveTuple], step: int, *, engine_version: int
) -> Board:
    """The board after ``step`` moves (0: the first board)."""
    if not 0 <= step <= len(moves):
        raise EngineError(f"step must be between 0 and {len(moves)}", code="invalid_step")
    game = replay(rules, seed, moves[:step], engine_version=engine_version, record=False)
    return game.board()


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    events_checked: int
    first_mismatch: int | None = None  # index into the stored sequence
    expected: dict[str, Any] | None = None  # what the rules produce there
    found: dict[str, Any] | None = None  # what was stored there
    reason: str = ""


def verify_events(
    rules: RuleSet,
    seed: int,
    events: Sequence[Event | dict[str, Any]],
    *,
    engine_version: int,
) -> Verification:
    """Check a stored event sequence against the rules, reporting the first difference."""
    stored = [e.to_dict() if isinstance(e, Event) else dict(e) for e in events]
    try:
        game = replay(rules, seed, moves_of(stored), engine_version=engine_version)
    except EngineError as exc:
        return Verification(False, 0, reason=f"{exc.code}: {exc}")
    produced = [e.to_dict() for e in game.events]
    for index, (want, got) in enumerate(zip(produced, stored, strict=False)):
        if want != got:
            return Verification(
                False, index, index, want, got, reason=f"event {index} differs from the rules"
            )
    if len(produced) != len(stored):
        index = min(len(produced), len(stored))
        return Verification(
            False,
            index,
            index,
            produced[index] if index < len(produced) else None,
            stored[index] if index < len(stored) else None,
            reason=f"the rules produce {len(produced)} events, {len(stored)} were stored",
        )
    return Verification(True, len(stored))
