"""The move path's statements, each built once instead of compiled on every request.

A move is five statements: find and lock the game row, insert the events of
the move and of the noise after it, insert the board after it, update the
game row, commit. Through the ORM each of them was compiled anew on every
request and every value went through the field machinery; measured with
``bench/move_cost.py``, that compilation, not the database, was most of a
move's processor time (a 48-column ``bulk_create`` of the events above all).

The functions here issue the same statements with SQL text built once per
shape (table, columns, number of rows) and cached, and values prepared
only where the driver needs help. What a row holds is still decided
elsewhere (``games.recording``); the rows read back exactly as the ORM's
would (``tests/games/test_rows.py`` compares the two for every event kind,
on SQLite and on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, TypeAlias

from django.db import connections, models, router

from games.models import Event, Game
from games.recording import MOVE_ONLY_COLUMNS, fields_of_kind

# Columns of Event written for every row, besides those of the row's kind.
_EVENT_COMMON_COLUMNS = ("game", "seq", "kind", *MOVE_ONLY_COLUMNS)

# Field classes whose Python values (int, float, str, bool or None) reach the
# database driver unchanged on both back ends, so Django's per-value
# preparation can be skipped. Every other field (UUIDs and datetimes, which
# SQLite stores as text; JSON) goes through Django's own conversion.
_PASS_THROUGH = (
    models.IntegerField,
    models.FloatField,
    models.CharField,
    models.TextField,
    models.BooleanField,
)

Field: TypeAlias = "models.Field[Any, Any]"


def _prepared(
    row: models.Model, fields: Sequence[Field], connection: Any, *, add: bool
) -> list[Any]:
    """The values of ``fields`` of ``row`` as the driver takes them, as ``save()`` makes them."""
    prepared = []
    for field in fields:
        if isinstance(field, _PASS_THROUGH):
            prepared.append(getattr(row, field.attname))
        else:
            prepared.append(field.get_db_prep_save(field.pre_save(row, add), connection))
    return prepared


def _quoted(connection: Any, names: Sequence[str]) -> list[str]:
    return [connection.ops.quote_name(name) for name in names]


# Statements are cached per row count, so the batches are kept to a size whose
# texts stay small (a move writes 1 to about 50 rows; a new game a few hundred).
MAX_BATCH_ROWS = 500


@lru_cache(maxsize=256)
def _insert_sql(
    alias: str, table: str, columns: tuple[str, ...], rows: int, returning: str | None
) -> str:
    """``INSERT INTO table (columns) VALUES (...), ... [RETURNING key]`` for ``rows`` rows."""
    connection = connections[alias]
    one_row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    tail = f" RETURNING {connection.ops.quote_name(returning)}" if returning else ""
    # Every name comes from the model's metadata and is quoted; values are parameters.
    return (
        f"INSERT INTO {connection.ops.quote_name(table)} "  # noqa: S608
        f"({', '.join(_quoted(connection, columns))}) VALUES "
        + ", ".join([one_row] * rows)
        + tail
    )


def insert_rows(
    model: type[models.Model], rows: Sequence[models.Model], *, fields: Sequence[Field]
) -> None:
    """Insert unsaved ``rows`` of ``model``, writing only ``fields``: one statement per batch.

    The columns left out get NULL (there are no database defaults here), so
    they must be nullable. A primary key the database assigns is read back
    into each row, as ``bulk_create`` does, where the database can return it
    (PostgreSQL, SQLite 3.35 and newer). Rows are sent in batches the size
    the back end allows for a statement's parameters, as ``bulk_create``
    batches them (a move's few rows are always one batch).
    """
    if not rows:
        return
    alias = router.db_for_write(model)
    connection = connections[alias]
    key = _primary_key(model)
    assigned = key not in fields and connection.features.can_return_rows_from_bulk_insert
    batch = max(min(connection.ops.bulk_batch_size(list(fields), list(rows)), MAX_BATCH_ROWS), 1)
    columns = tuple(field.column for field in fields)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            sql = _insert_sql(
                alias, model._meta.db_table, columns, len(chunk), key.column if assigned else None
            )
            params: list[Any] = []
            for row in chunk:
                params.extend(_prepared(row, fields, connection, add=True))
            cursor.execute(sql, params)
            if assigned:
                for row, (pk,) in zip(chunk, cursor.fetchall(), strict=True):
                    setattr(row, key.attname, pk)
    for row in rows:
        row._state.adding = False
        row._state.db = alias


@cache
def _event_fields(kinds: frozenset[str]) -> tuple[Field, ...]:
    """The Event fields a batch of these kinds fills, in the table's column order."""
    names = set(_EVENT_COMMON_COLUMNS)
    for kind in kinds:
        names.update(fields_of_kind(kind))
    return tuple(field for field in Event._meta.concrete_fields if field.name in names)


def insert_event_rows(rows: Sequence[Event]) -> None:
    """Insert unsaved Event rows in one statement naming only the columns their kinds use."""
    if rows:
        insert_rows(Event, rows, fields=_event_fields(frozenset(row.kind for row in rows)))


def insert_row(row: models.Model) -> None:
    """Insert one unsaved row: every concrete column but a key the database assigns."""
    fields = [
        field
        for field in row._meta.concrete_fields
        if not (field.primary_key and getattr(row, field.attname) is None)
    ]
    insert_rows(type(row), [row], fields=fields)


def _primary_key(model: type[models.Model]) -> Field:
    key = model._meta.pk
    assert key is not None  # noqa: S101 - every concrete model has one
    return key


@cache
def _update_sql(alias: str, table: str, columns: tuple[str, ...], key: str) -> str:
    connection = connections[alias]
    assignments = ", ".join(f"{column} = %s" for column in _quoted(connection, columns))
    return (
        f"UPDATE {connection.ops.quote_name(table)} SET {assignments} "  # noqa: S608
        f"WHERE {connection.ops.quote_name(key)} = %s"
    )


def update_row(row: models.Model, *, fields: Sequence[str]) -> None:
    """``UPDATE`` the named columns of a stored row, as ``save(update_fields=...)`` would."""
    model = type(row)
    alias = router.db_for_write(model)
    connection = connections[alias]
    chosen = [model._meta.get_field(name) for name in fields]
    concrete = [field for field in chosen if isinstance(field, models.Field)]
    if len(concrete) != len(chosen):
        raise ValueError(f"not columns of {model.__name__}: {fields}")
    key = _primary_key(model)
    sql = _update_sql(
        alias, model._meta.db_table, tuple(field.column for field in concrete), key.column
    )
    params = _prepared(row, concrete, connection, add=False)
    params.append(key.get_db_prep_value(row.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _game_player_field() -> models.ForeignKey[Any, Any]:
    player = Game._meta.get_field("player")
    assert isinstance(player, models.ForeignKey)  # noqa: S101 - declared in games.models
    return player


@cache
def _locked_game_sql(alias: str) -> str:
    connection = connections[alias]
    meta = Game._meta
    columns = [field.column for field in meta.concrete_fields]
    where = _quoted(connection, [_primary_key(Game).column, _game_player_field().column])
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {', '.join(_quoted(connection, columns))} "  # noqa: S608
        f"FROM {connection.ops.quote_name(meta.db_table)} "
        f"WHERE {where[0]} = %s AND {where[1]} = %s{lock}"
    )


def locked_game(*, game_id: Any, player_id: Any) -> Game | None:
    """Game ``game_id`` of player ``player_id``, its row locked until the transaction ends.

    ``SELECT ... FOR UPDATE`` where the database has it (SQLite locks the
    whole database for a write transaction instead). None: that player has
    no such game.
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    params = [
        _primary_key(Game).get_db_prep_value(game_id, connection),
        _game_player_field().get_db_prep_value(player_id, connection),
    ]
    return next(iter(Game.objects.raw(_locked_game_sql(alias), params, using=alias)), None)
