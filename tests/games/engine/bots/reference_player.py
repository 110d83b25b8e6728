"""Version 1 of the player bot as it was first written, every term added inline.

The bot now scores with the shared features (``games.engine.strategy``) and
its weight vector; this copy is what it must still agree with to the bit, so
that every game it has played replays.
"""

from __future__ import annotations

from games.engine.bots.base import Bot, Scored
from games.engine.bots.board import (
    UNKNOWN,
    Geometry,
    certain_zero,
    combine,
    complement_of,
    maybe_zero,
)
from games.engine.bots.clustering import grow_clusters
from games.engine.rng import SplitMix64

# Removing two numbers at once is the only move that surely undoes noise, so
# it outweighs every combination of the positional features below.
W_ANNIHILATE = 100.0
# Two Phis may annihilate (a Phi's complement is always a Phi): worth trying,
# but after every sure annihilation.
W_ANNIHILATE_PHIS = 40.0
# Fusing two numbers of one believed group leaves one number fewer without
# growing any group.
W_FUSE_SAME_GROUP = 6.0
# Landing on a number of another believed group merges the two real groups if
# the guess is right: the merged group is larger and nearer to spanning.
W_MERGE_GROUPS = -8.0
# Each step toward the partner is a step toward an annihilation.
W_PARTNER_GAIN = 4.0
# Nearer pairs are finished within fewer moves, before the next noise round.
W_PARTNER_DISTANCE = -0.5
# A partner in the same believed group is more likely the true partner.
W_PARTNER_SAME_GROUP = 2.0
# Stepping toward the group's centroid shrinks the group's extent.
W_CENTROID_GAIN = 1.5
# Larger groups hold more of the board and are more likely to span.
W_GROUP_SIZE = 0.3
# Progress on a group near spanning matters most; scaled by urgency in [0, 1].
W_URGENCY = 5.0
# A neighbour that would annihilate the moved number sets up the next move.
W_HELPFUL_NEIGHBOUR = 2.0
# Each cell away from the border, for a number that sits on it.
W_LEAVE_BORDER = 1.0


class ReferencePlayerBot(Bot):
    name = "player"
    version = 1

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        coords, neighbours, border = geo.coords, geo.neighbours, geo.border
        last = geo.size - 1
        clusters = grow_clusters(seen, geo)
        owner = [-1] * geo.cells
        centroid: list[tuple[float, float]] = []
        urgency: list[float] = []
        for index, cluster in enumerate(clusters):
            for c in cluster.cells:
                owner[c] = index
            n = len(cluster.cells)
            centroid.append((sum(coords[c][0] for c in cluster.cells) / n,
                             sum(coords[c][1] for c in cluster.cells) / n))
            urgency.append(1.0 - cluster.gap / last if n > 1 else 0.0)
        by_value: dict[int, list[int]] = {}
        for i, v in enumerate(seen):
            if v:
                by_value.setdefault(v, []).append(i)

        tiebreak = rng.next64
        scored: Scored = []
        for i, v in enumerate(seen):
            if not v:
                continue
            group = owner[i]
            ri, ci = coords[i]
            partner, partner_distance, partner_same = -1, 0, False
            best: tuple[int, int] | None = None
            for p in by_value.get(complement_of(v), ()):
                if p == i:
                    continue
                d = abs(ri - coords[p][0]) + abs(ci - coords[p][1])
                key = (int(owner[p] != group), d)
                if best is None or key < best:
                    best, partner = key, p
            if best is not None:
                partner_distance, partner_same = best[1], best[0] == 0
            cr, cc = centroid[group]
            here_to_centroid = abs(ri - cr) + abs(ci - cc)
            size_term = W_GROUP_SIZE * len(clusters[group].cells)
            for j in neighbours[i]:
                w = seen[j]
                rj, cj = coords[j]
                score = size_term
                progress = False
                if w and certain_zero(v, w):
                    score += W_ANNIHILATE
                    progress = True
                elif w and maybe_zero(v, w):
                    score += W_ANNIHILATE_PHIS
                    progress = True
                elif w and owner[j] == group:
                    score += W_FUSE_SAME_GROUP
                    progress = True
                elif w:
                    score += W_MERGE_GROUPS
                if partner >= 0:
                    pr, pc = coords[partner]
                    gain = partner_distance - (abs(rj - pr) + abs(cj - pc))
                    score += W_PARTNER_GAIN * gain + W_PARTNER_DISTANCE * partner_distance
                    if partner_same:
                        score += W_PARTNER_SAME_GROUP
                    progress = progress or gain > 0
                centroid_gain = here_to_centroid - (abs(rj - cr) + abs(cj - cc))
                score += W_CENTROID_GAIN * centroid_gain
                if progress:
                    score += W_URGENCY * urgency[group]
                if border[i] == 0:
                    score += W_LEAVE_BORDER * (border[j] - border[i])
                result = combine(v, w) if not (w and certain_zero(v, w)) else 0
                if result:
                    helpful = 0
                    for k in neighbours[j]:
                        if k != i and seen[k] and seen[k] != UNKNOWN and certain_zero(
                            result, seen[k]
                        ):
                            helpful += 1
                    score += W_HELPFUL_NEIGHBOUR * helpful
                scored.append(((-score,), tiebreak(), geo.move(i, j)))
        return scored
