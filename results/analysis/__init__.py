"""The analysis of recorded games, as pure functions (no database).

- ``moves``: the class of a move and the shape of a board.
- ``games``: the whole analysis of one game, from a replay (games with a
  seed) or from the stored boards (uploaded save files).

``results.services.analysis`` loads a game, calls these and stores the result.
"""

from .games import (
    ANALYSIS_VERSION,
    REFERENCE_BOTS,
    Agreement,
    GameReport,
    MoveReport,
    RoundReport,
    StoredBoard,
    StoredMove,
    analyse_boards,
    analyse_seeded,
    bot_agreements,
    error_rate,
    lattice_edges,
)
from .moves import MOVE_CLASSES, BoardShape, board_shape, classify_move

__all__ = [
    "ANALYSIS_VERSION",
    "MOVE_CLASSES",
    "REFERENCE_BOTS",
    "Agreement",
    "BoardShape",
    "GameReport",
    "MoveReport",
    "RoundReport",
    "StoredBoard",
    "StoredMove",
    "analyse_boards",
    "analyse_seeded",
    "board_shape",
    "bot_agreements",
    "classify_move",
    "error_rate",
    "lattice_edges",
]
