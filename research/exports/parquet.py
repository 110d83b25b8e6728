"""Writing an export table as Apache Parquet, streamed one row group at a time.

The rows are read as the portable CSV path reads them (a server-side cursor,
:data:`~research.exports.writer.FETCH_ROWS` at a time); each batch becomes one
row group written to a small in-memory sink whose bytes are handed on and
dropped at once, so memory stays constant whatever the size of the table.
The footer (the schema and where every row group starts) is written last:
a download cut short is not a readable Parquet file.

Types follow the codebook (``ColumnType``): integers as int64, floats as
float64, booleans as bool, times as timestamp[us, UTC], UUIDs and pseudonyms
as their text. Text cells hold the raw text, without the CSV's formula guard;
an empty text is null, as it is an empty cell in the CSV.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from django.db.models import QuerySet

from core.research import Table
from research.exports.columns import Column, ColumnType, format_pseudonym, format_uuid
from research.exports.writer import FETCH_ROWS, annotated_rows

ARROW_TYPES: dict[ColumnType, pa.DataType] = {
    ColumnType.INTEGER: pa.int64(),
    ColumnType.FLOAT: pa.float64(),
    ColumnType.STRING: pa.string(),
    ColumnType.BOOLEAN: pa.bool_(),
    ColumnType.DATETIME: pa.timestamp("us", tz="UTC"),
    ColumnType.UUID: pa.string(),
    ColumnType.PSEUDONYM: pa.string(),
}


def arrow_schema(table: Table) -> pa.Schema:
    return pa.schema(
        [pa.field(column.name, ARROW_TYPES[column.type], nullable=True) for column in table.columns]
    )


def _converter(column: Column) -> Any:
    if column.type is ColumnType.UUID:
        return format_uuid
    if column.type is ColumnType.PSEUDONYM:
        return format_pseudonym
    if column.type is ColumnType.STRING:
        return lambda value: value or None
    if column.type is ColumnType.FLOAT:
        return float
    return None


class _Sink(io.RawIOBase):
    """A write-only file whose bytes are taken out after every row group."""

    def __init__(self) -> None:
        super().__init__()
        self._buffer = bytearray()
        self._written = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        size = len(data)
        self._buffer += data
        self._written += size
        return size

    def tell(self) -> int:
        return self._written

    def take(self) -> bytes:
        data = bytes(self._buffer)
        self._buffer.clear()
        return data


def parquet_chunks(
    *, table: Table, queryset: QuerySet, rows_per_group: int = FETCH_ROWS
) -> Iterator[bytes]:
    """The Parquet file of ``queryset`` as chunks: one per row group, then the footer.

    The query is compiled at once, so that a mistake in it is raised here
    rather than after the download has started.
    """
    rows = annotated_rows(queryset, table)
    rows.query.sql_with_params()
    return _chunks(table, rows.iterator(chunk_size=FETCH_ROWS), rows_per_group)


def _chunks(table: Table, rows: Iterator[tuple[Any, ...]], rows_per_group: int) -> Iterator[bytes]:
    schema = arrow_schema(table)
    converters = [_converter(column) for column in table.columns]
    sink = _Sink()
    writer = pq.ParquetWriter(sink, schema, compression="snappy")
    try:
        batch: list[tuple[Any, ...]] = []
        wrote_any = False
        for row in rows:
            batch.append(row)
            if len(batch) >= rows_per_group:
                writer.write_table(_arrow_table(schema, converters, batch))
                wrote_any = True
                batch = []
                yield sink.take()
        if batch or not wrote_any:
            writer.write_table(_arrow_table(schema, converters, batch))
    finally:
        writer.close()
    yield sink.take()


def _arrow_table(
    schema: pa.Schema, converters: list[Any], batch: list[tuple[Any, ...]]
) -> pa.Table:
    arrays = []
    for index, (field, convert) in enumerate(zip(schema, converters, strict=True)):
        values = [row[index] for row in batch]
        if convert is not None:
            values = [None if value is None else convert(value) for value in values]
        arrays.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)
