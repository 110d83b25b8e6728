"""The engine's own pseudo-random generator.

Recorded games must replay identically on every machine and in every future
release, so the noise stream cannot depend on a library whose algorithm may
change. The engine uses SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit
state advanced by a fixed odd constant and passed through a bijective mixing
function. It is tiny, fast in pure Python, passes BigCrush, and its whole
state is one integer, which makes a game's position easy to store.

Integers in a range are drawn by rejection so that every value is exactly
equally likely: a 64-bit output ``r`` is accepted when ``r`` falls below the
largest multiple of ``n`` that fits in 64 bits, and ``r % n`` is returned.

Changing anything in this module changes every game: it is part of the
engine version (see ``games.engine.version``).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_TWO_64 = 1 << 64


class SplitMix64:
    """A SplitMix64 stream. ``state`` may be read and restored at any time."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an integer")
        if not 0 <= seed <= MASK64:
            raise ValueError("seed must be in 0 .. 2**64 - 1")
        self.state = seed

    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN_GAMMA) & MASK64
        s = ((s ^ (s >> 30)) * _MIX1) & MASK64
        s = ((s ^ (s >> 27)) * _MIX2) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniformly distributed integer in ``0 .. n-1`` (``n`` >= 1)."""
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _TWO_64 - (_TWO_64 % n)
            if len(_LIMITS) < 4096:
                _LIMITS[n] = limit
        # next64, written out: this is the hottest function of the engine.
        while True:
            self.state = s = (self.state + _GOLDEN_GAMMA) & MASK64
            s = ((s ^ (s >> 30)) * _MIX1) & MASK64
            s = ((s ^ (s >> 27)) * _MIX2) & MASK64
            r = s ^ (s >> 31)
            if r < limit:
                return r % n


# The rejection limit of ``below(n)`` for the small ranges the engine uses.
_LIMITS: dict[int, int] = {}
