"""The levels the puzzle menus offer: those the generator was measured to deliver.

``puzzles/data/offered_levels.json`` holds, per kind, size and level, how many of
20 fresh seeds gave a puzzle of that level within 4 CPU seconds; a level is
offered when 19 did. ``python -m bench.offered_levels`` measures it again
(see docs/puzzles.md, "Levels offered"). Nothing here imports Django.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, TypedDict

from puzzles.engines.grading import LEVEL_NAMES, ladder_kind
from puzzles.engines.registry import KINDS

DATA_PATH = Path(__file__).resolve().parent / "data" / "offered_levels.json"
ANY = "any"  # a request for no level in particular


class OfferedSize(TypedDict):
    kind: str
    size: int
    levels: list[str]
    any: bool


def menu_levels(kind: str) -> tuple[str, ...]:
    """The levels a kind's menu may offer, easiest first: today's ladder for the
    Latin-square kinds (older names are still accepted by the API, not offered)."""
    return tuple(LEVEL_NAMES.get(ladder_kind(kind), KINDS[kind].difficulties))


@cache
def _table() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA_PATH.read_text())
    return loaded


def measured_cells() -> list[dict[str, Any]]:
    """Every measured (kind, size, level) with its figures, as the bench script wrote it."""
    return list(_table()["cells"])


def offered_levels(*, kind: str | None = None) -> list[OfferedSize]:
    """Per kind and size with something offered: its offered levels, easiest first, and
    whether a puzzle of no level in particular (``any``) is. A kind whose engine version
    is not the one measured offers nothing until it is measured again."""
    table = _table()
    versions: dict[str, int] = table.get("engine_versions", {})
    found: dict[tuple[str, int], set[str]] = {}
    for cell in table["cells"]:
        name = cell["kind"]
        if name not in KINDS or versions.get(name) != KINDS[name].engine_version:
            continue
        if kind is not None and name != kind:
            continue
        levels = found.setdefault((name, cell["size"]), set())
        if cell["offered"]:
            levels.add(cell["level"])
    rows: list[OfferedSize] = []
    for (name, size), levels in sorted(found.items()):
        named = [level for level in menu_levels(name) if level in levels]
        if named or ANY in levels:
            rows.append({"kind": name, "size": size, "levels": named, "any": ANY in levels})
    return rows


def is_offered(*, kind: str, size: int, level: str | None) -> bool:
    """Whether the menus offer this level (None or "": any) of this kind and size."""
    wanted = level or ANY
    for row in offered_levels(kind=kind):
        if row["size"] == size:
            return row["any"] if wanted == ANY else wanted in row["levels"]
    return False
