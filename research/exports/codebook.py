"""The codebook: every export table and column, generated from the table declarations."""

from __future__ import annotations

from typing import Any

from core.research import Table
from research.exports.columns import TYPE_MEANINGS
from research.exports.filters import FILTER_HELP
from research.exports.tables import all_tables
from research.exports.writer import FAILURE_MARKER

CODEBOOK_VERSION = 1

CONVENTIONS = (
    "CSV as in RFC 4180: UTF-8 without a byte order mark, comma-separated, one header row, "
    "lines ending in LF; a cell holding a comma, a double quote or a line break is quoted.",
    "One value per cell. An empty cell means no value.",
    "Text cells that a spreadsheet would run as a formula (starting with =, +, -, @, a tab "
    "or a carriage return, e.g. a player's note '=1+1') are written with one leading "
    "single quote ('=1+1), as OWASP advises against CSV injection; strip that one quote to "
    "get the raw text, which the play API and the database keep. Numeric columns are never "
    "changed (-3 stays -3).",
    "Times are ISO 8601 in UTC with microseconds, e.g. 2026-11-23T07:46:33.123456Z.",
    "Booleans are true or false; floats are the shortest text that reads back as the same "
    "double (6, 0.1, 5.999999999999999).",
    "Rows come in a stable order (by row id where the table has one), so that 'after_id' "
    "pulls only the rows added since a previous download.",
    "Players appear only as pseudonyms: a keyed hash of the player id, the same in every "
    "export.",
    "What the exports hold: research data only. Human games played without research "
    "consent are never in any export, page or file of the research area (the consent text "
    "promises it; bot games need no consent). Games still being played are not in any "
    "export either (their boards, moves and save file would show what their player cannot "
    "see yet): every game-based table holds finished games only (status lost, abandoned or "
    "finished), so the status filter does not take active. Games a curator excluded and "
    "practice games (the groups were shown) are left out unless include_excluded / "
    "include_practice is set.",
    f"An export that fails part-way ends with a line starting with {FAILURE_MARKER} and the "
    "download is aborted: a file without that line and with a complete download is whole.",
)


def table_entry(table: Table) -> dict[str, Any]:
    return {
        "name": table.name,
        "title": table.title,
        "description": table.description,
        "row_id": next(
            (c.name for c in table.columns if c.source == table.row_id), None
        ) if table.row_id else None,
        "order": list(table.order_by),
        "filters": list(table.filter_names),
        "columns": [
            {
                "name": column.name,
                "type": column.type.value,
                "meaning": column.meaning,
                "unit": column.unit,
                "allowed_values": list(column.allowed),
                "values": column.values,
                "may_be_empty": column.nullable or column.type.value == "string",
            }
            for column in table.columns
        ],
    }


# What every game-based export holds, as the codebook states it (also in the JSON).
CONTENTS = {
    "games": "finished games only (status lost, abandoned or finished); active games never",
    "consent": "bot games, and human games played with research consent; human games "
    "played without research consent never",
    "optional": "games a curator excluded (include_excluded=1) and practice games "
    "(include_practice=1)",
}


def codebook() -> dict[str, Any]:
    """The whole codebook as plain data (served as JSON and rendered as HTML)."""
    return {
        "title": "Decodoku Lab research data: codebook",
        "codebook_version": CODEBOOK_VERSION,
        "contents": dict(CONTENTS),
        "conventions": list(CONVENTIONS),
        "types": {kind.value: meaning for kind, meaning in TYPE_MEANINGS.items()},
        "filters": dict(FILTER_HELP),
        "tables": [table_entry(table) for table in all_tables().values()],
    }
