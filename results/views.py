"""The comparison pages: people against the planar decoders (views call a selector, render)."""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from core.sessions import PLAYER_SESSION_KEY
from results import comparison
from results.comparison_pictures import correction_pictures


def _viewer(request: HttpRequest) -> uuid.UUID | None:
    """The player of this browser's session, if any (their own games are marked)."""
    value = request.session.get(PLAYER_SESSION_KEY) if hasattr(request, "session") else None
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None


@require_safe
def compare(request: HttpRequest) -> HttpResponse:
    """Per (L, p, d): people's success rate beside each decoder's on the same boards."""
    groups = [
        {"group": group, "games": comparison.comparison_games(key=group.key)}
        for group in comparison.comparison_groups()
    ]
    viewer = _viewer(request)
    return render(
        request,
        "results/compare.html",
        {
            "page": "compare",
            "groups": groups,
            "listed": comparison.GAMES_LISTED,
            "viewer": viewer,
            "mine": comparison.player_compared_games(player_id=viewer) if viewer else [],
        },
    )


@require_safe
def compare_game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """One person's planar game and the decoders' outcomes on its board."""
    row = comparison.comparison_game(game_id=game_id)
    if row is None:
        # Not a person's ended planar game that is research data: say why, with a way on.
        return render(request, "results/compare_missing.html", {"page": "compare"}, status=404)
    return render(
        request,
        "results/compare_game.html",
        {
            "page": "compare",
            "row": row,
            "mine": row.player_id == _viewer(request),
            "pictures": correction_pictures(row=row),
        },
    )
