"""The clustering bot: a hard-decision renormalisation-group (HDRG) decoder.

Decoding as in Bravyi and Haah's clustering decoder and Wootton's decoder for
this very game, on the values alone:

1. Growth. Every number starts as its own cluster. A cluster is *neutral*
   when its values add up to 0 mod 10: it could be annihilated by fusing its
   numbers. At radius r = 1, 2, ... every charged (non-neutral) cluster
   absorbs every cluster with a number within Manhattan distance r of one of
   its own. Neutral clusters stop growing (a charged one may still reach them).
   Within one radius, merges that make a neutral cluster are done first, so
   that two complements next to each other pair up before a third number
   joins them. Growth stops when every cluster is neutral; on a Z10 board the
   values always add up to 0 mod 10, so it always does.
2. Fusion. Each cluster is fused at its medoid (the member with the smallest
   total distance to the others): members step toward it and add up until
   the cluster annihilates. Two complements of one cluster that are already
   side by side are annihilated first.
3. Priority. Moves go first to the cluster nearest to spanning: the smallest
   *gap*, the number of rows (or columns) the cluster still misses to touch
   two opposite edges; then the larger cluster, then the cheaper one (fewer
   moves to fuse). The ranking is recomputed after every move, so the
   round's moves keep going to whichever cluster is then the most urgent.
   (Going cheapest first among clusters at least half a board from spanning
   made no measurable difference at L = 7 and 10.)

Phi-Lambda: a cluster is taken to be neutral when it may be, i.e. its
Lambdas are even in number and it has no Phi, or it has at least two Phis
(their values could add up to anything); a single Phi never balances
Lambdas, since it is neither 0 nor 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rng import SplitMix64
from ..rules import RuleSet
from .base import Bot, Scored
from .board import UNKNOWN, Geometry, certain_zero, geometry, observe


@dataclass(frozen=True, slots=True)
class Cluster:
    """An inferred group: its cells (row-major indices), balance and shape."""

    cells: tuple[int, ...]
    neutral: bool
    radius: int  # the growth radius at which the cluster took its final form (0: alone)
    center: int  # the medoid, where the cluster is fused
    gap: int  # rows or columns still missing to touch two opposite edges (0: spans)
    cost: int  # total distance of the members to the center: moves to fuse it

    def positions(self, size: int) -> list[tuple[int, int]]:
        return [divmod(c, size) for c in self.cells]


def _balanced(total: int, phis: int) -> bool:
    if phis == 0:
        return total % 10 == 0
    if phis == 1:
        return (-total) % 10 not in (0, 5)
    return True


def _ring(i: int, r: int, geo: Geometry) -> list[int]:
    """The cells at Manhattan distance exactly ``r`` from cell ``i``."""
    size = geo.size
    row, col = geo.coords[i]
    cells = []
    for dr in range(-r, r + 1):
        rr = row + dr
        if not 0 <= rr < size:
            continue
        dc = r - abs(dr)
        if col - dc >= 0:
            cells.append(rr * size + col - dc)
        if dc and col + dc < size:
            cells.append(rr * size + col + dc)
    return cells


def grow_clusters(seen: Sequence[int], geo: Geometry) -> list[Cluster]:
    """Grow clusters on a seen board until every one is neutral (see the module notes)."""
    numbers = [i for i, v in enumerate(seen) if v]
    parent = list(range(geo.cells))
    total = [v if v != UNKNOWN else 0 for v in seen]
    phis = [int(v == UNKNOWN) for v in seen]
    formed = [0] * geo.cells
    neutral = [_balanced(total[i], phis[i]) if seen[i] else True for i in range(geo.cells)]

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    charged = sum(1 for i in numbers if not neutral[i])
    max_radius = 2 * (geo.size - 1)
    radius = 0
    while charged and radius < max_radius:
        radius += 1
        pairs = []
        for i in numbers:
            if neutral[find(i)]:
                continue
            for j in _ring(i, radius, geo):
                if seen[j]:
                    pairs.append((i, j))
        for only_neutralising in (True, False):
            for i, j in pairs:
                a, b = find(i), find(j)
                if a == b or (neutral[a] and neutral[b]):
                    continue
                t, p = (total[a] + total[b]) % 10, phis[a] + phis[b]
                now_neutral = _balanced(t, p)
                if only_neutralising and not now_neutral:
                    continue
                if b < a:
                    a, b = b, a
                charged -= (not neutral[a]) + (not neutral[b]) - (not now_neutral)
                parent[b] = a
                total[a], phis[a], neutral[a], formed[a] = t, p, now_neutral, radius

    members: dict[int, list[int]] = {}
    for i in numbers:
        members.setdefault(find(i), []).append(i)
    return [
        _describe(cells, neutral[root], formed[root], geo) for root, cells in members.items()
    ]


def _describe(cells: list[int], neutral: bool, radius: int, geo: Geometry) -> Cluster:
    coords = geo.coords
    size = geo.size
    rows = [coords[c][0] for c in cells]
    cols = [coords[c][1] for c in cells]
    last = size - 1
    gap = min(min(rows) + last - max(rows), min(cols) + last - max(cols))
    if len(cells) == 1:
        return Cluster(tuple(cells), neutral, radius, cells[0], gap, 0)
    mean_r, mean_c = sum(rows) / len(cells), sum(cols) / len(cells)
    best = (1 << 30, 0.0, cells[0])
    for c in cells:
        rc, cc = coords[c]
        spread = sum(abs(rc - coords[o][0]) + abs(cc - coords[o][1]) for o in cells)
        key = (spread, abs(rc - mean_r) + abs(cc - mean_c), c)
        if key < best:
            best = key
    return Cluster(tuple(cells), neutral, radius, best[2], gap, best[0])


def clusters_of(values: Sequence[int], size: int, rules: RuleSet) -> list[Cluster]:
    """The clusters the bot infers on a board of values, most urgent first."""
    geo = geometry(size)
    return sorted(grow_clusters(observe(values, size, rules), geo),
                  key=_urgency)


def _urgency(cluster: Cluster) -> tuple[int, ...]:
    return (cluster.gap, -len(cluster.cells), cluster.cost, cluster.center)


# Ranks of the moves inside one cluster.
_ANNIHILATE, _FUSE, _STEP, _STEP_ONTO_OTHER = range(4)


class ClusteringBot(Bot):
    name = "clustering"
    version = 1

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        clusters = sorted(grow_clusters(seen, geo), key=_urgency)
        coords, neighbours = geo.coords, geo.neighbours
        tiebreak = rng.next64
        owner = [-1] * geo.cells
        for rank, cluster in enumerate(clusters):
            for c in cluster.cells:
                owner[c] = rank
        scored: Scored = []
        for i, v in enumerate(seen):
            if not v:
                continue
            rank = owner[i]
            center = clusters[rank].center
            rc, cc = coords[center]
            ri, ci = coords[i]
            here = abs(ri - rc) + abs(ci - cc)
            for j in neighbours[i]:
                w = seen[j]
                rj, cj = coords[j]
                there = abs(rj - rc) + abs(cj - cc)
                same = owner[j] == rank
                if w and same and certain_zero(v, w):
                    key: tuple[int, ...] = (0, rank, _ANNIHILATE, -here)
                elif there < here and len(clusters[rank].cells) > 1:
                    if w and same:
                        key = (0, rank, _FUSE, -here)
                    elif w:
                        key = (0, rank, _STEP_ONTO_OTHER, -here)
                    else:
                        key = (0, rank, _STEP, -here)
                else:
                    key = (1, int(bool(w)), geo.border[i] - geo.border[j])
                scored.append((key, tiebreak(), geo.move(i, j)))
        return scored
