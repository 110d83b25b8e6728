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

SplitMix64's n-th output is a function of ``seed + n * gamma`` alone, so the
outputs can be computed ahead of use in blocks. Drawing is the engine's
hottest path (about half of a bot's time in pure Python), so outputs are
made in blocks that grow with use, and with NumPy's wrapping 64-bit
arithmetic when it is installed. The values are the same either way; only
the speed differs. ``state`` always reads as if each output had been made
on demand, so a saved state resumes exactly.

Changing the values this module produces changes every game: they are part
of the engine version (see ``games.engine.version``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain, repeat
from operator import length_hint

try:
    import numpy
except ImportError:  # the engine runs without it, only slower
    numpy = None  # type: ignore[assignment]  # checked before every use

MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_TWO_64 = 1 << 64

# A stream starts with a small block made in Python, enough for a bot's
# tie-breaks; then blocks of _FIRST_LARGE_BLOCK outputs and more, which is
# where NumPy's fixed cost per call (some 15 microseconds) is worth paying.
_FIRST_BLOCK = 8
_FIRST_LARGE_BLOCK = 512
_MAX_BLOCK = 4096


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


def _outputs_python(state: int, count: int) -> list[int]:
    return [_mix((state + k * _GOLDEN_GAMMA) & MASK64) for k in range(1, count + 1)]


_GAMMA_MULTIPLES = None


def _outputs_numpy(state: int, count: int) -> list[int]:
    # uint64 arrays wrap modulo 2**64 silently, which is exactly SplitMix64's arithmetic.
    global _GAMMA_MULTIPLES
    if _GAMMA_MULTIPLES is None:
        _GAMMA_MULTIPLES = numpy.arange(1, _MAX_BLOCK + 1, dtype=numpy.uint64)
        _GAMMA_MULTIPLES *= numpy.uint64(_GOLDEN_GAMMA)
    z = _GAMMA_MULTIPLES[:count] + numpy.uint64(state)
    z ^= z >> numpy.uint64(30)
    z *= numpy.uint64(_MIX1)
    z ^= z >> numpy.uint64(27)
    z *= numpy.uint64(_MIX2)
    z ^= z >> numpy.uint64(31)
    block: list[int] = z.tolist()
    return block


def outputs(state: int, count: int) -> list[int]:
    """The next ``count`` outputs of a stream whose state is ``state``."""
    if numpy is not None and _FIRST_LARGE_BLOCK <= count <= _MAX_BLOCK:
        return _outputs_numpy(state, count)
    return _outputs_python(state, count)


class SplitMix64:
    """A SplitMix64 stream. ``state`` may be read and restored at any time.

    Outputs come from one C-level iterator chained over the blocks, so a draw
    costs no Python function call beyond ``below`` itself.
    """

    __slots__ = ("_block", "_block_size", "_block_start", "_grow", "_next")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an integer")
        if not 0 <= seed <= MASK64:
            raise ValueError("seed must be in 0 .. 2**64 - 1")
        self._restart(seed)

    def _restart(self, state: int) -> None:
        self._block_start = state  # the state before the current block's first output
        self._block_size = 0
        self._block: Iterator[int] = iter(())
        self._grow = _FIRST_BLOCK
        self._next = chain.from_iterable(map(self._new_block, repeat(None))).__next__

    def _new_block(self, _: None) -> Iterator[int]:
        start = (self._block_start + self._block_size * _GOLDEN_GAMMA) & MASK64
        size = self._grow
        self._grow = _FIRST_LARGE_BLOCK if size < _FIRST_LARGE_BLOCK else min(2 * size, _MAX_BLOCK)
        self._block_start = start
        self._block_size = size
        self._block = iter(outputs(start, size))
        return self._block

    @property
    def state(self) -> int:
        used = self._block_size - length_hint(self._block)
        return (self._block_start + used * _GOLDEN_GAMMA) & MASK64

    @state.setter
    def state(self, value: int) -> None:
        self._restart(value & MASK64)

    def next64(self) -> int:
        return self._next()

    def outputs(self) -> Callable[[], int]:
        """The stream's raw 64-bit outputs, one per call, for inlined draws.

        ``below(n)`` is ``r % n`` of the first output ``r`` under
        ``rejection_limit(n)``; the engine's hottest loops write that out
        (``r = draw()``, ``if r >= limit: r = rng.redraw(limit)``) to save a
        call per draw. The callable is valid until ``state`` is assigned.
        """
        return self._next

    def redraw(self, limit: int) -> int:
        """Draw until an output falls under ``limit`` (after one was rejected)."""
        draw = self._next
        r = draw()
        while r >= limit:
            r = draw()
        return r

    def below(self, n: int) -> int:
        """A uniformly distributed integer in ``0 .. n-1`` (``n`` >= 1)."""
        limit = _LIMITS.get(n)
        if limit is None:
            limit = rejection_limit(n)
        r = self._next()
        if r >= limit:
            r = self.redraw(limit)
        return r % n


def rejection_limit(n: int) -> int:
    """The largest multiple of ``n`` up to 2**64: outputs at or above it are redrawn."""
    limit = _LIMITS.get(n)
    if limit is None:
        limit = _TWO_64 - (_TWO_64 % n)
        if len(_LIMITS) < 4096:
            _LIMITS[n] = limit
    return limit


# The rejection limit of ``below(n)`` for the small ranges the engine uses.
_LIMITS: dict[int, int] = {}
