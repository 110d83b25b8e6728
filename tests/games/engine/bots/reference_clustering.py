"""The clustering bot's growth written the plain way, as a reference for the fast one.

Every array spans the whole board and every radius scans every number, as
the module notes of ``games.engine.bots.clustering`` describe the growth;
the medoid is found by summing the distances to every member.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.bots import UNKNOWN, Cluster
from games.engine.bots.board import Geometry


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


def reference_grow_clusters(seen: Sequence[int], geo: Geometry) -> list[Cluster]:
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


