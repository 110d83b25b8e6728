"""The Decodoku puzzle pages: the published list, the play page, a puzzle's comparison.

Thin: the list and the comparison read ``puzzles.decodoku_selectors``; the
play page only renders a template and plays through the puzzles API.
"""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from core.sessions import PLAYER_SESSION_KEY
from games.errors import NotFound
from games.models import Player
from games.selectors import player_by_id
from puzzles.decodoku_selectors import (
    comparison_view,
    decodoku_puzzle_get,
    decodoku_puzzle_of_attempt,
    published_list_view,
)
from puzzles.engines.decodoku.published import published_puzzles


def _player(request: HttpRequest) -> Player | None:
    player_id = request.session.get(PLAYER_SESSION_KEY)
    return player_by_id(player_id=player_id) if player_id else None


@require_safe
@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    """The published puzzles (solved or not by this player) and a new generated one."""
    rows = published_list_view(player=_player(request))
    return render(
        request,
        "puzzles/decodoku_list.html",
        {"page": "puzzles", "rows": rows, "solved": sum(r["solved"] for r in rows)},
    )


def _play(request: HttpRequest, *, number: int | None) -> HttpResponse:
    return render(
        request,
        "puzzles/decodoku_play.html",
        {"page": "puzzles", "number": number},
    )


@require_safe
@ensure_csrf_cookie
def play_published(request: HttpRequest, number: int) -> HttpResponse:
    if not any(number in p.numbers for p in published_puzzles()):
        raise Http404("No such published puzzle.")
    return _play(request, number=number)


@require_safe
@ensure_csrf_cookie
def play_generated(request: HttpRequest) -> HttpResponse:
    return _play(request, number=None)


@require_safe
def compare(request: HttpRequest, puzzle_id: uuid.UUID) -> HttpResponse:
    """Players' answers on one puzzle against the bots'."""
    try:
        puzzle = decodoku_puzzle_get(puzzle_id=puzzle_id)
    except NotFound:
        raise Http404("No such decodoku puzzle.") from None
    view = comparison_view(puzzle=puzzle)
    return render(request, "puzzles/decodoku_compare.html", {"page": "puzzles", **view})


@require_safe
def compare_attempt(request: HttpRequest, attempt_id: uuid.UUID) -> HttpResponse:
    """The comparison of an ended attempt's puzzle (the play page links here)."""
    try:
        puzzle = decodoku_puzzle_of_attempt(attempt_id=attempt_id)
    except NotFound:
        raise Http404("No such ended decodoku attempt.") from None
    return redirect("puzzles:decodoku-compare", puzzle_id=puzzle.pk)
