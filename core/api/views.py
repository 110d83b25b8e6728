"""The base of every view a player calls, in any app's API, and its request validation.

Who a player is belongs to the games app (its ``Player`` model); core names
no app, so the authentication and the permission of :class:`PlayerAPIView`
are settings, as DRF's own defaults are (``DECODOKU_PLAYER_AUTHENTICATION``,
``DECODOKU_PLAYER_PERMISSIONS`` in ``decodoku_site.settings``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.serializers import Serializer
from rest_framework.settings import perform_import
from rest_framework.views import APIView

from core.api.parsers import LimitedJSONParser
from core.api.throttles import API_THROTTLES, AddressRateThrottle


def _setting_classes(name: str) -> list[type]:
    """The classes a setting names by their dotted paths."""
    return list(perform_import(getattr(settings, name), name) or [])


class PlayerAPIView(APIView):
    """Base of the views a player calls: token or session, rate-limited.

    The limit per address is checked before authentication, so requests
    with no token or a wrong one are counted (and stopped) like any other;
    the limits per player are checked once the player is known.
    """

    authentication_classes = _setting_classes("DECODOKU_PLAYER_AUTHENTICATION")
    permission_classes = _setting_classes("DECODOKU_PLAYER_PERMISSIONS")
    throttle_classes = API_THROTTLES
    parser_classes = [LimitedJSONParser]
    renderer_classes = [JSONRenderer]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        address = AddressRateThrottle()
        if not address.allow_request(request, self):
            self.throttled(request, address.wait() or 1)
        super().initial(request, *args, **kwargs)


def validated(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """``data`` checked by ``serializer_class``; a 400 (``invalid_request``) when it fails."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
