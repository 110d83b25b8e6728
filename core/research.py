"""What a research table declares, and the registry where each app declares its own.

An app whose records are research data describes them in a module
``research_tables.py`` beside its models, as :class:`Table` values passed to
:func:`register`. The research app reads the registry (:func:`registered_tables`)
and does everything else generically: the filters, the CSV (portable and
COPY) and Parquet writers, the preview, the codebook. It names no model of
another app; the apps name their own.

The registry finds the modules the way the admin finds ``admin.py``: the
first read imports ``<app>.research_tables`` of every installed app
(``django.utils.module_loading.autodiscover_modules``), and the tables are
listed app by app in the order of ``INSTALLED_APPS``, then in the order each
app registered them. That order is the order of the codebook.

A table's rows are research data by one of two rules:

* rows of a recorded game (``game_path`` set): the games' own rule
  (``Game.objects.research_data()``, applied by the research app through
  ``games.models.research_data_condition``), which researchers may widen with
  the filters ``include_excluded`` and ``include_practice``, and finished
  games only;
* any other rows: the table's ``queryset`` applies its app's rule itself and
  no filter widens it (puzzle attempts: ``Attempt.objects.research_data()``;
  sweeps hold bot games only, which need no consent).

Core imports none of the apps: this module holds only the shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Expression, F, Model, Q, QuerySet
from django.utils.module_loading import autodiscover_modules

MODULE_NAME = "research_tables"


class ColumnType(StrEnum):
    INTEGER = "integer"
    FLOAT = "float"
    STRING = "string"
    BOOLEAN = "boolean"
    DATETIME = "datetime"
    UUID = "uuid"
    PSEUDONYM = "pseudonym"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a research table, with its codebook text.

    ``source`` is a lookup path relative to the table's model (``"game__size"``)
    or an ORM expression. ``allowed`` lists the values a cell may hold when
    they are a fixed set; ``values`` describes the range otherwise (``"0-9"``).
    """

    name: str
    type: ColumnType
    meaning: str
    source: str | Expression
    unit: str = ""
    allowed: tuple[str, ...] = ()
    values: str = ""
    nullable: bool = False

    def expression(self) -> Expression | F:
        return F(self.source) if isinstance(self.source, str) else self.source


# What each filter compares, relative to a game: the filter "date" is the
# pair date_from / date_to, "player" takes a pseudonym.
GAME_FILTER_FIELDS = {
    "date": "started_at",
    "variant": "variant",
    "size": "size",
    "rules_key": "rules_key",
    "engine_version": "engine_version",
    "source": "source",
    "player": "player_id",
    "status": "status",
}


@dataclass(frozen=True, slots=True)
class Table:
    """One research table.

    ``queryset`` gives the rows the table reads (narrowed to its kind of rows
    and, for rows of no game, to its research data). ``game_path`` is the
    lookup path from those rows to their game ("" for games themselves, None
    when rows belong to no game); ``extra_filter_paths`` maps each other
    filter the table accepts to its lookup. ``row_id`` names the integer
    column that ``after_id`` compares with; None when rows have no integer id
    (games and players are keyed by UUID). ``prepare`` adds aggregates that
    the columns read, given the condition on the rows' games and the
    condition of the rows listed for research data outside the games
    (:func:`records_elsewhere`; None when the filters narrow the games, or the
    table lists no such rows); it also selects the rows to list.
    """

    name: str
    title: str
    description: str
    queryset: Callable[[], QuerySet]
    columns: tuple[Column, ...]
    order_by: tuple[str, ...]
    game_path: str | None
    row_id: str | None = "id"
    extra_filter_paths: dict[str, str] = field(default_factory=dict)
    prepare: Callable[[QuerySet, Q, Q | None], QuerySet] | None = None
    # Whether rows with research data outside the games (a player who only did
    # puzzles) are listed too: see register_player_records.
    lists_records_elsewhere: bool = False

    @property
    def model(self) -> type[Model]:
        return self.queryset().model

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    @property
    def filter_paths(self) -> dict[str, str]:
        """Each filter the table accepts and the lookup path it compares."""
        paths: dict[str, str] = {}
        if self.game_path is not None:
            paths = {name: self.game_path + path for name, path in GAME_FILTER_FIELDS.items()}
        paths.update(self.extra_filter_paths)
        return paths

    @property
    def filter_names(self) -> tuple[str, ...]:
        """The names of the filters as researchers write them, in a stable order."""
        names: list[str] = []
        for name in self.filter_paths:
            names += ["date_from", "date_to"] if name == "date" else [name]
        if self.game_path is not None:
            names += ["include_excluded", "include_practice"]
        if self.row_id is not None:
            names.append("after_id")
        return tuple(names)

    @property
    def pseudonym_columns(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if c.type is ColumnType.PSEUDONYM)


_REGISTERED: dict[str, Table] = {}
_discovered = False

# Research data of players kept outside the games (a puzzle attempt), by the
# app that keeps it: each a condition on a player, given the date filter's
# bounds (started from, started before). The games app's players table lists
# a player with such records even without a game; the app that owns them
# registers the condition, since the games app may not use it.
PlayerRecords = Callable[[datetime | None, datetime | None], Q]
_PLAYER_RECORDS: dict[str, PlayerRecords] = {}


def register_player_records(name: str, condition: PlayerRecords) -> None:
    """Declare research data of players outside the games (``name``: e.g. puzzle_attempts)."""
    _PLAYER_RECORDS[name] = condition


def records_elsewhere(*, date_from: datetime | None, date_to: datetime | None) -> Q:
    """Players with research data outside the games in the dates given (none registered: none)."""
    autodiscover()
    condition = Q(pk__in=[])
    for records in _PLAYER_RECORDS.values():
        condition |= records(date_from, date_to)
    return condition


def register(*tables: Table) -> None:
    """Add tables to the registry; a table name is taken once, site-wide."""
    for table in tables:
        if table.name in _REGISTERED and _REGISTERED[table.name] is not table:
            raise ImproperlyConfigured(f"research table {table.name!r} is registered twice")
        _REGISTERED[table.name] = table


def autodiscover() -> None:
    """Import every installed app's ``research_tables`` module (once)."""
    global _discovered
    if not _discovered:
        autodiscover_modules(MODULE_NAME)
        _discovered = True


def registered_tables() -> dict[str, Table]:
    """Every registered table by name: app by app as installed, each app's in its own order."""
    autodiscover()
    order = {config.label: index for index, config in enumerate(apps.get_app_configs())}
    position = {name: index for index, name in enumerate(_REGISTERED)}

    def place(table: Table) -> tuple[int, int]:
        return order.get(table.model._meta.app_label, len(order)), position[table.name]

    tables = sorted(_REGISTERED.values(), key=place)
    return {table.name: table for table in tables}
