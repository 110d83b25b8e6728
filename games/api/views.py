"""Views of the play API. Each one validates input, calls a service or selector, answers."""

from __future__ import annotations

import re
import uuid
from datetime import date
from typing import Any

from django.conf import settings
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.parsers import LimitedJSONParser
from core.api.serializers import STEP_MAX, ErrorSerializer
from core.api.throttles import (
    API_THROTTLES,
    AddressRateThrottle,
    LoginRateThrottle,
    SignupRateThrottle,
    UploadRateThrottle,
)
from core.api.views import PlayerAPIView, validated
from core.concurrency import UPLOAD, heavy_request
from core.pagination import ListPagination
from games.api import serializers as s
from games.authentication import (
    PlayerSessionAuthentication,
    login_player,
    request_player,
)
from games.daily import today as daily_today
from games.engine import DEFAULT_RULES, InvalidRuleSet, RuleSet
from games.engine.families import kind_named
from games.errors import InvalidInput, InvalidRules, NotFound, PayloadTooLarge
from games.models import Game, Player
from games.selectors import (
    daily_challenge_by_date,
    daily_days,
    daily_today_view,
    daily_view,
    game_board_at,
    game_get_for_player,
    game_last_step,
    game_list_for_player,
    game_public_view,
    move_public_view,
    player_by_recovery_code,
    player_consent_view,
    player_games_view,
    share_text,
    shared_game_by_token,
    shared_game_view,
    snapshot_view,
)
from games.services import (
    game_abandon,
    game_add_note,
    game_move,
    game_share,
    game_start,
    game_unshare,
    player_create,
    player_new_recovery_code,
    player_set_consent,
    player_set_display_name,
)
from games.services.daily import daily_start
from games.services.legacy import (
    OUTCOMES,
    is_archive,
    legacy_import,
    legacy_import_archive,
    upload_limits,
)

USER_AGENT_MAX_LENGTH = 300


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    described = {
        400: "The request is malformed or a value is not acceptable.",
        401: "No valid token or session.",
        403: "CSRF check failed (session authentication).",
        404: "No such game (another player's game is not found either).",
        409: "stale_step or game_over: the game is not where the client thinks; "
        "consent_choice_required: a web player has not answered the research question.",
        413: "The body or the file is too large.",
        415: "The body is not of a media type the operation accepts.",
        422: "The move or the save file breaks a rule of the game.",
        429: "Too many requests (see Retry-After).",
        503: "busy: as many uploads are being read as the server runs at once; retry "
        "after Retry-After seconds.",
    }
    return {
        code: OpenApiResponse(response=ErrorSerializer, description=described[code])
        for code in codes
    }


def _source(request: Request) -> str:
    """Where a request's game comes from: the web page (session) or an API client (token).

    Never ``bot``: only the platform's own bot players record bot games, in
    the services, and a ``bot_name`` a client sends is only kept as what it
    declared (``client_info``), with no effect on research data.
    """
    if isinstance(request.successful_authenticator, PlayerSessionAuthentication):
        return Game.Source.WEB
    return Game.Source.API


