"""The common shape of a decoder bot.

A bot is a plain policy (``name``, ``version``, ``choose(game)``) that can also
rank its candidate moves on any board of values: ``rank(values, size, rules,
k)`` returns its ``k`` preferred moves, best first, one per distinct effect,
and ``choose`` plays the first. Bots read ``game.values``, ``game.size`` and
``game.rules`` and nothing else, so they never see group ids.

Ties are broken by a generator seeded from the bot's seed and the board
itself, which makes a ranking a pure function of (bot, version, seed, board):
an analysis can ask what a bot would have played on any recorded board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..events import MoveTuple
from ..rng import MASK64, SplitMix64
from ..rules import RuleSet
from .board import (
    Geometry,
    geometry,
    observe,
    pick,
    seen_in_game,
    tie_breaker,
    tie_state,
)

Scored = list[tuple[tuple[Any, ...], int, MoveTuple]]


def _order(item: tuple[tuple[Any, ...], int, MoveTuple]) -> tuple[tuple[Any, ...], int]:
    return item[0], item[1]


class Bot:
    name: ClassVar[str] = ""
    version: ClassVar[int] = 0

    def __init__(self, seed: int = 0) -> None:
        SplitMix64(seed)  # validates the seed the same way the engine does
        self.seed = seed & MASK64

    def __repr__(self) -> str:
        cls = type(self).__name__
        return f"{cls}(name={self.name!r}, version={self.version}, seed={self.seed})"

    def choose(self, game: Any) -> MoveTuple:
        """``rank(game.values, game.size, game.rules, k=1)[0]``, computed more directly."""
        seen = seen_in_game(game)
        size = game.size
        best = self.best(seen, geometry(size), tie_state(self.seed, seen))
        if best is None:
            raise ValueError("there is no number to move")
        return best

    def best(self, seen: tuple[int, ...], geo: Geometry, tie: int) -> MoveTuple | None:
        """The first move of the ranking (``None`` on an empty board).

        ``tie`` is ``tie_state(seed, seen)``. Bots may compute it more cheaply
        than by scoring every move, but must return the same move.
        """
        scored = self.score(seen, geo, SplitMix64(tie))
        if not scored:
            return None
        return min(scored, key=_order)[2]

    def rank(self, values: Sequence[int], size: int, rules: RuleSet, k: int = 3) -> list[MoveTuple]:
        """The bot's ``k`` preferred legal moves on this board, best first."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError("k must be a positive integer")
        seen = observe(values, size, rules)
        rng = tie_breaker(self.seed, seen)
        scored = self.score(seen, geometry(size), rng)
        return pick(scored, seen, size, k)

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        """Every candidate move as ``(key, tiebreak, move)``; smaller keys are better."""
        raise NotImplementedError
