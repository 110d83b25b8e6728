"""The random bot: the engine's ``RandomPolicy`` with a ranking added.

``choose`` is exactly ``RandomPolicy.choose`` (same name, same version, same
draws), so games played by ``policies.play`` and by this bot agree. ``rank``
orders distinct moves at random: a number drawn uniformly, then a direction,
repeated until ``k`` distinct moves are found, from a generator seeded by the
bot's seed and the board, so that a ranking is a pure function of the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import MoveTuple
from ..policies import RandomPolicy
from ..rng import MASK64
from ..rules import RuleSet
from .board import effect, geometry, observe, tie_breaker


class RandomBot(RandomPolicy):
    name = "random"
    version = RandomPolicy.version

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seed = seed & MASK64

    def __repr__(self) -> str:
        return f"RandomBot(name={self.name!r}, version={self.version}, seed={self.seed})"

    def rank(self, values: Sequence[int], size: int, rules: RuleSet, k: int = 3) -> list[MoveTuple]:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError("k must be a positive integer")
        seen = observe(values, size, rules)
        geo = geometry(size)
        numbers = [i for i, v in enumerate(seen) if v]
        remaining = [(i, j) for i in numbers for j in geo.neighbours[i]]
        rng = tie_breaker(self.seed, seen)
        chosen: list[MoveTuple] = []
        effects: set[frozenset[tuple[int, int]]] = set()
        while remaining and len(chosen) < k:
            sources = sorted({i for i, _ in remaining})
            src = sources[rng.below(len(sources))]
            options = [pair for pair in remaining if pair[0] == src]
            pair = options[rng.below(len(options))]
            remaining.remove(pair)
            move = geo.move(*pair)
            change = effect(seen, size, move)
            if change not in effects:
                effects.add(change)
                chosen.append(move)
        return chosen
