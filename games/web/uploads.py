"""The web page for uploading save files of the original apps (``/me/uploads/``).

It does what ``POST /api/v1/imports/`` does, for the browser's player: each
chosen (or dropped) file is a single save, a zip archive or a workbook, with
the same size limit, the same per-player upload rate and the same checks;
the page shows the import report of every file and lists the player's
uploaded games. Each file counts against the upload rate as one upload (a
request of twenty files is twenty uploads), and all the files of a request
share the time one API upload has (``games.services.uploads``).

A browser without a player, or whose player never answered the research
question, sees the question first (answering it makes the player); an upload
sent without an answer is refused as a game start from the page is (409,
``consent_choice_required``), before anything is read or counted.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods

from core.api.throttles import UploadRateThrottle, count_request
from core.concurrency import UPLOAD, heavy_request
from core.sessions import PLAYER_SESSION_KEY
from games.errors import ConsentChoiceRequired
from games.models import Game, Player
from games.selectors import game_list_for_player, player_by_id
from games.services.players import player_require_consent_choice
from games.services.uploads import UploadReport, upload_save_files

# The most files one upload from the page may carry (an archive counts as one file).
UPLOAD_PAGE_MAX_FILES = 20
UPLOADS_LISTED = 200


def _player(request: HttpRequest) -> Player | None:
    player_id = request.session.get(PLAYER_SESSION_KEY)
    return player_by_id(player_id=player_id) if player_id else None


def _uploaded_games(player: Player | None) -> list[Game]:
    if player is None:
        return []
    games = game_list_for_player(player=player).filter(source=Game.Source.LEGACY_UPLOAD)
    return list(games[:UPLOADS_LISTED])


def _page(
    request: HttpRequest,
    player: Player | None,
    *,
    reports: list[UploadReport] | None = None,
    error: str = "",
    error_code: str = "",
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "games/uploads.html",
        {
            "page": "uploads",
            "player": player,
            "reports": reports or [],
            "error": error,
            "error_code": error_code,
            "uploads": _uploaded_games(player),
            "max_files": UPLOAD_PAGE_MAX_FILES,
            "max_bytes": settings.DECODOKU_MAX_UPLOAD_BYTES,
        },
        status=status,
    )


def _too_large(name: str, limit: int) -> UploadReport:
    refused = f"A save file may have at most {limit} bytes."
    return UploadReport(name=name, archive=False, outcomes=[], refused=refused)


@require_http_methods(["GET", "HEAD", "POST"])
@ensure_csrf_cookie
@heavy_request(UPLOAD, methods=("POST",))
def uploads(request: HttpRequest) -> HttpResponse:
    """Upload save files (GET: the form and the player's uploads; POST: import them)."""
    player = _player(request)
    if request.method != "POST":
        return _page(request, player)
    if player is None:
        return _page(
            request,
            None,
            error="There is no player in this browser yet: answer the question about "
            "research use on this page (or restore your games with your recovery code) first.",
            status=400,
        )
    try:
        # Checked before the upload rate is counted: a refused upload uses none of it.
        player_require_consent_choice(player=player, source=Game.Source.WEB)
    except ConsentChoiceRequired as exc:
        return _page(
            request,
            player,
            error="Choose first whether your games may be used for research (yes or no); "
            "then upload your files. Nothing was imported.",
            error_code=exc.code,
            status=409,
        )
    files = request.FILES.getlist("files")
    if not files:
        return _page(request, player, error="Choose at least one save file.", status=400)
    if len(files) > UPLOAD_PAGE_MAX_FILES:
        return _page(
            request,
            player,
            status=400,
            error=f"At most {UPLOAD_PAGE_MAX_FILES} "
            f"files at a time ({len(files)} chosen); put more in a zip archive.",
        )
    rate = UploadRateThrottle().get_rate()
    # Each file is an upload, as it would be sent to the API one at a time.
    wait = (
        count_request(scope="upload", ident=str(player.pk), rate=rate, amount=len(files))
        if rate
        else None
    )
    if wait is not None:
        response = _page(
            request,
            player,
            status=429,
            error=f"Too many uploads (each file counts as one): try again in "
            f"{max(1, int(wait))} s. Nothing was imported.",
        )
        response["Retry-After"] = str(max(1, int(wait)))
        return response
    limit = settings.DECODOKU_MAX_UPLOAD_BYTES
    readable: list[tuple[str, bytes]] = []
    order: list[str | UploadReport] = []
    for upload in files:
        name = upload.name or "upload"
        content = upload.read(limit + 1) if (upload.size or 0) <= limit else b""
        if (upload.size or 0) > limit or len(content) > limit:
            order.append(_too_large(name, limit))
            continue
        readable.append((name, content))
        order.append(name)
    imported = iter(upload_save_files(player=player, files=readable))
    reports = [item if isinstance(item, UploadReport) else next(imported) for item in order]
    accepted = any(
        outcome.kind != "invalid" and outcome.kind != "not_save"
        for report in reports
        for outcome in report.outcomes
    )
    return _page(request, player, reports=reports, status=200 if accepted else 422)
