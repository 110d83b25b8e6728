"""Rate limits per player and per client address, counted in the Django cache.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the
environment, see ``docs/operations.md``) and are read at each request, so tests can change
them with ``override_settings``. A scope without a rate (or with ``None``)
is not limited.
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from games.models import Player


class _ConfiguredRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        return rates.get(self.scope)


class PlayerRateThrottle(_ConfiguredRateThrottle):
    """Requests of one player, whatever address they come from."""

    scope = "player"

    def get_cache_key(self, request: Request, view: object) -> str | None:
        if not isinstance(request.auth, Player):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}


class AddressRateThrottle(_ConfiguredRateThrottle):
    """Requests from one client address, whoever makes them."""

    scope = "ip"

    def get_cache_key(self, request: Request, view: object) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignupRateThrottle(AddressRateThrottle):
    """New players created from one address."""

    scope = "signup"


class UploadRateThrottle(PlayerRateThrottle):
    """Save files uploaded by one player."""

    scope = "upload"


API_THROTTLES = [PlayerRateThrottle, AddressRateThrottle]
