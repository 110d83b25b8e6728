"""Writes about games being played: starting, moving, abandoning, notes.

Every write runs in one transaction. A move locks its game row with
``SELECT ... FOR UPDATE``, so that the moves of one game are applied one at a
time, in order, whatever the number of requests arriving together.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import (
    ENGINE_VERSION,
    AnyGame,
    EngineError,
    IllegalMove,
    RuleSet,
    game_from_state,
    new_game,
)
from games.engine import Event as EngineEvent
from games.engine.planar import PlanarGame
from games.errors import (
    DailyAlreadyPlayed,
    GameOver,
    IllegalMoveError,
    InvalidInput,
    InvalidRules,
    NotFound,
    StaleStep,
)
from games.models import BoardSnapshot, DailyChallenge, Event, Game, Player
from games.recording import event_row, snapshot_row
from games.rulesets import rules_columns
from games.services.odds import game_class_odds_columns
from games.services.players import player_require_consent_choice
from games.services.rows import insert_event_rows, insert_row, locked_game, update_row
from games.signals import on_game_finished

SEED_BITS = 63
NOTE_MAX_LENGTH = 2000
CLIENT_INFO_MAX_LENGTH = 300
# Larger move numbers (from a URL) cannot exist and would overflow the column.
MAX_MOVE_INDEX = 2**31 - 1


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one move did.

    ``step`` is the number of moves made after this one (the step the next
    move must send). ``replayed`` is true when the request repeated a move
    that was already recorded: nothing was played again and ``events`` and
    ``snapshot`` are the ones stored the first time.
    """

    game: Game
    step: int
    events: list[Event]
    snapshot: BoardSnapshot
    replayed: bool


def _clean_client_info(client_info: Mapping[str, Any] | None) -> dict[str, str]:
    cleaned: dict[str, str] = {}
    for key, value in (client_info or {}).items():
        if value is None:
            continue
        cleaned[str(key)[:40]] = str(value)[:CLIENT_INFO_MAX_LENGTH]
    return cleaned


def _clean_note(note: str) -> str:
    if len(note) > NOTE_MAX_LENGTH:
        raise InvalidInput(f"a note may have at most {NOTE_MAX_LENGTH} characters")
    return note


def _record_events(
    *,
    game: Game,
    first_seq: int,
    events: list[EngineEvent],
    server_time: datetime,
    client_time: datetime | None = None,
    note: str = "",
) -> list[Event]:
    """Store engine events with contiguous seq numbers from ``first_seq`` on."""
    rows = []
    seq = first_seq
    for event in events:
        is_move = event.kind == "move"
        rows.append(
            event_row(
                game=game,
                seq=seq,
                data=event.to_dict(),
                server_time=server_time if is_move else None,
                client_time=client_time if is_move else None,
                note=note if is_move else "",
            )
        )
        seq += 1
    insert_event_rows(rows)
    return rows


def _copy_engine_state(game: Game, engine: AnyGame) -> None:
    game.state = engine.to_state()
    game.score = engine.t
    game.rounds = engine.round
    game.moves_count = engine.moves_made


def _end(game: Game, engine: AnyGame, now: datetime) -> list[str]:
    """Mark ``game``, whose engine is over, as ended; return the columns that changed.

    A game of the original rules is lost; a planar game is finished (its
    board is clean) with its logical outcome.
    """
    game.ended_at = now
    if isinstance(engine, PlanarGame):
        game.status = Game.Status.FINISHED
        game.logical_charge = engine.charge
        game.logical_failure = engine.failed
        odds_columns = game_class_odds_columns(game=game)
        return ["status", "ended_at", "logical_charge", "logical_failure", *odds_columns]
    game.status = Game.Status.LOST
    return ["status", "ended_at"]


