"""Business logic that writes: keyword-only functions, each in one transaction.

Views, serializers, admin pages and management commands call these and stay
thin. Reads are in ``games.selectors``.
"""

from games.services.bots import planar_bot_game, planar_bot_player
from games.services.play import (
    MoveResult,
    game_abandon,
    game_add_note,
    game_move,
    game_start,
)
from games.services.players import (
    ForgetResult,
    player_create,
    player_for_bot,
    player_forget,
    player_new_recovery_code,
    player_set_consent,
    player_set_display_name,
    player_touch,
)
from games.services.sharing import game_share, game_unshare
from games.signals import on_game_finished

__all__ = [
    "ForgetResult",
    "MoveResult",
    "game_abandon",
    "game_add_note",
    "game_move",
    "game_share",
    "game_start",
    "game_unshare",
    "on_game_finished",
    "planar_bot_game",
    "planar_bot_player",
    "player_create",
    "player_for_bot",
    "player_forget",
    "player_new_recovery_code",
    "player_set_consent",
    "player_set_display_name",
    "player_touch",
]