class PlayerCreateView(APIView):
    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    throttle_classes = [SignupRateThrottle, AddressRateThrottle]
    parser_classes = [LimitedJSONParser]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="players_create",
        summary="Create a pseudonymous player",
        description=(
            "Returns the player's API token, shown only this once, and remembers the player "
            "in the session (for the web page)."
        ),
        request=s.PlayerCreateSerializer,
        responses={201: s.PlayerCreatedSerializer, **_errors(400, 413, 415, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PlayerCreateSerializer, request.data)
        player, token = player_create(
            consent_version=data.get("consent_version"),
            consent_decided="consent_version" in data,
        )
        login_player(request, player)
        get_token(request._request)  # the web page reads the CSRF cookie
        return Response(
            {"player_id": str(player.pk), "token": token, "token_prefix": player.token_prefix},
            status=status.HTTP_201_CREATED,
        )


class ConsentView(PlayerAPIView):
    @extend_schema(
        operation_id="me_consent_retrieve",
        summary="My research consent and its history",
        responses={200: s.PlayerConsentSerializer, **_errors(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(player_consent_view(player=request_player(request)))

    @extend_schema(
        operation_id="me_consent_update",
        summary="Change my research consent",
        description=(
            "The same player keeps their games and bests; the new choice applies to the games "
            "started from now on. Every change is kept with its time and version."
        ),
        request=s.ConsentChangeSerializer,
        responses={200: s.PlayerConsentSerializer, **_errors(400, 401, 403, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.ConsentChangeSerializer, request.data)
        player = player_set_consent(
            player=request_player(request), consent_version=data["consent_version"]
        )
        return Response(player_consent_view(player=player))


class RecoveryCodeView(PlayerAPIView):
    @extend_schema(
        operation_id="me_recovery_code_create",
        summary="Make a new recovery code",
        description=(
            "The code restores this player in another browser (POST /api/v1/players/restore/). "
            "It is shown only this once; making a new one makes the earlier one stop working."
        ),
        request=None,
        responses={201: s.RecoveryCodeSerializer, **_errors(401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        code = player_new_recovery_code(player=request_player(request))
        return Response({"recovery_code": code}, status=status.HTTP_201_CREATED)


class RestoreView(APIView):
    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    throttle_classes = [LoginRateThrottle, AddressRateThrottle]
    parser_classes = [LimitedJSONParser]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="players_restore",
        summary="Restore a player from their recovery code",
        description=(
            "Remembers the player in this session (for the web page). An unknown or "
            "malformed code is refused with 400 and changes nothing; attempts are "
            "rate-limited per address like sign-ins."
        ),
        request=s.RestoreSerializer,
        responses={200: s.RestoredSerializer, **_errors(400, 413, 415, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.RestoreSerializer, request.data)
        player = player_by_recovery_code(code=data["recovery_code"])
        if player is None:
            raise InvalidInput(
                "This recovery code is not known.",
                fields={"recovery_code": ["Unknown or malformed recovery code."]},
            )
        login_player(request, player)
        get_token(request._request)
        return Response({"player_id": str(player.pk)})


class MyGamesView(PlayerAPIView):
    @extend_schema(
        operation_id="me_games",
        summary="My games, personal bests and streaks",
        description=(
            "The newest 200 games with their date, rules, mode, score, rounds, status, "
            "daily-challenge day and, once finished, their percentile among everyone's "
            "finished games at the same variant, size and mode; the best score per variant, "
            "size and mode over lost games (practice apart); and the streaks of days played "
            "(UTC days)."
        ),
        responses={200: s.MyGamesSerializer, **_errors(401, 429)},
    )
    def get(self, request: Request) -> Response:
        today = timezone.now().date()
        return Response(player_games_view(player=request_player(request), today=today))


class DisplayNameView(PlayerAPIView):
    @extend_schema(
        operation_id="me_display_name_retrieve",
        summary="My display name",
        responses={200: s.DisplayNameSerializer, **_errors(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response({"display_name": request_player(request).display_name})

    @extend_schema(
        operation_id="me_display_name_update",
        summary="Set or remove my display name (leaderboards only)",
        description=(
            "3 to 24 letters, digits, spaces, _, - or .; unique whatever the case; refused "
            "when offensive. null or an empty text removes the name. A refused name changes "
            "nothing: 400 display_name_length, display_name_characters or "
            "display_name_offensive; 409 display_name_taken. Never part of research data."
        ),
        request=s.DisplayNameSerializer,
        responses={200: s.DisplayNameSerializer, **_errors(400, 401, 403, 409, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.DisplayNameSerializer, request.data)
        player = player_set_display_name(
            player=request_player(request), display_name=data["display_name"]
        )
        return Response({"display_name": player.display_name})


def _optional_player(request: Request) -> Player | None:
    return request.auth if isinstance(request.auth, Player) else None


class DailyView(PlayerAPIView):
    def get_permissions(self) -> list[Any]:
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return []
        return list(super().get_permissions())

    @extend_schema(
        operation_id="daily_today",
        summary="Today's daily challenge and its leaderboard",
        description=(
            "The original rules, one seed for everyone (withheld until the day is over), "
            "the players' finished games best first (display name or pseudonym), and the "
            "caller's own game of the day if any. No authentication needed."
        ),
        responses={200: s.DailySerializer, **_errors(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(daily_today_view(player=_optional_player(request)))

    @extend_schema(
        operation_id="daily_start",
        summary="Start my game of today's challenge",
        description=(
            "Once per player and day: a second attempt is refused with 409 "
            "daily_already_played (with game_id, the game of the day) and creates nothing."
        ),
        request=None,
        responses={201: s.GameStateSerializer, **_errors(401, 403, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        game = daily_start(
            player=request_player(request),
            source=_source(request),
            client_info={
                "user_agent": request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH],
                "auth": "session" if _source(request) == Game.Source.WEB else "token",
            },
        )
        return Response(game_public_view(game=game), status=status.HTTP_201_CREATED)


DAY_FORMAT = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def parse_day(text: str) -> date:
    """A date written YYYY-MM-DD, or InvalidInput."""
    try:
        if DAY_FORMAT.fullmatch(text) is None:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            "The day must be a date written YYYY-MM-DD.", fields={"day": ["Not a date."]}
        ) from None


class DailyDayView(PlayerAPIView):
    permission_classes = []

    @extend_schema(
        operation_id="daily_day",
        summary="One day's challenge and its leaderboard, with the bots' scores",
        description=(
            "`day` is YYYY-MM-DD (400 otherwise; 404 for a day without a challenge). Once "
            "the day is over it also gives the seed and the bots' games at that seed."
        ),
        parameters=[
            OpenApiParameter(
                "day",
                OpenApiTypes.DATE,
                OpenApiParameter.PATH,
                description="The UTC day, YYYY-MM-DD.",
                pattern=DAY_FORMAT.pattern,
            )
        ],
        responses={200: s.DailySerializer, **_errors(400, 401, 404, 429)},
    )
    def get(self, request: Request, day: str) -> Response:
        wanted = parse_day(day)
        challenge = daily_challenge_by_date(day=wanted)
        if challenge is None:
            if wanted == daily_today():
                return Response(daily_today_view(player=_optional_player(request)))
            raise NotFound("No daily challenge was played that day.")
        return Response(daily_view(challenge=challenge, player=_optional_player(request)))


class DailyDaysView(PlayerAPIView):
    permission_classes = []

    @extend_schema(
        operation_id="daily_days",
        summary="The past days' challenges",
        description="Newest first (at most 60): players, best score, the bots' best score.",
        responses={200: s.DailyDaySerializer(many=True), **_errors(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(daily_days())


PLANAR_ONLY_FIELDS = ("modulus", "error_rate")


def _requested_rules(data: dict[str, Any]) -> RuleSet:
    """The rule set a start request asks for: the original game's, or a planar game's.

    The request names the family (``GameCreateSerializer`` allows planar only, or
    none: the original game); a family whose games have no groups, planar, is
    played with a modulus and an error rate instead of a variant.
    """
    size = data.get("size", DEFAULT_RULES.size)
    try:
        kind = kind_named(data.get("family"))
        if not kind.grouped:
            if "variant" in data:
                raise InvalidRules(
                    "A planar game has no variant: its values are Z_d, d being its modulus."
                )
            return RuleSet(
                size=size,
                family=kind.family,
                modulus=data.get("modulus"),
                error_rate=data.get("error_rate"),
            )
        given = [name for name in PLANAR_ONLY_FIELDS if name in data]
        if given:
            raise InvalidRules(
                f"{' and '.join(given)} {'belong' if len(given) > 1 else 'belongs'} to a "
                "planar game: send family planar with them."
            )
        return RuleSet(size=size, variant=data.get("variant", DEFAULT_RULES.variant))
    except InvalidRuleSet as exc:
        raise InvalidRules(str(exc)) from exc


class GameListCreateView(PlayerAPIView, GenericAPIView):
    pagination_class = ListPagination
    serializer_class = s.GameStateSerializer

    @extend_schema(
        operation_id="games_list",
        summary="My games, newest first",
        description="The caller's games only, without their events; paginated.",
        responses={200: s.GameStateSerializer(many=True), **_errors(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        games = game_list_for_player(player=request_player(request))
        page = self.paginate_queryset(games) or []
        return self.get_paginated_response(
            [game_public_view(game=game, detail=False) for game in page]
        )

    @extend_schema(
        operation_id="games_create",
        summary="Start a game",
        description=(
            "Defaults: the original rule set (L = 7, Z10) in normal mode. `family: planar` "
            "with `modulus` (d, 2 to 10) and `error_rate` (p) starts a game of the planar "
            "code (docs/rules.md): one noise round, then moves until the board is clean, "
            "numbers leaving through the left and right sides; normal mode only."
        ),
        request=s.GameCreateSerializer,
        responses={201: s.GameStateSerializer, **_errors(400, 401, 403, 409, 413, 415, 429)},
        examples=[
            OpenApiExample(
                "A planar game",
                value={"family": "planar", "size": 5, "modulus": 2, "error_rate": 0.1},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.GameCreateSerializer, request.data)
        rules = _requested_rules(data)
        bot_name = data.get("bot_name", "")
        source = _source(request)
        game = game_start(
            player=request_player(request),
            rules=rules,
            mode=data.get("mode", Game.Mode.NORMAL),
            source=source,
            client_info={
                "user_agent": request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH],
                "auth": "session" if source == Game.Source.WEB else "token",
                # A client's own bot: its games are its player's, under its consent.
                "declared_bot_name": bot_name or None,
                "declared_bot_version": (data.get("bot_version") or None) if bot_name else None,
            },
        )
        return Response(game_public_view(game=game), status=status.HTTP_201_CREATED)


class GameDetailView(PlayerAPIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game's state (everything, once it has ended)",
        description=(
            "While the game is active: the board (values only in normal mode; with group "
            "ids in practice mode), never the seed. Once it has ended: also the seed, every "
            "event and the board after every step."
        ),
        responses={200: s.GameStateSerializer, **_errors(401, 404, 429)},
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        game = game_get_for_player(game_id=game_id, player=request_player(request))
        return Response(game_public_view(game=game))


class MoveCreateView(PlayerAPIView):
    @extend_schema(
        operation_id="games_moves_create",
        summary="Play a move",
        description=(
            "Moves the number at `from` to the neighbouring cell `to`. `step` must be the "
            "game's current step; resending a move already played at `step` returns the "
            "recorded result (200, `replayed: true`) without playing it again. In a planar "
            "game, `to` may also be column -1 (from the first column) or L (from the last): "
            "the number leaves the board through the left or right side; the top and bottom "
            "are closed (422 closed_side)."
        ),
        request=s.MoveCreateSerializer,
        responses={
            201: s.MoveResultSerializer,
            200: OpenApiResponse(s.MoveResultSerializer, description="A retried move."),
            **_errors(400, 401, 403, 404, 409, 413, 415, 422, 429),
        },
        examples=[
            OpenApiExample(
                "First move",
                value={"step": 0, "from": [3, 4], "to": [3, 5]},
                request_only=True,
            ),
            OpenApiExample(
                "Off a planar board through the left side",
                value={"step": 3, "from": [2, 0], "to": [2, -1]},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        data = validated(s.MoveCreateSerializer, request.data)
        (from_row, from_col), (to_row, to_col) = data["from"], data["to"]
        result = game_move(
            game_id=game_id,
            player=request_player(request),
            step=data["step"],
            from_row=from_row,
            from_col=from_col,
            to_row=to_row,
            to_col=to_col,
            client_time=data.get("client_time"),
            note=data.get("note", ""),
        )
        body = move_public_view(
            game=result.game,
            events=result.events,
            snapshot=result.snapshot,
            replayed=result.replayed,
        )
        return Response(
            body, status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        )


class GameAbandonView(PlayerAPIView):
    @extend_schema(
        operation_id="games_abandon",
        summary="Give up a game",
        description="Ends an active game (abandoning an abandoned game changes nothing).",
        request=None,
        responses={200: s.GameStateSerializer, **_errors(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        game = game_abandon(game_id=game_id, player=request_player(request))
        return Response(game_public_view(game=game))


class GameHistoryView(PlayerAPIView):
    @extend_schema(
        operation_id="games_history",
        summary="The board at an earlier step (back in time)",
        description="Shown as the game itself is: no group ids while a normal game is active.",
        parameters=[
            OpenApiParameter(
                "step",
                {"type": "integer", "minimum": 0, "maximum": STEP_MAX},
                description="Moves made (0: the first board). Default: the current step.",
            )
        ],
        responses={200: s.BoardSerializer, **_errors(400, 401, 404, 429)},
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        query = validated(s.HistoryQuerySerializer, request.query_params)
        game = game_get_for_player(game_id=game_id, player=request_player(request))
        step = query.get("step", game_last_step(game=game))
        snapshot = game_board_at(game=game, step=step)
        return Response(snapshot_view(game=game, snapshot=snapshot))


def share_link_view(request: Request, game: Game) -> dict[str, Any]:
    """The share token, public replay URL and share text of a shared game."""
    token = game.share_token or ""
    url = request.build_absolute_uri(reverse("web:shared", args=[token]))
    return {
        "share_token": token,
        "url": url,
        "image_url": request.build_absolute_uri(reverse("web:shared-image", args=[token])),
        "text": share_text(game=game, url=url),
        "shared_at": game.shared_at.isoformat() if game.shared_at else None,
    }


class GameShareView(PlayerAPIView):
    @extend_schema(
        operation_id="games_share",
        summary="Share a finished game",
        description=(
            "Makes a public replay page of the game, found by an unguessable token "
            "(/shared/<token>/; the link names neither the player nor the game). Sharing a "
            "shared game returns the same link. An active game cannot be shared (409, "
            "game_not_finished) and nothing changes."
        ),
        request=None,
        responses={200: s.ShareSerializer, **_errors(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        game = game_share(game_id=game_id, player=request_player(request))
        return Response(share_link_view(request, game))

    @extend_schema(
        operation_id="games_unshare",
        summary="Stop sharing a game",
        description=(
            "The public link stops working for good (404); sharing again makes a new one. "
            "Unsharing a game that is not shared changes nothing."
        ),
        request=None,
        responses={204: None, **_errors(401, 403, 404, 429)},
    )
    def delete(self, request: Request, game_id: uuid.UUID) -> Response:
        game_unshare(game_id=game_id, player=request_player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SharedGameView(APIView):
    """A shared game's public replay: anybody with the link, no player needed."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    throttle_classes = [AddressRateThrottle]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="shared_games_retrieve",
        summary="A shared game's replay (public)",
        description=(
            "The rules, score, how the game ended and the board after every step. No player, "
            "game id, seed, notes or timings. An unknown token, or a game no longer shared, "
            "is 404."
        ),
        responses={200: s.SharedGameSerializer, **_errors(400, 404, 429)},
        auth=[],
    )
    def get(self, request: Request, token: str) -> Response:
        game = shared_game_by_token(token=token)
        return Response(shared_game_view(game=game))


class MoveNoteView(PlayerAPIView):
    @extend_schema(
        operation_id="games_moves_note",
        summary="Write a note on a move",
        description="`index` counts moves from 1. A new note replaces the old one.",
        request=s.NoteSerializer,
        responses={200: s.NoteResultSerializer, **_errors(400, 401, 403, 404, 413, 415, 429)},
    )
    def post(self, request: Request, game_id: uuid.UUID, index: int) -> Response:
        data = validated(s.NoteSerializer, request.data)
        move = game_add_note(
            game_id=game_id, player=request_player(request), move_index=index, note=data["note"]
        )
        return Response({"move_index": move.index, "note": move.note})


class ImportView(PlayerAPIView):
    parser_classes = [MultiPartParser]
    throttle_classes = [*API_THROTTLES, UploadRateThrottle]

    @extend_schema(
        operation_id="imports_create",
        summary="Upload a save file of the original apps",
        description=(
            "A verified file becomes a game (source legacy_upload). The same file again "
            "returns the game made the first time (200). A file that breaks a rule is "
            "refused (422) with the step, line and reason. A zip archive of save files "
            "(.zip), or an Excel workbook (.xlsx, .xlsm: one save per sheet), is imported "
            "file by file as manage.py import_legacy does: the answer lists each file's "
            "outcome (ImportArchiveResult; 201 if any game was made). Everything an upload "
            "holds, archives inside archives included, shares one budget (files, unpacked "
            "bytes, nesting depth, compression ratio, time): beyond it the whole upload is "
            "refused (422, upload_limit, the reason naming the limit) and nothing is stored; "
            "an archive that cannot be read is refused with archive_refused."
        ),
        request={"multipart/form-data": s.ImportSerializer},
        responses={
            201: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="ImportCreated",
                    serializers=[s.ImportResultSerializer, s.ImportArchiveResultSerializer],
                    resource_type_field_name=None,
                ),
                description="A game was made (for an archive: at least one).",
            ),
            200: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="ImportExisting",
                    serializers=[s.ImportResultSerializer, s.ImportArchiveResultSerializer],
                    resource_type_field_name=None,
                ),
                description="Uploaded before (for an archive: no new game).",
            ),
            **_errors(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
    )
    @heavy_request(UPLOAD)
    def post(self, request: Request) -> Response:
        limit = settings.DECODOKU_MAX_UPLOAD_BYTES
        _refuse_large_body(request, limit)
        data = validated(s.ImportSerializer, request.data)
        upload = data["file"]
        if upload.size is not None and upload.size > limit:
            raise PayloadTooLarge(f"A save file may have at most {limit} bytes.", limit=limit)
        content = upload.read(limit + 1)
        if len(content) > limit:
            raise PayloadTooLarge(f"A save file may have at most {limit} bytes.", limit=limit)
        if is_archive(filename=upload.name or "", data=content):
            outcomes = legacy_import_archive(
                player=request_player(request),
                filename=upload.name or "",
                data=content,
                client_info={"uploaded_via": _source(request)},
            )
            summary = {kind: sum(1 for o in outcomes if o.kind == kind) for kind in OUTCOMES}
            archive = {
                "archive": upload.name or "",
                "files": [
                    {"name": o.name, "outcome": o.kind, "message": o.message,
                     "game_id": o.game.pk if o.game is not None else None}
                    for o in outcomes
                ],
                "summary": summary,
            }
            made = summary["imported"] > 0
            return Response(archive, status=status.HTTP_201_CREATED if made else 200)
        result = legacy_import(
            player=request_player(request),
            filename=upload.name or "",
            data=content,
            client_info={"uploaded_via": _source(request)},
            max_lines=upload_limits().max_lines,
        )
        body = {
            "created": result.created,
            "report": result.report,
            "game": game_public_view(game=result.game),
        }
        return Response(body, status=status.HTTP_201_CREATED if result.created else 200)


MULTIPART_OVERHEAD = 64 * 1024


def _refuse_large_body(request: Request, limit: int) -> None:
    """Refuse a body that is obviously too large before reading it."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit + MULTIPART_OVERHEAD:
        raise PayloadTooLarge(f"A save file may have at most {limit} bytes.", limit=limit)
