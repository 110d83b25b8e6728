"""What a bot sees of a board, and the geometry every bot shares.

A bot sees the values a player sees and nothing else: never the group ids.
In the Z10 variant that is the numbers 1-9; in the Phi-Lambda variant a 5 is
shown as Lambda and every other number as Phi, so a bot sees 5 for a Lambda
and ``UNKNOWN`` for a Phi. ``observe`` turns the engine's values into that
view; it is idempotent, so a caller may pass either true or observed values.

Cells are row-major indices ``row * size + col``; moves are tuples
``(from_row, from_col, to_row, to_col)`` as the engine takes them.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from typing import Any

from ..events import MoveTuple
from ..game import Game
from ..rng import _GOLDEN_GAMMA, _MIX1, _MIX2, MASK64, SplitMix64
from ..rules import MAX_FAMILY_SIZE, MIN_SIZE, RuleSet
from ..variants import variant_kind

UNKNOWN = -1
"""A Phi in the Phi-Lambda variant: a number whose value is not shown."""

LAMBDA = 5



def observe(values: Sequence[int], size: int, rules: RuleSet | dict[str, Any]) -> tuple[int, ...]:
    """The board as the player sees it under ``rules`` (validated).

    ``rules`` may also be a stored rule set (``RuleSet.to_dict()``); only its
    variant matters here. Any integer type is accepted for the values.
    """
    largest = MAX_FAMILY_SIZE  # the threshold families' boards are the largest
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= largest:
        raise ValueError(f"size must be an integer from {MIN_SIZE} to {largest}")
    if len(values) != size * size:
        raise ValueError(f"expected {size * size} values for a {size}x{size} board")
    if isinstance(rules, dict):
        rules = RuleSet.from_dict(rules)
    # Where the values are hidden (Phi-Lambda) only a Lambda, a 5, is seen for what it is.
    phi_lambda = not variant_kind(rules.variant).shows_values
    seen = []
    for v in values:
        if isinstance(v, bool):
            raise ValueError("values must be integers")
        try:
            v = operator.index(v)
        except TypeError:
            raise ValueError("values must be integers") from None
        if v == 0:
            seen.append(0)
        elif 1 <= v <= 9:
            seen.append(UNKNOWN if phi_lambda and v != LAMBDA else v)
        elif v == UNKNOWN and phi_lambda:
            seen.append(UNKNOWN)
        else:
            raise ValueError(f"{v} is not a value a player can see under these rules")
    return tuple(seen)


def complement_of(value: int) -> int:
    """The value that annihilates ``value``; a Phi's possible partners are Phis."""
    if value == UNKNOWN:
        return UNKNOWN
    return (10 - value) % 10


def certain_zero(a: int, b: int) -> bool:
    """Whether two seen values surely add up to 0 mod 10."""
    return a != UNKNOWN and b != UNKNOWN and (a + b) % 10 == 0


def maybe_zero(a: int, b: int) -> bool:
    """Whether two seen values may add up to 0 mod 10 (two Phis may)."""
    if a == UNKNOWN or b == UNKNOWN:
        return a == b
    return (a + b) % 10 == 0


def combine(a: int, b: int) -> int:
    """The seen value of ``a`` moved onto ``b`` (``UNKNOWN`` when it cannot be told)."""
    if b == 0:
        return a
    if a == UNKNOWN or b == UNKNOWN:
        # Phi + Lambda is a Phi; Phi + Phi is unknown, possibly 0 or 5.
        return UNKNOWN
    return (a + b) % 10


