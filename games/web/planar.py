"""How the pages name a planar game: its code's parameters and its logical outcome.

My games lists every game with the same columns; a planar game's row names its
family, d and p instead of a variant, and says how the board ended.
"""

from __future__ import annotations

from typing import Any

from games.engine.families import kinds
from games.models import Game
from games.selectors import TIMES


def planar_rules_label(
    *, size: int, modulus: int | None, error_rate: float | None, with_size: bool = False
) -> str:
    """``Planar code, d = 10, p = 0.05`` (and the board, L by L, when asked)."""
    rate = f"{error_rate:g}" if error_rate is not None else "?"
    label = f"Planar code, d = {modulus}, p = {rate}"
    return f"{label}, {size} {TIMES} {size}" if with_size else label


def planar_status_text(*, status: str, failed: bool | None, daily: bool) -> str:
    """A planar game's status on My games: how it ended, and whether it was the day's board."""
    if status == Game.Status.FINISHED:
        text = "finished: a logical error" if failed else "finished: no logical error"
    else:
        text = str(status)
    return f"{text} · daily planar board" if daily else text


def label_planar_rows(rows: list[dict[str, Any]]) -> None:
    """Name the planar games among My games' rows (one query for all of them).

    The planar games are those whose kind has no groups (``FamilyKind.grouped``):
    they are judged by their logical outcome, not by a score. A planar row's
    ``variant_label`` names the code, its ``status`` the outcome; its
    ``daily_date`` is cleared, since the day's page is the original challenge's.
    """
    if not rows:
        return
    ungrouped = [kind.stored for kind in kinds() if not kind.grouped]
    columns = {
        str(pk): (modulus, error_rate, failed)
        for pk, modulus, error_rate, failed in Game.objects.filter(
            pk__in=[row["id"] for row in rows], family__in=ungrouped
        ).values_list("pk", "modulus", "error_rate", "logical_failure")
    }
    for row in rows:
        if row["id"] not in columns:
            continue
        modulus, error_rate, failed = columns[row["id"]]
        row["variant_label"] = planar_rules_label(
            size=row["size"], modulus=modulus, error_rate=error_rate
        )
        row["status"] = planar_status_text(
            status=row["status"], failed=failed, daily=row.get("daily_date") is not None
        )
        row["daily_date"] = None
