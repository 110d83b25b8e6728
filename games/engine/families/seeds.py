"""Seeds of a threshold sweep's shots.

A sweep is given one seed ``S``. Shot ``k`` of the point (L, p) takes
``shot_seed(seed=S, size=L, rate=p, shot=k)``, a pure function of those four
numbers: the same shot is the same game whichever worker plays it and however
the shots are split into chunks. The family, the bot and ``m`` are not part
of it, so two bots (or two families) at one point face the same first boards
(common random numbers make their comparison sharper); a family's kind may
then adapt it (``FamilyKind.shot_seed``: the planar family keeps 63 bits).
From a shot's seed, the noise takes the seed itself and the bot
``bot_seed(seed)``.
"""

from __future__ import annotations

import struct

from ..rng import MASK64

_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    """SplitMix64's output function: a bijection of 64-bit integers."""
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


def _absorb(state: int, word: int) -> int:
    return _mix((state ^ word) + _GOLDEN_GAMMA & MASK64)


def shot_seed(*, seed: int, size: int, rate: float, shot: int) -> int:
    """The seed of shot ``shot`` at the point (``size``, ``rate``) of a sweep seeded ``seed``.

    Each number is absorbed into a SplitMix64 state in turn (xor, then one
    step): seed, size, the IEEE-754 bits of ``rate``, shot.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError("seed must be an integer from 0 to 2**64 - 1")
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MASK64:
        raise ValueError("size must be a non-negative integer")
    if isinstance(shot, bool) or not isinstance(shot, int) or not 0 <= shot <= MASK64:
        raise ValueError("shot must be an integer from 0 to 2**64 - 1")
    if isinstance(rate, bool) or not isinstance(rate, int | float):
        raise ValueError("rate must be a number")
    (rate_bits,) = struct.unpack("<Q", struct.pack("<d", float(rate)))
    state = seed
    for word in (size, rate_bits, shot):
        state = _absorb(state, word)
    return state


def bot_seed(seed: int) -> int:
    """The bot's seed (for its tie-breaks) in the shot whose noise seed is ``seed``."""
    return _absorb(seed, 0xB07)