@transaction.atomic
def game_start(
    *,
    player: Player,
    rules: RuleSet,
    mode: str = Game.Mode.NORMAL,
    source: str = Game.Source.API,
    client_info: Mapping[str, Any] | None = None,
    bot_name: str = "",
    bot_version: str = "",
    seed: int | None = None,
    daily: DailyChallenge | None = None,
) -> Game:
    """Start a game: draw a seed, run the first noise round, record it and board 0.

    ``seed`` is for bots and tests that need a known game; players always get
    a seed drawn by the server. ``daily``: the game is that day's challenge, at
    its rules and seed, in normal mode; a player who already has a game of that
    challenge gets :class:`DailyAlreadyPlayed` and nothing is stored.

    A planar rule set starts a planar game (normal mode only: it has no groups
    to show). Its first board may already be clean: the game is then finished
    at once, with its logical outcome.
    """
    if daily is not None:
        if mode != Game.Mode.NORMAL:
            raise InvalidInput("the daily challenge is played in normal mode")
        if (seed is not None and seed != daily.seed) or rules != daily.rules:
            raise InvalidInput("the daily challenge has its own rules and seed")
        seed = daily.seed
        _refuse_second_daily(player=player, daily=daily)
    if mode not in Game.Mode.values:
        raise InvalidInput(f"unknown mode {mode!r}")
    if not rules.kind.grouped and mode != Game.Mode.NORMAL:
        raise InvalidInput(
            "A planar game has no groups to show: it is played in normal mode.",
            fields={"mode": ["A planar game is played in normal mode."]},
        )
    if source not in Game.Source.values or source == Game.Source.LEGACY_UPLOAD:
        raise InvalidInput(f"a game cannot be started with source {source!r}")
    if source != Game.Source.BOT and (bot_name or bot_version):
        raise InvalidInput("bot_name and bot_version are only for games played by bots")
    if source == Game.Source.BOT and not player.is_platform_bot:
        # A bot game needs no consent to be research data: only the platform's own
        # bot players (games.services.player_for_bot) may record one.
        raise InvalidInput("only the platform's bot players record bot games")
    player_require_consent_choice(player=player, source=source)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    elif not 0 <= seed < 2**SEED_BITS:
        raise InvalidInput(f"seed must be between 0 and 2**{SEED_BITS} - 1")
    try:
        columns = rules_columns(rules)
        engine = new_game(rules, seed, record=True, engine_version=ENGINE_VERSION)
    except EngineError as exc:
        raise InvalidRules(str(exc), code=exc.code) from exc
    now = timezone.now()
    game = Game(
        id=uuid.uuid4(),
        player=player,
        **columns,
        engine_version=ENGINE_VERSION,
        seed=seed,
        source=source,
        bot_name=bot_name,
        bot_version=bot_version,
        mode=mode,
        status=Game.Status.ACTIVE,
        started_at=now,
        client_info=_clean_client_info(client_info),
        research_consent=player.research_consent,
        daily=daily,
    )
    _copy_engine_state(game, engine)
    game.next_seq = len(engine.events)
    if engine.over:
        _end(game, engine, now)
    try:
        with transaction.atomic():
            game.save(force_insert=True)
    except IntegrityError:
        if daily is None:
            raise
        # Another request of the same player started the challenge in between.
        _refuse_second_daily(player=player, daily=daily)
        raise
    _record_events(game=game, first_seq=0, events=engine.events, server_time=now)
    insert_row(snapshot_row(game=game, step=0, t=engine.t, board=engine.board()))
    if engine.over:
        on_game_finished(game=game)
    return game


def _refuse_second_daily(*, player: Player, daily: DailyChallenge) -> None:
    played = Game.objects.filter(player=player, daily=daily).values_list("pk", flat=True).first()
    if played is not None:
        raise DailyAlreadyPlayed(
            f"You have already played the daily challenge of {daily.date:%Y-%m-%d}.",
            game_id=str(played),
        )


def _locked_game(*, game_id: uuid.UUID, player: Player) -> Game:
    game = locked_game(game_id=game_id, player_id=player.pk)
    if game is None:
        raise NotFound("No such game.")
    return game


def _recorded_move(*, game: Game, step: int) -> MoveResult:
    """The stored outcome of move number ``step + 1`` of ``game``."""
    move = Event.objects.get(game=game, kind="move", index=step + 1)
    following = (
        Event.objects.filter(game=game, kind="move", index=step + 2)
        .values_list("seq", flat=True)
        .first()
    )
    end = following if following is not None else game.next_seq
    events = list(Event.objects.filter(game=game, seq__gte=move.seq, seq__lt=end).order_by("seq"))
    snapshot = BoardSnapshot.objects.get(game=game, step=step + 1)
    return MoveResult(game=game, step=step + 1, events=events, snapshot=snapshot, replayed=True)


