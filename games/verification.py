"""Checking stored games against the rules: every record must replay exactly.

A game played on the platform is replayed from its rule set, seed and moves:
every stored event must be the event the engine produces (``verify_events``),
the events' ``seq`` must run 0, 1, 2, ... without a hole, every stored board
must be the board the replay shows at that step, and the stored state, score,
round and status must be the replay's (for a planar game also its logical
outcome, ``logical_charge`` and ``logical_failure``: the replay's charge and
failure once the board is clean, empty before). An uploaded save file has no
seed: its stored boards are turned back into a save and checked again with
the legacy verifier, and its move events must be the moves the boards reveal.

Read-only: nothing here writes. ``python manage.py verify_games`` runs it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from games.engine import AnyGame, EngineError, boards, moves_of, replay, verify_events
from games.engine.legacy import verify_save
from games.engine.planar import PlanarGame
from games.models import BoardSnapshot, Game
from games.recording import board_from_snapshot, event_dicts, save_from_snapshots
from games.selectors import game_events, game_snapshots

MAX_PROBLEMS = 10


@dataclass(slots=True)
class GameCheck:
    """The verdict on one game: ``problems`` is empty when it replays exactly."""

    game_id: uuid.UUID
    source: str
    events_checked: int = 0
    boards_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)


def games_to_verify(
    *,
    game_ids: Iterable[uuid.UUID] | None = None,
    source: str | None = None,
    since: datetime | None = None,
) -> QuerySet[Game]:
    """The games a run checks, oldest first: all of them, or those matching the filters."""
    games = Game.objects.all()
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    if source is not None:
        games = games.filter(source=source)
    if since is not None:
        games = games.filter(started_at__gte=since)
    return games.order_by("started_at", "id")


def games_verify(*, games: Iterable[Game]) -> Iterator[GameCheck]:
    for game in games:
        yield game_verify(game=game)


def game_verify(*, game: Game) -> GameCheck:
    """Check one stored game; see the module's docstring for what is checked."""
    check = GameCheck(game_id=game.pk, source=game.source)
    rows = list(game_events(game=game))
    seqs = [row.seq for row in rows]
    if seqs != list(range(len(rows))):
        first_hole = next(i for i, seq in enumerate([*seqs, None]) if seq != i)
        check.add(f"event seq numbers are not 0..{len(rows) - 1}: first break at {first_hole}")
    if game.next_seq != len(rows):
        check.add(f"next_seq is {game.next_seq} but {len(rows)} events are stored")
    snapshots = list(game_snapshots(game=game))
    try:
        if game.source == Game.Source.LEGACY_UPLOAD and game.seed is None:
            # A save without its seed: checked from its boards. One that named
            # its seed was imported as the exact game and replays like any other.
            _verify_legacy(check, game, rows, snapshots)
        else:
            _verify_played(check, game, rows, snapshots)
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        check.add(f"the record cannot be replayed: {exc}")
    return check


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _verify_played(
    check: GameCheck, game: Game, rows: list[Any], snapshots: list[BoardSnapshot]
) -> None:
    rules = game.rules
    if rules.key != game.rules_key:
        check.add(f"rules_key {game.rules_key!r} does not name the rule set {rules.key!r}")
    if game.seed is None:
        check.add("a game played here has no seed")
        return
    stored = event_dicts(rows)
    verdict = verify_events(rules, game.seed, stored, engine_version=game.engine_version)
    check.events_checked = len(stored)
    if not verdict.ok:
        check.add(
            f"events differ from the rules: {verdict.reason}"
            + (f" (seq {verdict.first_mismatch}: expected {verdict.expected}, "
               f"stored {verdict.found})" if verdict.first_mismatch is not None else "")
        )
    moves = moves_of(stored)
    engine = replay(rules, game.seed, moves, engine_version=game.engine_version, record=False)
    if _json(engine.to_state()) != _json(game.state):
        check.add("the stored state is not the state the replay reaches")
    expected = {
        "score": engine.t,
        "rounds": engine.round,
        "moves_count": engine.moves_made,
    }
    for name, value in expected.items():
        if getattr(game, name) != value:
            check.add(f"{name} is {getattr(game, name)} but the replay gives {value}")
    _check_end(check, game, engine)
    replayed = boards(rules, game.seed, moves, engine_version=game.engine_version)
    if [s.step for s in snapshots] != list(range(len(replayed))):
        check.add(
            f"boards are stored for steps {_steps_text(snapshots)}, "
            f"expected 0..{len(replayed) - 1}"
        )
    for snapshot in snapshots:
        if snapshot.step < len(replayed):
            check.boards_checked += 1
            if board_from_snapshot(snapshot, size=game.size) != replayed[snapshot.step]:
                check.add(f"the board stored for step {snapshot.step} is not the replay's")


def _check_end(check: GameCheck, game: Game, engine: AnyGame) -> None:
    """The status (and a planar game's logical outcome) must be where the replay ends."""
    planar = isinstance(engine, PlanarGame)
    ended = Game.Status.FINISHED if planar else Game.Status.LOST
    other = Game.Status.LOST if planar else Game.Status.FINISHED
    word = str(ended)
    if engine.over and game.status != ended:
        check.add(f"the replay is {word} but the game is {game.status}")
    if not engine.over and game.status == ended:
        check.add(f"the game is marked {word} but the replay is not over")
    if game.status == other:
        check.add(f"a game of these rules cannot be {other}")
    charge, failed = (
        (engine.charge, engine.failed) if isinstance(engine, PlanarGame) else (None, None)
    )
    if (game.logical_charge, game.logical_failure) != (charge, failed):
        check.add(
            f"the logical outcome stored is charge {game.logical_charge}, failed "
            f"{game.logical_failure}; the replay gives charge {charge}, failed {failed}"
        )


def _steps_text(snapshots: list[BoardSnapshot]) -> str:
    steps = [s.step for s in snapshots]
    if not steps:
        return "none"
    return f"{steps[0]}..{steps[-1]} ({len(steps)} boards)"


def _verify_legacy(
    check: GameCheck, game: Game, rows: list[Any], snapshots: list[BoardSnapshot]
) -> None:
    if not snapshots:
        check.add("an uploaded game has no boards")
        return
    verdict = verify_save(
        save_from_snapshots(game=game, snapshots=snapshots),
        moves_per_round=game.moves_per_round,
        noise_budget=game.noise_budget,
    )
    check.boards_checked = verdict.steps_read
    if verdict.violation is not None:
        check.add(f"the stored boards break a rule: {verdict.violation}")
    if verdict.score != game.score:
        check.add(f"score is {game.score} but the boards end at step {verdict.score}")
    if verdict.partially_observed != game.partially_observed:
        check.add(
            f"partially_observed is {game.partially_observed}, the boards say "
            f"{verdict.partially_observed}"
        )
    # A move is stored at the clock just after it: the previous board's t + 1.
    steps = [snapshot.t for snapshot in snapshots]
    after = {m.t: t + 1 for t, m in zip(steps, verdict.moves, strict=False)}
    found = {after[m.t]: m for m in verdict.moves if m.t in after}
    for row in rows:
        if row.kind != "move":
            continue
        check.events_checked += 1
        move = (row.from_row, row.from_col, row.to_row, row.to_col)
        inferred = found.get(row.t)
        if inferred is None or (move != inferred.move and move not in inferred.candidates):
            check.add(f"the move stored at t={row.t} is not what the boards show")
