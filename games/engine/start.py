"""Starting and resuming a game of any rule set: the one place that picks its engine.

Rule sets of the planar family are played by ``planar.PlanarGame``, every
other rule set by ``game.Game``. Both keep their events in ``events``, their
clock in ``t``, ``round`` and ``moves_made``, and have ``move``, ``over``,
``board()`` and ``to_state()``, so that replaying, verifying and recording a
game does not depend on its family. ``replay.py`` starts games through
``new_game``; the play services resume them through ``game_from_state``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from .errors import InvalidState
from .game import Game
from .planar.game import PlanarGame
from .rules import RuleSet, dict_kind
from .version import ENGINE_VERSION

AnyGame: TypeAlias = Game | PlanarGame


def new_game(
    rules: RuleSet, seed: int, *, record: bool = True, engine_version: int = ENGINE_VERSION
) -> AnyGame:
    """A new game of ``rules`` played as engine ``engine_version`` plays it."""
    if isinstance(rules, RuleSet) and not rules.kind.grouped:
        return PlanarGame(rules, seed, record=record, engine_version=engine_version)
    return Game(rules, seed, record=record, engine_version=engine_version)


def is_planar_state(state: dict[str, Any]) -> bool:
    """Whether a stored state (``to_state()``) is a planar game's: its rule set's kind has
    no groups (``FamilyKind.grouped``), so ``PlanarGame`` plays it."""
    rules = state.get("rules") if isinstance(state, dict) else None
    return isinstance(rules, dict) and not dict_kind(rules).grouped


def game_from_state(state: dict[str, Any], *, record: bool = True) -> AnyGame:
    """The game a stored state holds, ready to go on (``InvalidState`` if unreadable)."""
    if not isinstance(state, dict):
        raise InvalidState("the stored game state is not an object")
    if is_planar_state(state):
        return PlanarGame.from_state(state, record=record)
    return Game.from_state(state, record=record)