def _same_move_recorded(
    *, game: Game, step: int, from_row: int, from_col: int, to_row: int, to_col: int
) -> bool:
    return Event.objects.filter(
        game=game,
        kind="move",
        index=step + 1,
        from_row=from_row,
        from_col=from_col,
        to_row=to_row,
        to_col=to_col,
    ).exists()


@transaction.atomic
def game_move(
    *,
    game_id: uuid.UUID,
    player: Player,
    step: int,
    from_row: int,
    from_col: int,
    to_row: int,
    to_col: int,
    client_time: datetime | None = None,
    note: str = "",
) -> MoveResult:
    """Play one move of ``player``'s game, or repeat the answer to a retried one.

    ``step`` is the number of moves the client believes were made so far.
    Equal to the game's count: the move is played. Lower, and the move made
    at that step was this same move: it is a retry and the stored result is
    returned without playing again. Anything else raises ``StaleStep``
    carrying the current step.
    """
    note = _clean_note(note)
    game = _locked_game(game_id=game_id, player=player)
    current = game.moves_count
    if game.source == Game.Source.LEGACY_UPLOAD:
        raise GameOver("An uploaded save file is a finished game.", current_step=current)
    if step != current:
        if 0 <= step < current and _same_move_recorded(
            game=game, step=step, from_row=from_row, from_col=from_col, to_row=to_row,
            to_col=to_col,
        ):
            return _recorded_move(game=game, step=step)
        raise StaleStep(
            f"The game is at step {current}, not {step}.", current_step=current
        )
    if not game.is_active:
        raise GameOver(f"The game is {game.status}.", current_step=current)
    engine = game_from_state(game.state, record=True)
    first = len(engine.events)
    try:
        engine.move(from_row, from_col, to_row, to_col)
    except IllegalMove as exc:
        raise IllegalMoveError(str(exc), code=exc.code, current_step=current) from exc
    now = timezone.now()
    rows = _record_events(
        game=game,
        first_seq=game.next_seq,
        events=engine.events[first:],
        server_time=now,
        client_time=client_time,
        note=note,
    )
    snapshot = snapshot_row(game=game, step=engine.moves_made, t=engine.t, board=engine.board())
    insert_row(snapshot)
    _copy_engine_state(game, engine)
    game.next_seq += len(rows)
    update_fields = ["state", "score", "rounds", "moves_count", "next_seq"]
    if engine.over:
        update_fields += _end(game, engine, now)
    update_row(game, fields=update_fields)
    if engine.over:
        on_game_finished(game=game)
    return MoveResult(
        game=game, step=engine.moves_made, events=rows, snapshot=snapshot, replayed=False
    )


@transaction.atomic
def game_abandon(*, game_id: uuid.UUID, player: Player) -> Game:
    """Give up an active game. Abandoning an abandoned game changes nothing."""
    game = _locked_game(game_id=game_id, player=player)
    if game.status == Game.Status.ABANDONED:
        return game
    if not game.is_active:
        raise GameOver(f"The game is already {game.status}.", current_step=game.moves_count)
    game.status = Game.Status.ABANDONED
    game.ended_at = timezone.now()
    game.save(update_fields=["status", "ended_at"])
    on_game_finished(game=game)
    return game


@transaction.atomic
def game_add_note(*, game_id: uuid.UUID, player: Player, move_index: int, note: str) -> Event:
    """Set the player's note on move number ``move_index`` (1 for the first move).

    Notes may be written at any time, also after the game ended; a new note
    replaces the previous one.
    """
    note = _clean_note(note)
    game = _locked_game(game_id=game_id, player=player)
    move = None
    if 1 <= move_index <= MAX_MOVE_INDEX:
        move = Event.objects.filter(game=game, kind="move", index=move_index).first()
    if move is None:
        raise NotFound(f"The game has no move {move_index}.", current_step=game.moves_count)
    move.note = note
    move.save(update_fields=["note"])
    return move
