"""A tiny seeded random generator for the puzzle engines.

Puzzles must be regenerated identically from their seed on every machine and
in every future release, so the engines do not rely on the ``random``
module (only ``random.random()`` is documented as stable across Python
versions; ``randrange``, ``shuffle`` and ``choice`` have changed before).

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable
pseudorandom number generators", OOPSLA 2014): a 64-bit counter advanced by
the odd constant ``0x9E3779B97F4A7C15`` and passed through a bijective
mixing function. Integers below ``n`` are drawn by rejection, so every
value is exactly equally likely. The sequence is part of each engine's
version: changing it changes every generated puzzle.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """Deterministic random numbers from a non-negative integer seed."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError("the seed must be a non-negative integer")
        self._state = seed & MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + GOLDEN_GAMMA) & MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``, every value equally likely."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator``."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next64())
