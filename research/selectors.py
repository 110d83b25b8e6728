"""Reads of the research area: exports, the codebook, single games, who may read them."""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from core.errors import InvalidInput, NotFound
from core.research import Table
from games.engine.events import MoveTuple
from games.engine.legacy import game_to_save, write_save
from games.models import Event, Game, seed_withheld_condition
from games.recording import event_dict, parse_labels, save_from_snapshots
from games.selectors import game_events, game_snapshots, seed_withheld
from research.exports.columns import row_formatter
from research.exports.filters import ExportFilters, filtered_queryset, parse_filters
from research.exports.parquet import parquet_chunks
from research.exports.tables import all_tables, get_table
from research.exports.writer import annotated_rows, csv_chunks, guarded, gzipped, started

RESEARCHERS_GROUP = "researchers"


def user_is_researcher(*, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Staff, and members of the researchers group, may read research data."""
    if not user.is_authenticated or not user.is_active:
        return False
    if not isinstance(user, AbstractUser):  # a user model without staff or groups
        return False
    if user.is_staff:
        return True
    return user.groups.filter(name=RESEARCHERS_GROUP).exists()


def export_table(*, name: str) -> Table:
    table = get_table(name)
    if table is None:
        raise NotFound(f"There is no export table {name!r}; tables: {', '.join(all_tables())}.")
    return table


def export_filters(*, table: Table, params: Mapping[str, object]) -> ExportFilters:
    return parse_filters(params, table=table)


def export_rows(*, table: Table, filters: ExportFilters) -> QuerySet:
    """The model rows of an export (for counting and for the admin)."""
    return filtered_queryset(table=table, filters=filters)


def export_stream(
    *,
    table: Table,
    filters: ExportFilters,
    compress: bool = False,
    fast: bool | None = None,
    queryset: QuerySet | None = None,
    start: bool = False,
) -> Generator[bytes, None, None]:
    """The export's CSV (optionally gzip) as chunks; a failure ends it visibly.

    The query is built (and the filters checked against the database, e.g. an
    unknown pseudonym) before the first chunk, so such errors can still be
    answered with a 400. With ``start`` the first chunk is read at once
    (``writer.started``): a database that cannot run the query raises here.
    """
    rows = queryset if queryset is not None else filtered_queryset(table=table, filters=filters)
    raw = csv_chunks(table=table, queryset=rows, fast=fast)
    chunks = guarded(started(raw) if start else raw, what=table.name)
    return gzipped(chunks) if compress else chunks


def export_parquet_stream(
    *,
    table: Table,
    filters: ExportFilters,
    queryset: QuerySet | None = None,
    start: bool = False,
) -> Generator[bytes, None, None]:
    """The export as a Parquet file, in chunks of one row group; a failure ends it visibly.
    With ``start`` the first row group is read at once, as for ``export_stream``."""
    rows = queryset if queryset is not None else filtered_queryset(table=table, filters=filters)
    raw = parquet_chunks(table=table, queryset=rows)
    return guarded(started(raw) if start else raw, what=table.name)


def export_filename(
    *, table: Table, filters: ExportFilters, compress: bool, output: str = "csv"
) -> str:
    suffix = ".parquet" if output == "parquet" else ".csv.gz" if compress else ".csv"
    after = f"-after-{filters.after_id}" if filters.after_id is not None else ""
    return f"decodoku-{table.name}{after}{suffix}"


PREVIEW_ROWS = 10


@dataclass(frozen=True, slots=True)
class ExportPreview:
    """The row count of an export and its first rows, each cell as the CSV writes it."""

    table: Table
    count: int
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def export_preview(
    *, table: Table, filters: ExportFilters, limit: int = PREVIEW_ROWS
) -> ExportPreview:
    """How many rows the filters select, and the first ``limit`` of them (read before a download).

    The cells are written by the export's own formatter and read back as CSV,
    so the preview shows exactly the text the download will hold.
    """
    queryset = filtered_queryset(table=table, filters=filters)
    line = row_formatter(table.columns)
    text = "".join(line(row) for row in annotated_rows(queryset, table)[:limit])
    rows = tuple(tuple(cells) for cells in csv.reader(io.StringIO(text, newline="")))
    return ExportPreview(
        table=table,
        count=queryset.count(),
        columns=tuple(column.name for column in table.columns),
        rows=rows,
    )


# -- single games: their page, their replay, their save file ----------------------

EVENTS_PER_PAGE = 50


def research_games() -> QuerySet[Game]:
    """The games a researcher may open one by one (page, replay, events, save file).

    The exports' rule: research data, finished games only. A game played without
    research consent, an active game (its boards show what its player cannot
    see yet) and a game on the board of a day still open (its noise is the
    answer key of everyone who plays that board later) are "no such game" to
    researchers; games a curator excluded and practice games open, as the
    exports offer them on request.
    """
    return (
        Game.objects.research_data(include_excluded=True, include_practice=True)
        .finished()
        .exclude(seed_withheld_condition())
    )


def research_game(*, game_id: str, queryset: QuerySet[Game] | None = None) -> Game:
    """One game of :func:`research_games` (or of ``queryset``: the admin's, any game)."""
    try:
        key = uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound("No such game.") from None
    games = research_games() if queryset is None else queryset
    game = games.filter(pk=key).first()
    if game is None:
        raise NotFound("No such game.")
    return game


def _moves(game: Game) -> list[MoveTuple]:
    rows = game_events(game=game).filter(kind="move")
    # Move rows always have their cells; the columns are nullable for other kinds.
    return [
        cast("tuple[int, int, int, int]", (row.from_row, row.from_col, row.to_row, row.to_col))
        for row in rows.only("from_row", "from_col", "to_row", "to_col")
    ]


def game_save_text(*, game: Game) -> str:
    """The game in the original apps' save format (rules page: "Legacy save files")."""
    if game.family:
        # The format holds the original game's boards and groups; a planar game is
        # in the exports (its events and boards) instead.
        raise InvalidInput("A planar game has no save file of the original apps.")
    if game.seed is not None:
        # The header names the seed: withheld while the game is active (and a daily
        # challenge's while its day is open), since the seed tells the noise to come.
        return game_to_save(
            rules=game.rules,
            seed=game.seed,
            moves=_moves(game),
            engine_version=game.engine_version,
            name=str(game.pk),
            header=not seed_withheld(game=game),
        )
    if not game_snapshots(game=game).exists():
        raise InvalidInput("The game has no stored boards to write.")
    return write_save(save_from_snapshots(game=game, snapshots=game_snapshots(game=game)))


def game_replay(*, game: Game) -> dict[str, Any]:
    """Every stored board of the game, for the step-through replay (JSON-ready)."""
    boards = [
        {"step": board.step, "t": board.t, "cells": board.values,
         "groups": parse_labels(board.labels), "comment": board.comment}
        for board in game_snapshots(game=game)
    ]
    return {"size": game.size, "boards": boards}


def event_summary(row: Event) -> str:
    """The event's own fields (its kind's engine fields) as one line of text."""
    data = event_dict(row)
    for name in ("kind", "t", "round"):
        data.pop(name, None)
    return json.dumps(data, separators=(", ", ": "))


def game_events_page(*, game: Game, page: str | int | None) -> tuple[Page, list[dict[str, Any]]]:
    """One page of the game's events (``EVENTS_PER_PAGE``), and its rows for a table."""
    events = Paginator(game_events(game=game), EVENTS_PER_PAGE).get_page(page)
    rows = [
        {"seq": row.seq, "kind": row.kind, "t": row.t, "round": row.round,
         "fields": event_summary(row), "note": row.note, "server_time": row.server_time}
        for row in events.object_list
    ]
    return events, rows
