"""One-liners that load an export into pandas with the codebook's types.

``docs/research-data.md`` lists them for every table (a test keeps the two
the same), and the tests run them against a live export.
"""

from __future__ import annotations

from research.exports.columns import ColumnType
from research.exports.tables import Table

# pandas dtypes of the codebook's types; the nullable ones, since a cell may be empty.
PANDAS_DTYPES: dict[ColumnType, str] = {
    ColumnType.INTEGER: "Int64",
    ColumnType.FLOAT: "float64",
    ColumnType.STRING: "string",
    ColumnType.BOOLEAN: "boolean",
    ColumnType.UUID: "string",
    ColumnType.PSEUDONYM: "string",
}


def pandas_dtypes(table: Table) -> dict[str, str]:
    """``dtype=`` for ``pd.read_csv``: every column but the times (see ``pandas_dates``)."""
    return {column.name: PANDAS_DTYPES[column.type] for column in table.columns
            if column.type is not ColumnType.DATETIME}


def pandas_dates(table: Table) -> list[str]:
    """``parse_dates=`` for ``pd.read_csv``: the time columns (ISO 8601, UTC)."""
    return [column.name for column in table.columns if column.type is ColumnType.DATETIME]


def pandas_csv_line(table: Table, *, url: str = "url") -> str:
    """``pd.read_csv(...)`` of the table's CSV with the codebook's types."""
    line = f"pd.read_csv({url}, dtype={pandas_dtypes(table)!r}"
    dates = pandas_dates(table)
    if dates:
        line += f", parse_dates={dates!r}"
    return line + ")"


def pandas_parquet_line(*, url: str = "url") -> str:
    return f"pd.read_parquet({url})"
