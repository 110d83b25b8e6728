"""The move path's prebuilt statements write and read what the ORM would."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from itertools import cycle, islice

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import EVENT_TYPES, Family, Move, NoiseError, RuleSet
from games.engine import Event as EngineEvent
from games.engine import Game as EngineGame
from games.engine.planar import PlanarGame, get_decoder
from games.engine.planar import play as play_planar
from games.models import BoardSnapshot, Event, Game
from games.recording import event_row, snapshot_row
from games.services.rows import insert_event_rows, insert_row, locked_game, update_row
from tests.factories import GameFactory, PlayerFactory

pytestmark = pytest.mark.django_db

MOVE_TIME = datetime(2026, 11, 23, 12, 30, 15, 123456, tzinfo=UTC)


def _events_of_every_kind() -> list[EngineEvent]:
    """Engine events of small random games, until every kind of event has occurred.

    First a planar game cleaned by a decoder (side edges and moves off the
    board, column -1 or L; its logical outcome). Then games of size 3 with a
    low noise budget, which regenerate first boards and empty the board (a
    jump ahead) often enough; the seeds are fixed, so the list is too.
    """
    planar = PlanarGame(RuleSet(size=4, family=Family.PLANAR, modulus=3, error_rate=0.3), 11)
    play_planar(planar, get_decoder("clustering"))
    assert {-1, 4} <= {event.to_col for event in planar.events if isinstance(event, Move)} | {
        event.col1 for event in planar.events if isinstance(event, NoiseError)
    } | {event.col2 for event in planar.events if isinstance(event, NoiseError)}
    events: list[EngineEvent] = list(planar.events)
    rng = random.Random(5)
    for seed in range(200):
        engine = EngineGame(RuleSet(size=3, noise_budget=2.0), seed, record=True)
        events.extend(engine.events)
        while not engine.over:
            events.extend(engine.move(*rng.choice(list(engine.legal_moves()))))
        if {event.kind for event in events} == set(EVENT_TYPES):
            return events
    raise AssertionError("200 small games did not produce every kind of event")


def _rows(game: Game, events: list[EngineEvent]) -> list[Event]:
    return [
        event_row(
            game=game,
            seq=seq,
            data=event.to_dict(),
            server_time=MOVE_TIME if event.kind == "move" else None,
            client_time=MOVE_TIME if event.kind == "move" else None,
            note="a note, with 'quotes' and \\ and ü" if event.kind == "move" else "",
        )
        for seq, event in enumerate(events, start=1000)
    ]


def _stored(game: Game) -> list[dict]:
    """Every column of the game's rows from seq 1000 on, except the row id and the game."""
    return list(
        Event.objects.filter(game=game, seq__gte=1000)
        .order_by("seq")
        .values(*[
            field.attname for field in Event._meta.concrete_fields
            if field.attname not in ("id", "game_id")
        ])
    )


def test_event_rows_read_back_as_bulk_create_writes_them_for_every_kind():
    events = _events_of_every_kind()
    by_orm, by_statement = GameFactory.create(), GameFactory.create()
    Event.objects.bulk_create(_rows(by_orm, events))
    rows = _rows(by_statement, events)
    insert_event_rows(rows)

    assert _stored(by_statement) == _stored(by_orm)
    assert len(_stored(by_statement)) == len(events)
    # The keys the database assigned are on the rows, in order, as bulk_create leaves them.
    stored_ids = list(
        Event.objects.filter(game=by_statement, seq__gte=1000)
        .order_by("seq")
        .values_list("id", flat=True)
    )
    assert [row.pk for row in rows] == stored_ids
    assert all(not row._state.adding for row in rows)


def test_one_statement_writes_a_moves_worth_of_mixed_kinds():
    events = _events_of_every_kind()[:12]
    assert len({event.kind for event in events}) > 2
    game = GameFactory.create()
    with CaptureQueriesContext(connection) as queries:
        insert_event_rows(_rows(game, events))
    assert len(queries.captured_queries) == 1
    assert Event.objects.filter(game=game, seq__gte=1000).count() == 12


def test_a_snapshot_inserted_by_statement_equals_one_saved_by_the_orm():
    game = GameFactory.create()
    engine = EngineGame.from_state(game.state, record=False)
    by_orm = snapshot_row(game=game, step=50, t=7, board=engine.board(), comment="=1+1")
    by_orm.save(force_insert=True)
    by_statement = snapshot_row(game=game, step=51, t=7, board=engine.board(), comment="=1+1")
    insert_row(by_statement)

    assert by_statement.pk is not None
    columns = ("game_id", "t", "values", "shown", "labels", "comment")
    first, second = (
        BoardSnapshot.objects.filter(pk=pk).values(*columns).get()
        for pk in (by_orm.pk, by_statement.pk)
    )
    assert first == second


def test_an_update_writes_what_save_with_update_fields_writes():
    by_orm, by_statement = GameFactory.create(), GameFactory.create()
    fields = ["state", "score", "rounds", "moves_count", "next_seq", "status", "ended_at"]
    state = {**by_orm.state, "note": 'naïve "json"', "nested": [1, None, 2.5]}
    for game in (by_orm, by_statement):
        game.state = state
        game.score, game.rounds, game.moves_count, game.next_seq = 41, 9, 33, 400
        game.status, game.ended_at = Game.Status.LOST, MOVE_TIME
    by_orm.save(update_fields=fields)
    update_row(by_statement, fields=fields)

    def columns(game: Game) -> dict:
        return Game.objects.filter(pk=game.pk).values(*fields).get()

    assert columns(by_statement) == columns(by_orm)
    assert columns(by_statement)["ended_at"] == MOVE_TIME


def test_an_update_names_only_columns():
    game = GameFactory.create()
    with pytest.raises(ValueError, match="not columns"):
        update_row(game, fields=["events"])


def test_the_locked_game_is_the_players_and_locked_where_the_database_can():
    game = GameFactory.create()
    stranger = PlayerFactory.create()
    with CaptureQueriesContext(connection) as queries:
        found = locked_game(game_id=game.pk, player_id=game.player_id)
    assert found is not None
    assert found.pk == game.pk
    assert found.state == game.state
    assert found.started_at == game.started_at
    assert ("FOR UPDATE" in queries.captured_queries[0]["sql"]) == (
        connection.features.has_select_for_update
    )
    assert locked_game(game_id=game.pk, player_id=stranger.pk) is None
    assert locked_game(game_id=stranger.pk, player_id=game.player_id) is None


def test_many_rows_go_in_batches_the_database_accepts_and_all_get_their_keys():
    events = _events_of_every_kind()
    rows = _rows(GameFactory.create(), list(islice(cycle(events), 1200)))
    game = rows[0].game
    insert_event_rows(rows)

    stored = list(
        Event.objects.filter(game=game, seq__gte=1000).order_by("seq").values_list("id", "seq")
    )
    assert len(stored) == 1200
    assert [(row.pk, row.seq) for row in rows] == stored
