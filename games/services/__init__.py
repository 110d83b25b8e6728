"""Business logic that writes: keyword-only functions, each in one transaction.

Views, serializers, admin pages and management commands call these and stay
thin. Reads are in ``games.selectors``.
"""

from games.services.play import (
    MoveResult,
    game_abandon,
    game_add_note,
    game_move,
    game_start,
)
from games.services.players import (
    player_create,
    player_new_recovery_code,
    player_set_consent,
    player_touch,
)
from games.services.sharing import game_share, game_unshare
from games.signals import on_game_finished

__all__ = [
    "MoveResult",
    "game_abandon",
    "game_add_note",
    "game_move",
    "game_share",
    "game_start",
    "game_unshare",
    "on_game_finished",
    "player_create",
    "player_new_recovery_code",
    "player_set_consent",
    "player_touch",
]
