"""Keys the site keeps in a browser's session."""

from __future__ import annotations

PLAYER_SESSION_KEY = "decodoku_player_id"
"""The id of the player this browser plays as (set when the page creates or signs in a player)."""
