"""Page views. Each one only renders a template; the pages do the rest in the browser.

What every page needs (the import map, the consent text, whether the session
has a player) comes from the ``core.context_processors.page`` context
processor; a view passes only what is particular to its page.
"""

from __future__ import annotations

from datetime import date

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.errors import DomainError
from core.sessions import PLAYER_SESSION_KEY
from games.daily import DAILY_PLANAR_RULES
from games.daily import today as daily_today
from games.engine.rules import MAX_SIZE, MIN_SIZE
from games.errors import Conflict, ConsentChoiceRequired, DailyAlreadyPlayed, NotFound
from games.models import Game, Player
from games.names import DISPLAY_NAME_INPUT_MAX_LENGTH, DISPLAY_NAME_MAX_LENGTH
from games.sections import my_games_tables
from games.selectors import (
    TIMES,
    VARIANT_LABELS,
    daily_challenge_by_date,
    daily_days,
    daily_today_view,
    daily_view,
    player_by_id,
    player_by_recovery_code,
    player_games_view,
    share_text,
    shared_game_by_token,
    shared_game_view,
)
from games.services import player_set_display_name
from games.services.daily import daily_planar_start
from games.services.recovery import recovery_code_current, recovery_code_make
from games.share_image import render_share_card
from games.tokens import RECOVERY_INPUT_MAX_LENGTH
from games.web.planar import label_planar_rows, planar_rules_label

# Board sizes offered first in the menu: the original phone and tablet grids.
CLASSIC_SIZES = (7, 8)
DEFAULT_SIZE = 7

# The small decorative board of the home page, one text per row, 0 for an empty cell.
HERO_BOARD = ("03000", "07055", "00000", "20090", "80010")
HERO_CELLS = tuple(int(char) for row in HERO_BOARD for char in row)

# The session key under which My games keeps the player's current recovery code, so
# that the page shows it again (reloaded, or later) until the player makes a new one.
RECOVERY_SESSION_KEY = "games.recovery_code"
# Set by a restore with a recovery code; My games shows its confirmation once.
RESTORED_SESSION_KEY = "games.restored"


@require_safe
@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"page": "home", "hero_cells": HERO_CELLS})


@require_safe
@ensure_csrf_cookie
def tutorial(request: HttpRequest) -> HttpResponse:
    return render(request, "games/tutorial.html", {"page": "tutorial"})


@require_safe
@ensure_csrf_cookie
def consent(request: HttpRequest) -> HttpResponse:
    """The full wording of the research consent, with the question to answer or change."""
    return render(request, "games/consent_page.html", {"page": "consent"})


# The planar family on the play page: the board sizes L offered, the error rates p
# and the moduli d (2: the binary surface code; 10: the original game's numbers).
PLANAR_SIZES = tuple(range(3, 13))
PLANAR_DEFAULT_SIZE = 5
PLANAR_ERROR_RATES = ("0.02", "0.05", "0.08", "0.10", "0.12")
PLANAR_DEFAULT_ERROR_RATE = "0.05"
PLANAR_MODULI = (10, 2)
PLANAR_DEFAULT_MODULUS = 10


@require_safe
@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    other_sizes = [n for n in range(MIN_SIZE, MAX_SIZE + 1) if n not in CLASSIC_SIZES]
    return render(
        request,
        "games/play.html",
        {
            "page": "play",
            "classic_sizes": CLASSIC_SIZES,
            "other_sizes": other_sizes,
            "default_size": DEFAULT_SIZE,
            "planar_sizes": PLANAR_SIZES,
            "planar_default_size": PLANAR_DEFAULT_SIZE,
            "planar_error_rates": PLANAR_ERROR_RATES,
            "planar_default_error_rate": PLANAR_DEFAULT_ERROR_RATE,
            "planar_moduli": PLANAR_MODULI,
            "planar_default_modulus": PLANAR_DEFAULT_MODULUS,
            "daily_planar": DAILY_PLANAR_RULES,
        },
    )


@require_POST
def play_daily_planar(request: HttpRequest) -> HttpResponse:
    """Start (or go back to) the player's game of today's planar board, on the play page.

    The page makes sure the browser has a player who answered the research
    question first; without one, the play page asks for it. A player who
    already has today's board goes to that game.
    """
    player = _player(request)
    if player is None:
        return redirect("web:play")
    try:
        game = daily_planar_start(
            player=player,
            source=Game.Source.WEB,
            client_info={"user_agent": request.META.get("HTTP_USER_AGENT", ""), "auth": "session"},
        )
        game_id = str(game.pk)
    except DailyAlreadyPlayed as exc:
        game_id = str(exc.extra.get("game_id", ""))
    except ConsentChoiceRequired:
        # A page from before the question was asked: the play page asks it first.
        return redirect("web:play")
    return redirect(reverse("web:play") + f"?game={game_id}")


