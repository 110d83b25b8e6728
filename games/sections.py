"""Sections other apps add to My games, without the games app importing them.

An app whose records belong on a player's My games page (the puzzles app: its
bests and attempts) gives its ``AppConfig`` a method ``my_games_sections(player)``
returning a list of :class:`MyGamesSection` (empty for nothing to show). The games
app asks every installed app in turn, the same way ``core.context_processors``
asks for ``page_context``: the dependency points from the contributing app to
games, never back.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.apps import apps

from games.models import Player


class SectionLink(TypedDict):
    url: str
    text: str


class SectionRow(TypedDict):
    cells: list[str]
    link: SectionLink | None


class MyGamesSection(TypedDict):
    """One table on My games: a title, its column names and a row per record."""

    key: str
    title: str
    caption: str
    columns: list[str]
    rows: list[SectionRow]
    empty: str
    more: SectionLink | None


def my_games_sections(*, player: Player) -> list[MyGamesSection]:
    """Every section the installed apps add for ``player``, in the order of INSTALLED_APPS."""
    sections: list[MyGamesSection] = []
    for config in apps.get_app_configs():
        contribute = getattr(config, "my_games_sections", None)
        if contribute is not None:
            sections.extend(contribute(player))
    return sections


def my_games_tables(*, player: Player) -> list[dict[str, Any]]:
    """The sections ready for the page: each cell paired with its column's name."""
    return [
        {
            **section,
            "rows": [
                {
                    "cells": list(zip(section["columns"], row["cells"], strict=True)),
                    "link": row["link"],
                }
                for row in section["rows"]
            ],
        }
        for section in my_games_sections(player=player)
    ]
