"""The greedy complement bot.

1. If two neighbouring numbers add up to 0 mod 10, annihilate them. Among
   such pairs, the one nearest the border goes first: numbers on or near an
   edge are what lets a group touch two opposite edges and end the game.
2. Otherwise step a number one cell toward its nearest complement (the
   nearest number that would annihilate it, by Manhattan distance), choosing
   the number whose complement is nearest. Between equally near pairs it
   prefers a step into an empty cell (a step onto another number changes that
   number), then a step away from the border.
3. A number with no complement on the board steps toward the nearest number,
   so that it fuses with it.

Phi-Lambda: two Lambdas surely annihilate; two Phis may, so Phi pairs are
treated as complements ranked just after the sure ones, and a Phi and a
Lambda never are.
"""

from __future__ import annotations

from ..rng import SplitMix64
from .base import Bot, Scored
from .board import UNKNOWN, Geometry, complement_of

# Tiers of the ranking key; every legal move falls into exactly one.
SURE_ANNIHILATION = 0
POSSIBLE_ANNIHILATION = 1
TOWARD_COMPLEMENT = 2
TOWARD_NEAREST = 3
OTHER = 4


def nearest(i: int, candidates: list[int], geo: Geometry) -> tuple[int, list[int]]:
    """The smallest Manhattan distance from ``i`` to ``candidates`` and who is at it."""
    ri, ci = geo.coords[i]
    coords = geo.coords
    best = 1 << 30
    at: list[int] = []
    for j in candidates:
        if j == i:
            continue
        rj, cj = coords[j]
        d = abs(ri - rj) + abs(ci - cj)
        if d < best:
            best, at = d, [j]
        elif d == best:
            at.append(j)
    return best, at


class GreedyBot(Bot):
    name = "greedy"
    version = 1

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        numbers = [i for i, v in enumerate(seen) if v]
        by_value: dict[int, list[int]] = {}
        for i in numbers:
            by_value.setdefault(seen[i], []).append(i)
        coords, border, neighbours = geo.coords, geo.border, geo.neighbours
        tiebreak = rng.next64
        scored: Scored = []
        for i in numbers:
            v = seen[i]
            best, targets = nearest(i, by_value.get(complement_of(v), []), geo)
            if targets:
                step_tier = TOWARD_COMPLEMENT
            else:
                best, targets = nearest(i, numbers, geo)
                step_tier = TOWARD_NEAREST
            unsure = int(v == UNKNOWN)
            for j in neighbours[i]:
                w = seen[j]
                rj, cj = coords[j]
                inward = border[i] - border[j]  # negative when the step leaves the border
                closer = any(
                    abs(rj - coords[t][0]) + abs(cj - coords[t][1]) < best for t in targets
                )
                if w and step_tier == TOWARD_COMPLEMENT and best == 1 and j in targets:
                    tier = POSSIBLE_ANNIHILATION if unsure else SURE_ANNIHILATION
                    key: tuple[int, ...] = (
                        tier, min(border[i], border[j]), max(border[i], border[j])
                    )
                elif closer:
                    onto_other = int(bool(w) and j not in targets)
                    key = (step_tier, best, unsure, onto_other, inward)
                else:
                    key = (OTHER, int(bool(w)), inward)
                scored.append((key, tiebreak(), geo.move(i, j)))
        return scored