def _player(request: HttpRequest) -> Player | None:
    player_id = request.session.get(PLAYER_SESSION_KEY)
    return player_by_id(player_id=player_id) if player_id else None


def _my_games_page(
    request: HttpRequest,
    *,
    status: int = 200,
    name_error: str = "",
    name_input: str | None = None,
    name_saved: bool = False,
) -> HttpResponse:
    player = _player(request)
    view = player_games_view(player=player, today=timezone.now().date()) if player else None
    if view is not None:
        for row in [*view["games"], *view["bests"]]:
            row["variant_label"] = VARIANT_LABELS.get(row["variant"], row["variant"])
        label_planar_rows(view["games"])
    # Shown once, on the page a restore with a recovery code redirects to.
    restored = bool(request.session.pop(RESTORED_SESSION_KEY, False)) and player is not None
    recovery_code = (
        recovery_code_current(player=player, remembered=request.session.get(RECOVERY_SESSION_KEY))
        if player is not None
        else ""
    )
    return render(
        request,
        "games/me.html",
        {
            "page": "me",
            "me": view,
            "recovery_code": recovery_code,
            "name_error": name_error,
            "name_input": name_input
            if name_input is not None
            else ((view or {}).get("display_name") or ""),
            "name_saved": name_saved,
            "name_max_length": DISPLAY_NAME_MAX_LENGTH,
            "sections": my_games_tables(player=player) if player is not None else [],
            "restored": restored,
        },
        status=status,
    )


@require_safe
@ensure_csrf_cookie
def me(request: HttpRequest) -> HttpResponse:
    """My games: the session player's games, bests, streaks and recovery code."""
    return _my_games_page(request)


@require_POST
def me_recovery_code(request: HttpRequest) -> HttpResponse:
    """Make a new recovery code (the previous one stops working), then show My games.

    The code is kept in the player's session and shown on My games while it is
    current; the redirect means a reload shows the same code, never a new one.
    """
    player = _player(request)
    if player is None:
        return _my_games_page(request, status=400)
    request.session[RECOVERY_SESSION_KEY] = recovery_code_make(player=player)
    return redirect(reverse("web:me") + "#recovery-title", permanent=False)


@require_POST
def me_display_name(request: HttpRequest) -> HttpResponse:
    """Set or remove the display name; a refused name shows why and changes nothing."""
    player = _player(request)
    if player is None:
        return _my_games_page(request, status=400)
    text = str(request.POST.get("display_name", ""))[:DISPLAY_NAME_INPUT_MAX_LENGTH]
    try:
        player_set_display_name(player=player, display_name=text)
    except DomainError as exc:
        return _my_games_page(
            request,
            name_error=exc.message,
            name_input=text,
            status=409 if isinstance(exc, Conflict) else 400,
        )
    return _my_games_page(request, name_saved=True)


@require_safe
@ensure_csrf_cookie
def daily(request: HttpRequest) -> HttpResponse:
    """Today's daily challenge: play it once, its leaderboard, and the past days."""
    view = daily_today_view(player=_player(request))
    return render(
        request,
        "games/daily.html",
        {"page": "daily", "day": view, "today": True, "past_days": daily_days(limit=30)},
    )


