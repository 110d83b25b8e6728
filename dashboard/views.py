"""The dashboard page and its data endpoints. Views only parse, call a selector and render."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from core.api import error_body
from core.errors import InvalidInput
from core.sessions import PLAYER_SESSION_KEY
from games.models import Game, Player
from games.selectors import player_by_id

from . import selectors, services
from .filters import Filters, parse_filters


def _player(request: HttpRequest) -> Player | None:
    player_id = request.session.get(PLAYER_SESSION_KEY)
    return player_by_id(player_id=player_id) if player_id else None


def _demo_note() -> dict[str, int] | None:
    """The demo banner's figures: the demo's bot games and the players' games beside them."""
    demo = selectors.demo_data()
    if demo is None:
        return None
    humans = Game.objects.research_data().human().finished().count()
    return {"games": demo.games, "human_games": humans}


def _refresh_without_beat() -> None:
    """Without a broker no beat refreshes the aggregates: a request does it when they are old."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        services.aggregates_refresh_if_stale()


def _bad_request(exc: InvalidInput) -> JsonResponse:
    return JsonResponse(error_body(exc.code, exc.message), status=400)


@require_safe
@ensure_csrf_cookie
def page(request: HttpRequest) -> HttpResponse:
    error: dict[str, str] | None = None
    try:
        filters = parse_filters(request.GET)
    except InvalidInput as exc:
        # The page, not the API's error body: the message beside the filter at fault,
        # and the plots over every game until the filters are corrected.
        error = {"field": str(exc.extra.get("field", "")), "message": exc.message}
        filters = Filters()
    _refresh_without_beat()
    context = {
        "page": "dashboard",
        "filters": filters,
        "query": filters.as_query(),
        "choices": selectors.filter_choices(),
        "demo": _demo_note(),
        "query_string": urlencode(filters.as_query()),
        "plots": [
            {"number": number, "name": spec.name, "title": spec.title,
             "explanation": spec.explanation}
            for number, spec in enumerate(selectors.plot_specs(), start=1)
        ],
        "filter_error": error,
    }
    return render(
        request, "dashboard/dashboard.html", context, status=400 if error is not None else 200
    )


@require_safe
def data(request: HttpRequest, plot: str) -> HttpResponse:
    if selectors.plot_spec(name=plot) is None:
        return JsonResponse(error_body("not_found", f"There is no plot {plot!r}."), status=404)
    output = request.GET.get("format", "json")
    if output not in ("json", "csv"):
        return _bad_request(InvalidInput("format must be json or csv"))
    try:
        filters = parse_filters(request.GET)
    except InvalidInput as exc:
        return _bad_request(exc)
    _refresh_without_beat()
    if output == "csv":
        response = HttpResponse(
            selectors.plot_csv(name=plot, filters=filters), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="decodoku-{plot}.csv"'
        return response
    response = HttpResponse(
        selectors.plot_json(name=plot, filters=filters), content_type="application/json"
    )
    # As long as a refresh period: a finished game shows within a minute.
    response["Cache-Control"] = "public, max-age=20"
    return response


@require_safe
def mine(request: HttpRequest) -> HttpResponse:
    """The session player's own games under the filters, with their percentiles."""
    try:
        filters = parse_filters(request.GET)
    except InvalidInput as exc:
        return _bad_request(exc)
    _refresh_without_beat()
    response = JsonResponse(selectors.player_marks(player=_player(request), filters=filters))
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def players(request: HttpRequest) -> HttpResponse:
    """What players do: the latest strategy fit, its held-out scores and the learned decoder."""
    context = {"page": "players", **selectors.what_players_do()}
    return render(request, "dashboard/players.html", context)
