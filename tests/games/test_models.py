"""The tables hold what a recorded game must hold, and refuse what it must not."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import Game as EngineGame
from games.engine import RuleSet, verify_events
from games.models import BoardSnapshot, Event, Game
from games.recording import (
    MOVE_ONLY_COLUMNS,
    engine_event_fields,
    event_dict,
    event_from_row,
    event_row,
)
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db

DJANGO_TYPES = {
    int: {"IntegerField"},
    float: {"FloatField"},
    str: {"CharField"},
    bool: {"BooleanField"},
}


def test_the_event_table_has_a_nullable_column_for_every_engine_event_field():
    columns = {field.name: field for field in Event._meta.get_fields() if field.concrete}
    for name, python_type in engine_event_fields().items():
        assert name in columns, f"Event has no column for the engine field {name!r}"
        column = columns[name]
        assert column.null, name
        assert column.get_internal_type() in DJANGO_TYPES[python_type], name


def test_the_event_table_has_no_engine_like_column_the_engine_does_not_know():
    known = {"id", "game", "seq", "kind", *MOVE_ONLY_COLUMNS, *engine_event_fields()}
    columns = {field.name for field in Event._meta.get_fields() if field.concrete}
    assert columns == known


def test_a_stored_event_rebuilds_the_engine_event_exactly(game):
    game = play(game, 12)
    engine = EngineGame(RuleSet(size=game.size), game.seed)
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    kinds = {row.kind for row in rows}
    assert {"round_start", "noise", "round_end", "move"} <= kinds
    moves = [(r.from_row, r.from_col, r.to_row, r.to_col) for r in rows if r.kind == "move"]
    for move in moves:
        engine.move(*move)
    assert [event_from_row(row) for row in rows] == engine.events
    assert verify_events(
        RuleSet(size=game.size), game.seed, [event_dict(r) for r in rows], engine_version=1
    ).ok


def test_a_row_built_from_an_event_dict_keeps_only_that_kinds_fields(game):
    data = {"kind": "jump", "t": 10, "round": 2, "from_t": 7, "reason": "empty_after_move"}
    row = event_row(game=game, seq=99, data=data)
    assert row.from_row is None
    assert row.case is None
    assert event_dict(row) == data


@pytest.mark.parametrize("size", [2, 17])
def test_the_database_refuses_a_board_size_outside_3_to_16(game, size):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(size=size)


def test_the_database_refuses_an_ended_game_without_an_end_time(game):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.LOST)


def test_the_database_refuses_an_active_game_with_an_end_time(game):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(ended_at=timezone.now())


def test_the_database_refuses_a_game_without_a_seed_unless_it_was_uploaded(game):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(seed=None)


@pytest.mark.parametrize(("column", "value"), [
    ("value", 10), ("a", -1), ("to_row", 64), ("from_row", -1), ("to_col", -2), ("col2", 65),
])
def test_the_database_refuses_values_and_cells_out_of_range(game, column, value):
    # Columns reach -1 and L on a planar board of up to 64 x 64 (its sides).
    with transaction.atomic(), pytest.raises(IntegrityError):
        Event.objects.create(game=game, seq=10_000, kind="move", **{column: value})


def test_the_database_refuses_two_events_with_the_same_seq(game):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Event.objects.create(game=game, seq=0, kind="noise")


def test_the_database_refuses_two_boards_for_the_same_step(game):
    with transaction.atomic(), pytest.raises(IntegrityError):
        BoardSnapshot.objects.create(game=game, step=0, t=0, values="0" * 49, labels="")


def test_uploaded_save_files_are_unique_by_hash_per_player(player):
    first = GameFactory(player=player)
    second = GameFactory(player=player)
    Game.objects.filter(pk=first.pk).update(legacy_sha256="a" * 64, legacy_boards_sha256="b" * 64)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=second.pk).update(legacy_sha256="a" * 64)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=second.pk).update(legacy_boards_sha256="b" * 64)
    Game.objects.filter(pk=second.pk).update(legacy_sha256=None)  # many games have none
    # Another player may hold the same file: their private copy of it, not a second original.
    other = GameFactory()
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=other.pk).update(legacy_boards_sha256="b" * 64)
    Game.objects.filter(pk=other.pk).update(
        legacy_sha256="a" * 64, legacy_boards_sha256="b" * 64, copy_of=first
    )
