"""Columns of the research exports: how a cell is written.

A column is declared once (``core.research.Column``, in the research tables
of the app that owns its rows), with its meaning, type, unit and allowed
values. Everything else derives from that declaration: the ORM expression that reads
it, the text the portable path writes for it (Python), the SQL that makes
PostgreSQL's ``COPY ... TO STDOUT`` write exactly the same text, and its entry
in the codebook.

Cell text, the same on every path:

* integers and UUIDs as PostgreSQL writes them;
* floats as the shortest text that reads back as the same double (PostgreSQL's
  output: ``6`` not ``6.0``, ``1e-05``, ``NaN``);
* booleans as ``true`` / ``false``;
* times as ISO 8601 in UTC with microseconds: ``2026-11-23T07:46:33.123456Z``;
* an empty cell means "no value" (NULL and the empty string are not told
  apart, so that the two paths cannot differ on it);
* a cell holding a comma, a double quote or a line break is quoted as
  RFC 4180 says (and as PostgreSQL's CSV format does);
* a text cell that a spreadsheet would run as a formula (one starting with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return: a player's note
  or a save file's comment) gets a leading single quote, as OWASP's advice
  on CSV injection says. Only text columns: numbers such as ``-3`` stay
  numbers. The play API and the database keep the raw text.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.db.models import CharField, Expression, F, Func, Value
from django.db.models.functions import NullIf

from core.pseudonyms import pseudonym
from core.research import Column, ColumnType

TYPE_MEANINGS: dict[ColumnType, str] = {
    ColumnType.INTEGER: "a whole number, e.g. 42",
    ColumnType.FLOAT: "a double-precision number, shortest exact text, e.g. 6 or 5.999999999999999",
    ColumnType.STRING: (
        "text (UTF-8); quoted when it holds a comma, a quote or a line break; a text "
        "starting with =, +, -, @, a tab or a carriage return is written with a leading ' "
        "so that spreadsheets do not run it as a formula (remove that one quote to get "
        "the raw text)"
    ),
    ColumnType.BOOLEAN: "true or false",
    ColumnType.DATETIME: (
        "a UTC time in ISO 8601 with microseconds, e.g. 2026-11-23T07:46:33.123456Z"
    ),
    ColumnType.UUID: "a UUID in lowercase hex with hyphens",
    ColumnType.PSEUDONYM: "a player pseudonym: 24 lowercase hex characters, stable across exports",
}

# The portable path needs this cut-off to write floats as PostgreSQL does:
# PostgreSQL switches to exponent notation from 1e15 (Python only from 1e16).
_PG_EXPONENT_FROM = 1e15


def format_float(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    text = repr(value)
    if "e" not in text and abs(value) >= _PG_EXPONENT_FROM:
        # Same shortest digits, in exponent notation: 1e+15, 1.2345678901234565e+15.
        return format(Decimal(text).normalize(), "e").replace("E", "e")
    if text.endswith(".0"):
        text = text[:-2]
    return text


def format_datetime(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_NEEDS_QUOTES = frozenset(',"\n\r')
# First characters that make spreadsheets read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FORMULA_GUARD = "'"


def format_string(value: str) -> str:
    if value.startswith(FORMULA_STARTS):
        value = FORMULA_GUARD + value
    if _NEEDS_QUOTES.isdisjoint(value):
        return value
    return '"' + value.replace('"', '""') + '"'


def format_boolean(value: bool) -> str:
    return "true" if value else "false"


def format_uuid(value: uuid.UUID | str) -> str:
    return str(value) if isinstance(value, uuid.UUID) else str(uuid.UUID(str(value)))


def format_pseudonym(value: uuid.UUID | str) -> str:
    return pseudonym(value)


FORMATTERS: dict[ColumnType, Callable[[Any], str]] = {
    ColumnType.INTEGER: str,
    ColumnType.FLOAT: format_float,
    ColumnType.STRING: format_string,
    ColumnType.BOOLEAN: format_boolean,
    ColumnType.DATETIME: format_datetime,
    ColumnType.UUID: format_uuid,
    ColumnType.PSEUDONYM: format_pseudonym,
}


class _UtcIsoText(Func):
    """PostgreSQL: a timestamptz as the text ``format_datetime`` gives."""

    template = """to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
    output_field = CharField()


class _FormulaGuarded(Func):
    """PostgreSQL: the text with a leading quote when it starts like a formula."""

    # One reference to the expression, so that its SQL parameters are passed
    # once: a regular expression anchored at the start of the text (\t and \r
    # are a tab and a carriage return); the replacement is ' and the match.
    template = r"regexp_replace(%(expressions)s, '^([-=+@\t\r])', '''\1')"
    output_field = CharField()


class _BooleanText(Func):
    """PostgreSQL: true, false or an empty cell for NULL.

    A simple CASE names the expression once, so that the parameters of an
    expression that has some (an EXISTS subquery, say) are passed once.
    """

    template = "CASE (%(expressions)s) WHEN true THEN 'true' WHEN false THEN 'false' END"
    output_field = CharField()


class _PseudonymText(Func):
    """PostgreSQL: the pseudonym of a player id, from the mapping table of the export.

    The mapping (``research_pseudonym``, see ``core.pseudonyms``) is filled in
    Python, with the very function the portable path uses, for the players of
    the export only, so that both paths give the same pseudonyms and the key
    never reaches the database.
    """

    template = "(SELECT m.pseudonym FROM research_pseudonym m WHERE m.player_id = %(expressions)s)"
    output_field = CharField()


def copy_expression(column: Column) -> Expression | F:
    """The SQL whose text PostgreSQL's COPY writes exactly as ``formatter`` would."""
    expression = column.expression()
    if column.type is ColumnType.STRING:
        # NULL and '' both become an empty, unquoted cell (COPY would write '' as "").
        return NullIf(_FormulaGuarded(expression), Value(""), output_field=CharField())
    if column.type is ColumnType.BOOLEAN:
        return _BooleanText(expression, output_field=CharField())
    if column.type is ColumnType.DATETIME:
        return _UtcIsoText(expression)
    if column.type is ColumnType.PSEUDONYM:
        return _PseudonymText(expression)
    return expression


def formatter(column: Column) -> Callable[[Any], str]:
    """The function writing a cell of ``column`` as the portable path does."""
    return FORMATTERS[column.type]


def row_formatter(columns: tuple[Column, ...]) -> Callable[[tuple[Any, ...]], str]:
    """A function writing one fetched row as one CSV line (with its newline)."""
    formatters = tuple(formatter(column) for column in columns)

    def line(row: tuple[Any, ...]) -> str:
        return (
            ",".join(
                "" if value is None else fmt(value)
                for fmt, value in zip(formatters, row, strict=True)
            )
            + "\n"
        )

    return line


def header_line(columns: tuple[Column, ...]) -> str:
    return ",".join(format_string(column.name) for column in columns) + "\n"

