"""One-liners that load an export into pandas or R with the codebook's types.

``docs/research-data.md`` lists them for every table (a test keeps the two
the same). The tests run the pandas ones against a live export; the R ones
are checked against the codebook and a live export's header (R itself is not
part of the test tooling).
"""

from __future__ import annotations

from core.research import Table
from research.exports.columns import ColumnType

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


# R's classes for ``read.csv(colClasses = ...)``. R's "integer" is 32-bit, so
# whole numbers are read as "numeric" (a double holds every id and count
# exactly, up to 2^53); the times are read as text and converted by a second
# line (``as.POSIXct`` needs the ISO 8601 format spelled out).
R_CLASSES: dict[ColumnType, str] = {
    ColumnType.INTEGER: "numeric",
    ColumnType.FLOAT: "numeric",
    ColumnType.STRING: "character",
    ColumnType.BOOLEAN: "logical",
    ColumnType.DATETIME: "character",
    ColumnType.UUID: "character",
    ColumnType.PSEUDONYM: "character",
}
# Whole numbers of up to 64 bits, which a double does not hold exactly: read as
# text (``bit64::as.integer64`` converts them).
R_WIDE_INTEGERS = frozenset({"seed", "sweep_seed"})
R_TIME_FORMAT = "%Y-%m-%dT%H:%M:%OSZ"


def r_col_classes(table: Table) -> dict[str, str]:
    """``colClasses =`` for R's ``read.csv``, column by column."""
    return {
        column.name: "character"
        if column.type is ColumnType.INTEGER and column.name in R_WIDE_INTEGERS
        else R_CLASSES[column.type]
        for column in table.columns
    }


def _r_vector(values: dict[str, str] | list[str]) -> str:
    if isinstance(values, dict):
        return "c(" + ", ".join(f'"{name}" = "{value}"' for name, value in values.items()) + ")"
    return "c(" + ", ".join(f'"{value}"' for value in values) + ")"


def r_csv_lines(table: Table, *, url: str = "url", name: str = "d") -> list[str]:
    """``read.csv(...)`` of the table's CSV with the codebook's types, then its times as UTC."""
    lines = [
        f"{name} <- read.csv({url}, colClasses = {_r_vector(r_col_classes(table))}, "
        'na.strings = "")'
    ]
    dates = pandas_dates(table)
    if dates:
        columns = _r_vector(dates)
        lines.append(
            f"{name}[{columns}] <- lapply({name}[{columns}], as.POSIXct, "
            f'format = "{R_TIME_FORMAT}", tz = "UTC")'
        )
    return lines
