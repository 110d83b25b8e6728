"""The puzzles' section of a player's My games page: their attempts, newest first.

Handed to the games app through ``PuzzlesConfig.my_games_sections`` (see
``games.sections``): games never imports the puzzles app.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.models import Player
from games.sections import MyGamesSection, SectionRow
from puzzles.engines.decodoku.platform import KIND as DECODOKU
from puzzles.engines.registry import KINDS
from puzzles.selectors import (
    attempt_list_for_player,
    attempt_public_view,
    puzzle_bests_for_player,
)

# As for games: the newest attempts only, a page stays short.
MY_ATTEMPTS_LIMIT = 200


def _duration(seconds: Any) -> str:
    if not isinstance(seconds, (int, float)):
        return "\u2013"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def _attempt_page(*, kind: str, number: int | None) -> str:
    """The page that plays an attempt of ``kind`` (a published Decodoku puzzle's own page)."""
    if kind == "2mino":
        return reverse("puzzles:twomino")
    if kind == DECODOKU:
        if number is not None:
            return reverse("puzzles:decodoku-play", args=[number])
        return reverse("puzzles:decodoku-new")
    return reverse("puzzles:play")


def attempts_section(*, player: Player) -> MyGamesSection:
    """The player's puzzle attempts as a My games table."""
    rows: list[SectionRow] = []
    for attempt in attempt_list_for_player(player=player)[:MY_ATTEMPTS_LIMIT]:
        view = attempt_public_view(attempt=attempt, detail=False)
        kind = KINDS.get(view["kind"])
        size = view["size"]
        page = _attempt_page(kind=str(view["kind"]), number=attempt.puzzle.number)
        rows.append(
            {
                "cells": [
                    str(view["started_at"])[:10],
                    kind.title if kind is not None else str(view["kind"]),
                    f"{size}\u00a0\u00d7\u00a0{size}",
                    str(view["difficulty"]).capitalize() or "\u2013",
                    str(view["status"]).capitalize(),
                    str(view["step"]),
                    _duration(view["solve_seconds"]),
                ],
                # The puzzle pages open the attempt named after # in their address.
                "link": {
                    "url": f"{page}#{view['id']}",
                    "text": "Resume" if view["status"] == "active" else "Open",
                },
            }
        )
    return {
        "key": "puzzles",
        "title": "Puzzles",
        "caption": "Your KenKen, Futoshiki, 2mino and Decodoku puzzle attempts, newest first.",
        "columns": ["Date", "Puzzle", "Size", "Difficulty", "Status", "Actions", "Solved in"],
        "rows": rows,
        "empty": "No puzzle attempts yet.",
        "more": {"url": reverse("puzzles:play"), "text": "Play a puzzle"},
    }


def bests_section(*, player: Player) -> MyGamesSection:
    """The player's puzzle bests: for each kind, size and level, the number solved and the
    fastest solve (to show above the attempts table)."""
    rows: list[SectionRow] = []
    for best in puzzle_bests_for_player(player=player):
        kind = KINDS.get(best["kind"])
        size = best["size"]
        rows.append(
            {
                "cells": [
                    kind.title if kind is not None else str(best["kind"]),
                    f"{size}\u00a0\u00d7\u00a0{size}",
                    str(best["level"]).capitalize() or "\u2013",
                    str(best["solved"]),
                    _duration(best["fastest_seconds"]),
                ],
                "link": None,
            }
        )
    return {
        "key": "puzzle-bests",
        "title": "Puzzle bests",
        "caption": "Your solved puzzles by kind, size and level: how many, and the fastest.",
        "columns": ["Puzzle", "Size", "Level", "Solved", "Fastest"],
        "rows": rows,
        "empty": "No puzzle solved yet.",
        "more": {"url": reverse("puzzles:play"), "text": "Play a puzzle"},
    }
