"""The puzzle page: it only renders a template; the page plays through the API."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from puzzles.offered import menu_levels, offered_levels
from puzzles.selectors import kinds_view
from puzzles.stats import statistics_view


@require_safe
@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    # The menus offer, per size, the levels of each kind's own ladder that the generator
    # was measured to deliver (puzzles.offered; older names are still accepted by the API).
    kinds = [
        {**kind, "levels": list(menu_levels(kind["kind"])), "offered": _offered(kind)}
        for kind in kinds_view()
        if "entry" in kind["actions"]
    ]
    return render(
        request,
        "puzzles/play.html",
        {
            "page": "puzzles",
            "kinds": kinds,
            "kinds_data": kinds,
        },
    )


def _offered(kind: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Size (as text, a JSON key) -> {"levels": [...], "any": bool} of what is offered; a
    kind not measured on its engine version offers a puzzle of any level at every size."""
    offered = {
        str(row["size"]): {"levels": row["levels"], "any": row["any"]}
        for row in offered_levels(kind=str(kind["kind"]))
    }
    if not offered:
        sizes = range(kind["min_size"], kind["max_size"] + 1)
        offered = {str(size): {"levels": [], "any": True} for size in sizes}
    return offered


@require_safe
def stats(request: HttpRequest) -> HttpResponse:
    """Solve times, technique use of players against the solver's, error rates."""
    return render(
        request,
        "puzzles/stats.html",
        {
            "page": "puzzles",
            **statistics_view(),
        },
    )


@require_safe
@ensure_csrf_cookie
def twomino(request: HttpRequest) -> HttpResponse:
    """The 2mino page: the board, the sample board of every pair, the bars to draw."""
    kind = next(kind for kind in kinds_view() if kind["kind"] == "2mino")
    # Per size, the levels measured to come within the budget (puzzles.offered).
    offered = {str(row["size"]): row["levels"] for row in offered_levels(kind="2mino")}
    sizes = [int(size) for size, levels in offered.items() if levels]
    if not sizes:  # not measured on this engine version: every size and level
        sizes = list(range(kind["min_size"], kind["max_size"] + 1))
        offered = {str(size): list(kind["difficulties"]) for size in sizes}
    default = kind["default_size"] if kind["default_size"] in sizes else sizes[0]
    return render(
        request,
        "puzzles/twomino.html",
        {
            "page": "puzzles",
            "sizes": sizes,
            "default_size": default,
            "difficulties": offered[str(default)],
            "offered": offered,
        },
    )
