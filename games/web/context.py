"""What the games app adds to every page (through ``GamesConfig.page_context``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.sessions import PLAYER_SESSION_KEY
from games.selectors import player_by_id
from games.web.consent import CONSENT_VERSION, consent_template


def player_context(request: HttpRequest) -> dict[str, Any]:
    """The consent text, whether the session already belongs to a player, what that
    player agreed to and whether they answered the research question at all."""
    player_id = request.session.get(PLAYER_SESSION_KEY) if hasattr(request, "session") else None
    player = player_by_id(player_id=player_id) if player_id else None
    return {
        "consent_version": CONSENT_VERSION,
        "consent_template": consent_template(),
        "has_player": player is not None,
        "player_consent": (player.consent_version or "") if player is not None else "",
        # Whether the research question was answered (yes or no): until it is, every
        # page that starts a game asks it before its Play button.
        "consent_decided": player is not None and player.consent_decided,
    }