@require_safe
@ensure_csrf_cookie
def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """One day's challenge: its leaderboard and, once the day is over, the bots' scores."""
    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        raise Http404("No such day.") from None
    if wanted == daily_today():
        return redirect("web:daily")
    challenge = daily_challenge_by_date(day=wanted)
    if challenge is None:
        raise Http404("No daily challenge was played that day.")
    return render(
        request,
        "games/daily.html",
        {
            "page": "daily",
            "day": daily_view(challenge=challenge, player=_player(request)),
            "today": False,
            "past_days": [],
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@ensure_csrf_cookie
def restore(request: HttpRequest) -> HttpResponse:
    """Restore a player in this browser from their recovery code."""
    error = ""
    code = ""
    if request.method == "POST":
        code = str(request.POST.get("recovery_code", ""))[:RECOVERY_INPUT_MAX_LENGTH]
        player = player_by_recovery_code(code=code)
        if player is not None:
            request.session.cycle_key()
            request.session[PLAYER_SESSION_KEY] = str(player.pk)
            request.session.pop(RECOVERY_SESSION_KEY, None)
            request.session[RESTORED_SESSION_KEY] = True
            return redirect("web:me")
        error = "This recovery code is not known. Check it and try again."
    return render(
        request,
        "games/restore.html",
        {"page": "restore", "error": error, "code": code},
        status=400 if error else 200,
    )


# -- shared games --------------------------------------------------------------

# A shared game never changes, but it may be unshared: caches keep its image a few minutes.
SHARED_IMAGE_MAX_AGE = 300
# The server draws a shared game's image once per share token and keeps the PNG in
# the cache this long; the token is looked up first on every request, so the image
# of a game no longer shared is never served.
SHARED_IMAGE_CACHE_SECONDS = 24 * 3600
LOSS_AXIS_TEXT = {
    "top_bottom": "a group spanned the grid from top to bottom",
    "left_right": "a group spanned the grid from left to right",
    "both": "a group spanned the grid both ways",
}


def _shared_game(token: str) -> Game | None:
    try:
        return shared_game_by_token(token=token)
    except NotFound:
        return None


def _shared_not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "games/shared_missing.html", {"page": "shared"}, status=404)


def _ending_text(view: dict[str, object]) -> str:
    loss = view["loss"]
    if view["status"] == Game.Status.ABANDONED:
        return "The player ended the game"
    outcome = view.get("outcome")
    if isinstance(outcome, dict):
        return "The board was cleaned: " + (
            "a logical error" if outcome.get("failed") else "no logical error"
        )
    if isinstance(loss, dict):
        return LOSS_AXIS_TEXT.get(str(loss.get("axis")), "a group spanned the grid").capitalize()
    return "A group spanned the grid"


def _rules_text(view: dict[str, object], game: Game) -> str:
    if not game.kind.grouped:
        return planar_rules_label(
            size=game.size, modulus=game.modulus, error_rate=game.error_rate, with_size=True
        )
    practice = ", practice" if game.mode == Game.Mode.PRACTICE else ""
    return f"{view['variant_label']}, {game.size} {TIMES} {game.size}{practice}"


def _headline(view: dict[str, object], game: Game) -> str:
    if not game.kind.grouped:
        moves = f"{game.moves_count} move{'' if game.moves_count == 1 else 's'}"
        return f"Decodoku: a planar board cleaned in {moves} ({_rules_text(view, game)})"
    return f"Decodoku: a score of {game.score} ({_rules_text(view, game)})"


@require_safe
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """The public replay page of a shared finished game (anybody with the link)."""
    game = _shared_game(token)
    if game is None:
        return _shared_not_found(request)
    view = shared_game_view(game=game)
    url = request.build_absolute_uri(reverse("web:shared", args=[token]))
    rounds = f"{game.rounds} round{'' if game.rounds == 1 else 's'}"
    moves = f"{view['step']} move{'' if view['step'] == 1 else 's'}"
    return render(
        request,
        "games/shared.html",
        {
            "page": "shared",
            "token": token,
            "shared": view,
            "share_url": url,
            "share_text": share_text(game=game, url=url),
            "image_url": request.build_absolute_uri(reverse("web:shared-image", args=[token])),
            "og_title": _headline(view, game),
            "og_description": f"{_ending_text(view)} after {moves} and {rounds}. "
            "Step through the replay, then try to beat it.",
            "ending_text": _ending_text(view),
            "rules_text": _rules_text(view, game),
            "moves_text": moves,
            "rounds_text": rounds,
        },
    )


def shared_image_cache_key(token: str) -> str:
    return f"shared-image:v2:{token}"  # v2: drawn with the shipped font


@require_safe
def shared_image(request: HttpRequest, token: str) -> HttpResponse:
    """The Open Graph image of a shared game: its final board and score (PNG).

    Drawn once per share token, then served from the cache.
    """
    game = _shared_game(token)
    if game is None:
        return _shared_not_found(request)
    png = cache.get(shared_image_cache_key(token))
    if not isinstance(png, bytes):
        png = _draw_shared_image(game)
        cache.set(shared_image_cache_key(token), png, timeout=SHARED_IMAGE_CACHE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = f"public, max-age={SHARED_IMAGE_MAX_AGE}"
    return response


def _draw_shared_image(game: Game) -> bytes:
    view = shared_game_view(game=game)
    board = view["board"] or {"rows": [], "groups": None}
    loss = view["loss"]
    rounds = f"{game.rounds} round{'' if game.rounds == 1 else 's'}"
    return render_share_card(
        rows=board["rows"],
        groups=board["groups"],
        spanning=loss.get("group") if isinstance(loss, dict) else None,
        score=game.score,
        headline=_rules_text(view, game),
        details=[f"{view['step']} moves, {rounds}", f"{_ending_text(view)}."[:60]],
    )