class Geometry:
    """Per-size tables: coordinates, neighbours and distance to the border."""

    __slots__ = ("border", "cells", "coords", "neighbours", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = size * size
        self.coords = tuple(divmod(i, size) for i in range(self.cells))
        last = size - 1
        neighbours = []
        border = []
        for row, col in self.coords:
            i = row * size + col
            nb = []
            if row > 0:
                nb.append(i - size)
            if row < last:
                nb.append(i + size)
            if col > 0:
                nb.append(i - 1)
            if col < last:
                nb.append(i + 1)
            neighbours.append(tuple(nb))
            border.append(min(row, col, last - row, last - col))
        self.neighbours = tuple(neighbours)
        self.border = tuple(border)

    def distance(self, a: int, b: int) -> int:
        ra, ca = self.coords[a]
        rb, cb = self.coords[b]
        return abs(ra - rb) + abs(ca - cb)

    def move(self, src: int, dst: int) -> MoveTuple:
        return (*self.coords[src], *self.coords[dst])


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


def tie_breaker(seed: int, seen: Sequence[int]) -> SplitMix64:
    """A generator seeded by the bot's seed and the board it sees.

    Ties are broken with it, so a bot's ranking of a board depends on its seed
    and that board only, not on the boards it was shown before.
    """
    return SplitMix64(tie_state(seed, seen))


def tie_state(seed: int, seen: Sequence[int]) -> int:
    """The state ``tie_breaker`` starts from: each number absorbed in cell order.

    For every cell ``i`` holding a seen value ``v``: ``state ^= (i << 4) | (v & 15)``,
    then ``state`` becomes the next SplitMix64 output from it. Written out
    (no generator objects) because every move of a bot makes it.
    """
    state = seed & MASK64
    for i, v in enumerate(seen):
        if v:
            z = ((state ^ ((i << 4) | (v & 15))) + _GOLDEN_GAMMA) & MASK64
            z = ((z ^ (z >> 30)) * _MIX1) & MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & MASK64
            state = z ^ (z >> 31)
    return state


def nth_output(state: int, n: int) -> int:
    """Output ``n`` (counted from 1) of a SplitMix64 stream whose state is ``state``."""
    z = (state + n * _GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


_PHI_LAMBDA_VIEW = (0, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, LAMBDA,
                    UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)


def seen_in_game(game: Any) -> tuple[int, ...]:
    """``observe(game.values, game.size, game.rules)``, without checks for an engine ``Game``.

    A ``Game``'s values are always 0-9, so only anything else is checked.
    """
    if not isinstance(game, Game):
        return observe(game.values, game.size, game.rules)
    values = game._values
    if not variant_kind(game.rules.variant).shows_values:
        view = _PHI_LAMBDA_VIEW
        return tuple([view[v] for v in values])
    return tuple(values)


def effect(seen: Sequence[int], size: int, move: MoveTuple) -> frozenset[tuple[int, int]]:
    """The cells ``move`` changes, with their new seen values.

    Two moves have the same effect exactly when they annihilate the same pair
    (either way round); every other pair of distinct legal moves differs.
    """
    fr, fc, tr, tc = move
    src, dst = fr * size + fc, tr * size + tc
    moved, before = seen[src], seen[dst]
    after = 0 if before and certain_zero(moved, before) else combine(moved, before)
    return frozenset(((src, 0), (dst, after)))


def same_effect(values: Sequence[int], size: int, rules: RuleSet, a: MoveTuple,
                b: MoveTuple) -> bool:
    """Whether two legal moves leave the same board (an annihilation either way round)."""
    seen = observe(values, size, rules)
    return a == b or effect(seen, size, a) == effect(seen, size, b)


def pick(scored: list[tuple[tuple[Any, ...], int, MoveTuple]], seen: Sequence[int], size: int,
         k: int) -> list[MoveTuple]:
    """The best ``k`` moves of ``(key, tiebreak, move)``, one per distinct effect.

    Two moves with the same effect (annihilating a pair either way round) count
    once: the better-ranked one is kept.
    """
    scored.sort(key=lambda item: (item[0], item[1]))
    chosen: list[MoveTuple] = []
    effects: set[frozenset[tuple[int, int]]] = set()
    for _, _, move in scored:
        change = effect(seen, size, move)
        if change in effects:
            continue
        effects.add(change)
        chosen.append(move)
        if len(chosen) >= k:
            break
    return chosen
