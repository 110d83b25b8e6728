"""A model of what players do: the features of every legal move of a board.

Pure (no Django). ``move_features`` describes each legal move of a board as
the player saw it with the named features of ``FEATURES``; the ``player``
bot scores moves with them, and the fitted strategy model
(``core.stats.choice``) learns their weights from recorded moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots.board import geometry, observe
from ..rules import RuleSet
from .features import (
    FEATURE_NAMES,
    FEATURE_SET_VERSION,
    FEATURES,
    INDEX,
    BoardFeatures,
    Feature,
    move_features,
)


def board_features(values: Sequence[int], size: int, rules: RuleSet | dict[str, Any]
                   ) -> BoardFeatures:
    """``move_features`` of a board of engine (or already observed) values under ``rules``."""
    return move_features(observe(values, size, rules), geometry(size))


__all__ = [
    "FEATURES",
    "FEATURE_NAMES",
    "FEATURE_SET_VERSION",
    "INDEX",
    "BoardFeatures",
    "Feature",
    "board_features",
    "move_features",
]
