"""Who is calling: a player, by API token or by the web page's session.

Every app's player API uses these (``core.api.views.PlayerAPIView`` reads them
from the settings ``DECODOKU_PLAYER_AUTHENTICATION`` and
``DECODOKU_PLAYER_PERMISSIONS``).

API clients send ``Authorization: Token <token>``. The web page uses the
session that ``POST /api/v1/players/`` opened, with CSRF enforced. Either
way ``request.auth`` is the :class:`~games.models.Player`; ``request.user``
stays the Django user (usually anonymous): players have no accounts.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    get_authorization_header,
)
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.sessions import PLAYER_SESSION_KEY
from games.models import Player
from games.selectors import player_by_id, player_by_token
from games.services import player_touch

TOKEN_KEYWORD = "Token"  # noqa: S105 - the header's scheme name, not a secret


class PlayerTokenAuthentication(BaseAuthentication):
    """``Authorization: Token <token>``, checked against the stored hash."""

    keyword = TOKEN_KEYWORD

    def authenticate(self, request: Request) -> tuple[object, Player] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "The Authorization header must be 'Token <token>'.", code="invalid_token"
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                "The token is not valid.", code="invalid_token"
            ) from None
        player = player_by_token(token=token)
        if player is None:
            raise exceptions.AuthenticationFailed("The token is not valid.", code="invalid_token")
        player_touch(player=player)
        return (player.user or AnonymousUser(), player)

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class PlayerSessionAuthentication(SessionAuthentication):
    """The player the web page's session belongs to; unsafe methods need the CSRF token."""

    def authenticate(self, request: Request) -> tuple[object, Player] | None:
        django_request: HttpRequest = request._request
        session = getattr(django_request, "session", None)
        player_id = session.get(PLAYER_SESSION_KEY) if session is not None else None
        if not player_id:
            return None
        player = player_by_id(player_id=player_id)
        if player is None:
            return None
        self.enforce_csrf(request)
        player_touch(player=player)
        return (getattr(django_request, "user", None) or AnonymousUser(), player)

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as exc:
            raise exceptions.PermissionDenied(str(exc.detail), code="csrf_failed") from None


class IsPlayer(BasePermission):
    """The request was made by a player (by token or session)."""

    message = "Authentication credentials were not provided."

    def has_permission(self, request: Request, view: object) -> bool:
        return isinstance(request.auth, Player)


def request_player(request: Request) -> Player:
    """The player making ``request``; views guarded by :class:`IsPlayer` always have one."""
    player = request.auth
    if not isinstance(player, Player):  # pragma: no cover - IsPlayer stops this earlier
        raise exceptions.NotAuthenticated()
    return player


def login_player(request: Request, player: Player) -> None:
    """Remember ``player`` in the session, for the web page."""
    session = request._request.session
    session.cycle_key()
    session[PLAYER_SESSION_KEY] = str(player.pk)



class PlayerTokenScheme(OpenApiAuthenticationExtension):
    """How the token scheme appears in the OpenAPI schema."""

    target_class = PlayerTokenAuthentication
    name = "playerToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "The player's API token, sent as `Authorization: Token <token>`: the word "
                "`Token`, a space and the token (not `Bearer`). Generated clients: set the "
                "header's whole value, prefix included."
            ),
        }


class PlayerSessionScheme(OpenApiAuthenticationExtension):
    """The web page's session cookie (unsafe methods also need X-CSRFToken)."""

    target_class = PlayerSessionAuthentication
    name = "playerSession"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {"type": "apiKey", "in": "cookie", "name": "sessionid"}
