"""The comparison's section of a player's My games page: their planar games beside the decoders.

Handed to the games app through ``ResultsConfig.my_games_sections`` (see
``games.sections``): games never imports the results app.
"""

from __future__ import annotations

from django.urls import reverse

from games.models import Player
from games.sections import MyGamesSection, SectionRow
from results.comparison import GameRow, player_compared_games


def _outcome(*, failed: bool, abandoned: bool) -> str:
    return "Abandoned (failed)" if abandoned else ("Failed" if failed else "Succeeded")


def _decoders(row: GameRow) -> str:
    if not row.bots:
        return "not played yet"
    return ", ".join(
        f"{bot.decoder} {_outcome(failed=bot.failed, abandoned=bot.abandoned).lower()}"
        for bot in row.bots
    )


def compared_section(*, player: Player) -> MyGamesSection:
    """The player's ended planar games that the decoders play, each linking to its comparison."""
    rows: list[SectionRow] = [
        {
            "cells": [
                row.ended_at.date().isoformat() if hasattr(row.ended_at, "date") else "\u2013",
                row.key.label,
                _outcome(failed=row.failed, abandoned=row.abandoned),
                "\u2013" if row.class_odds is None else f"{row.class_odds:.2f}",
                _decoders(row),
            ],
            "link": {"url": reverse("results:compare-game", args=[row.game_id]),
                     "text": "Compare"},
        }
        for row in player_compared_games(player_id=player.pk)
    ]
    return {
        "key": "compare",
        "title": "Against the decoders",
        "caption": "Your ended planar games (research data), each played again by the decoders "
                   "on the same board; newest first.",
        "columns": ["Date", "Board", "Your outcome", "Class odds", "Decoders"],
        "rows": rows,
        "empty": "No planar game of yours has been compared with the decoders yet (only games "
                 "played with research consent are).",
        "more": {"url": reverse("results:compare"), "text": "See people against the decoders"},
    }
