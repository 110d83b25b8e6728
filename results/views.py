"""The comparison pages: people against the planar decoders (views call a selector, render)."""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from results import comparison


@require_safe
def compare(request: HttpRequest) -> HttpResponse:
    """Per (L, p, d): people's success rate beside each decoder's on the same boards."""
    groups = [
        {"group": group, "games": comparison.comparison_games(key=group.key)}
        for group in comparison.comparison_groups()
    ]
    return render(
        request,
        "results/compare.html",
        {
            "page": "compare",
            "groups": groups,
            "listed": comparison.GAMES_LISTED,
        },
    )


@require_safe
def compare_game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """One person's planar game and the decoders' outcomes on its board."""
    row = comparison.comparison_game(game_id=game_id)
    if row is None:
        raise Http404("no person's ended planar game with this id is research data")
    return render(request, "results/compare_game.html", {"page": "compare", "row": row})
