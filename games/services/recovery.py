"""The recovery code as the My games page shows it: made on request, shown while current.

Only the code's SHA-256 is stored on the player. The page keeps the code
itself in the player's own session (the session already is the player's
identity, so it reveals nothing its holder could not do anyway) and shows it
again only while it is still the player's current code: making a new code,
or restoring another player into the browser, makes the kept one stale.
"""

from __future__ import annotations

import hmac

from games.models import Player
from games.services.players import player_new_recovery_code
from games.tokens import hash_recovery_code, normalize_recovery_code


def recovery_code_make(*, player: Player) -> str:
    """A new recovery code for ``player``; the code made before it stops working."""
    return player_new_recovery_code(player=player)


def recovery_code_current(*, player: Player, remembered: object) -> str:
    """``remembered`` when it is ``player``'s current recovery code, else ``""``.

    ``remembered`` is whatever the session held (possibly nothing, or junk).
    """
    if not isinstance(remembered, str) or not player.recovery_hash:
        return ""
    normalized = normalize_recovery_code(remembered)
    if normalized is None:
        return ""
    if not hmac.compare_digest(hash_recovery_code(normalized), player.recovery_hash):
        return ""
    return remembered
