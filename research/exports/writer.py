"""Writing an export table as CSV, streamed in chunks with constant memory.

Two paths give byte-identical output (a PostgreSQL test compares them):

* the COPY path (PostgreSQL): the table's query, with every column turned
  into its cell text by SQL (``columns.copy_expression``), runs as
  ``COPY (...) TO STDOUT WITH (FORMAT csv)`` through psycopg 3's
  ``cursor.copy()``; the server writes the CSV and Python only forwards it;
* the portable path (any database): the same query through a server-side
  cursor (a chunked iterator on SQLite), each cell written by
  ``columns.formatter``.

Both are generators of ``bytes`` of about :data:`CHUNK_BYTES`, header row
first. :func:`guarded` makes a failure visible: it appends a last line that
starts with :data:`FAILURE_MARKER` and then raises :class:`ExportFailed`, so
a web server aborts the transfer (the client sees an incomplete download) and
the command line exits with an error. :func:`gzipped` compresses a stream;
a failed stream lacks the gzip trailer, so decompressing it fails too.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Generator, Iterable, Iterator

from django.db import connections, transaction
from django.db.models import QuerySet

from core.pseudonyms import load_mapping
from core.research import Table
from research.exports.columns import copy_expression, header_line, row_formatter

logger = logging.getLogger(__name__)

CHUNK_BYTES = 64 * 1024
FETCH_ROWS = 2000
FAILURE_MARKER = "#EXPORT_FAILED"


class ExportFailed(Exception):
    """An export stopped before its end; the stream already ends with the marker line."""


def _annotated(queryset: QuerySet, table: Table, *, for_copy: bool) -> QuerySet:
    names = [f"export_c{i}" for i in range(len(table.columns))]
    expressions = {
        name: copy_expression(column) if for_copy else column.expression()
        for name, column in zip(names, table.columns, strict=True)
    }
    return queryset.annotate(**expressions).values_list(*names)


def annotated_rows(queryset: QuerySet, table: Table) -> QuerySet:
    """The table's cells as Python values, one tuple per row, in the table's column order."""
    return _annotated(queryset, table, for_copy=False)


def _batched(pieces: Iterable[bytes | memoryview | str]) -> Iterator[bytes]:
    """Join small pieces into chunks of about CHUNK_BYTES (one row per write is too slow)."""
    buffer = bytearray()
    for piece in pieces:
        buffer += piece.encode() if isinstance(piece, str) else piece
        if len(buffer) >= CHUNK_BYTES:
            yield bytes(buffer)
            buffer.clear()
    if buffer:
        yield bytes(buffer)


def portable_chunks(*, table: Table, queryset: QuerySet) -> Iterator[bytes]:
    """The CSV of ``queryset`` formatted in Python, header first.

    The query is compiled at once, so that a mistake in it is raised here
    rather than after the download has started.
    """
    rows = _annotated(queryset, table, for_copy=False)
    rows.query.sql_with_params()
    line = row_formatter(table.columns)
    lines = (line(row) for row in rows.iterator(chunk_size=FETCH_ROWS))
    return _batched(_lines(header_line(table.columns), lines))


def _lines(header: str, lines: Iterable[str]) -> Iterator[str]:
    yield header
    yield from lines


def copy_sql(*, table: Table, queryset: QuerySet) -> tuple[str, tuple]:
    """The COPY statement and its parameters for ``queryset`` (PostgreSQL)."""
    sql, params = _annotated(queryset, table, for_copy=True).query.sql_with_params()
    return f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", tuple(params)


def copy_chunks(*, table: Table, queryset: QuerySet) -> Iterator[bytes]:
    """The CSV of ``queryset`` written by PostgreSQL's COPY, header first."""
    connection = connections[queryset.db]
    statement, params = copy_sql(table=table, queryset=queryset)
    pieces = _copy_pieces(table, queryset, connection, statement, params)
    return _batched(_prefixed(header_line(table.columns).encode(), pieces))


def _prefixed(first: bytes, rest: Iterable[bytes | memoryview]) -> Iterator[bytes | memoryview]:
    yield first
    yield from rest


def _copy_pieces(table, queryset, connection, statement, params) -> Iterator[memoryview]:
    # One transaction: the pseudonym mapping lives exactly as long as the export.
    with transaction.atomic(using=queryset.db), connection.cursor() as cursor:
        # The COPY runs as long as the download: no statement time-out for
        # this transaction (DATABASE_STATEMENT_TIMEOUT guards everything else).
        cursor.execute("SET LOCAL statement_timeout = 0")
        if table.pseudonym_columns:
            player_path = _player_path(table)
            ids = queryset.order_by().values_list(player_path, flat=True).distinct()
            load_mapping(connection=connection, player_ids=ids.iterator(chunk_size=5000))
        with cursor.cursor.copy(statement, params or None) as copy:
            yield from copy


def _player_path(table: Table) -> str:
    sources = {column.source for column in table.pseudonym_columns}
    if len(sources) != 1:  # pragma: no cover - one pseudonym column per table
        raise ValueError(f"table {table.name} must have exactly one pseudonym column")
    source = sources.pop()
    assert isinstance(source, str)  # noqa: S101 - pseudonyms read a plain id column
    return source


def supports_copy(queryset: QuerySet) -> bool:
    return connections[queryset.db].vendor == "postgresql"


def csv_chunks(*, table: Table, queryset: QuerySet, fast: bool | None = None) -> Iterator[bytes]:
    """The table's CSV by the COPY path on PostgreSQL (unless ``fast`` is false), else portably."""
    use_copy = supports_copy(queryset) if fast is None else fast
    if use_copy:
        return copy_chunks(table=table, queryset=queryset)
    return portable_chunks(table=table, queryset=queryset)


def failure_line(message: str) -> bytes:
    text = " ".join(message.split()) or "unknown error"
    return f"{FAILURE_MARKER},{text.replace(',', ';')}\n".encode()


def guarded(chunks: Iterable[bytes], *, what: str) -> Generator[bytes, None, None]:
    """``chunks``, ending with a marker line and :class:`ExportFailed` if they fail."""
    written = 0
    try:
        for chunk in chunks:
            written += len(chunk)
            yield chunk
    except GeneratorExit:
        raise
    except Exception as exc:
        logger.exception("export of %s failed after %d bytes", what, written)
        # Chunks always end with a whole line, so the marker starts a line of its own.
        yield failure_line(
            f"the export of {what} failed after {written} bytes and is incomplete "
            f"({type(exc).__name__}); download it again"
        )
        raise ExportFailed(f"export of {what} failed after {written} bytes") from exc


def started(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """``chunks`` with the first one already read.

    Reading it runs the export's query (the first chunk holds rows, not only the
    header) and takes its locks now: a database that cannot answer, or a table
    locked for longer than ``lock_timeout``, then fails the request before a
    response has begun (503), instead of breaking off a download that began 200.
    """
    iterator = iter(chunks)
    try:
        first = next(iterator)
    except StopIteration:
        return iter(())

    def rest() -> Iterator[bytes]:
        yield first
        yield from iterator

    return rest()


def gzipped(chunks: Iterable[bytes], *, level: int = 6) -> Generator[bytes, None, None]:
    """``chunks`` as one gzip stream; a failure leaves the stream without its trailer."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, 31)
    try:
        for chunk in chunks:
            compressed = compressor.compress(chunk)
            if compressed:
                yield compressed
    except GeneratorExit:
        raise
    except BaseException:
        # Push out what was written so far, marker line included, but no trailer.
        yield compressor.flush(zlib.Z_SYNC_FLUSH)
        raise
    yield compressor.flush()
