"""The clustering bot (``RenormalisationBot``, stored as ``clustering``): a hard-decision
renormalisation-group (HDRG) decoder.

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

One-shot boards (version 2): a threshold shot of the one-shot family gets
no noise after its first board, so ``families.decode`` decodes it with a
``FusionPlan`` (``RenormalisationBot.plan()``), which grows the clusters once and
follows them move by move instead of growing them again on every board.
``choose`` and ``rank`` on a single board are those of version 1.

Phi-Lambda: a cluster is taken to be neutral when it may be, i.e. its
Lambdas are even in number and it has no Phi, or it has at least two Phis
(their values could add up to anything); a single Phi never balances
Lambdas, since it is neither 0 nor 5.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..events import MoveTuple
from ..rng import SplitMix64
from ..rules import RuleSet
from .base import Bot, Scored
from .board import (
    UNKNOWN,
    Geometry,
    certain_zero,
    geometry,
    nth_output,
    observe,
    seen_in_game,
)


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


# Rings of small radii, for every cell of a size: most growth ends within them.
_RING_TABLE_RADIUS = 6
_RING_TABLES: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _rings(geo: Geometry, r: int) -> tuple[tuple[int, ...], ...] | None:
    """``_ring(i, r, geo)`` for every cell ``i``, for small ``r`` (else ``None``)."""
    if r > _RING_TABLE_RADIUS:
        return None
    table = _RING_TABLES.get((geo.size, r))
    if table is None:
        table = _RING_TABLES[(geo.size, r)] = tuple(
            tuple(_ring(i, r, geo)) for i in range(geo.cells)
        )
    return table


def grow_clusters(seen: Sequence[int], geo: Geometry) -> list[Cluster]:
    """Grow clusters on a seen board until every one is neutral (see the module notes)."""
    return [
        _describe(cells, neutral, radius, geo) for cells, neutral, radius in _grow(seen, geo)
    ]


def _grow(seen: Sequence[int], geo: Geometry) -> list[tuple[list[int], bool, int]]:
    """The clusters as (cells in cell order, neutral, radius), in order of their first cell.

    Union-find over the numbers. A cluster's root is its smallest cell, so the
    result does not depend on how the finds compress paths. Each radius looks
    only at the numbers of charged clusters (kept as member lists), in cell
    order, exactly as a scan of every number would.
    """
    numbers = [i for i, v in enumerate(seen) if v]
    parent = list(range(geo.cells))
    if UNKNOWN in seen:
        total = [0 if v == UNKNOWN else v for v in seen]
        phis = [int(v == UNKNOWN) for v in seen]
        charged = {i for i in numbers if not _balanced(total[i], phis[i])}
    else:  # Z10: a lone number is never neutral
        total = list(seen)
        phis = [0] * geo.cells
        charged = set(numbers)
    neutral = [True] * geo.cells
    for i in charged:
        neutral[i] = False
    formed = [0] * geo.cells
    members: dict[int, list[int]] = {i: [i] for i in numbers}

    max_radius = 2 * (geo.size - 1)
    radius = 0
    while charged and radius < max_radius:
        radius += 1
        table = _rings(geo, radius)
        if len(charged) == len(members):
            active = numbers
        else:
            active = []
            for root in charged:
                active.extend(members[root])
            active.sort()
        if table is not None:
            pairs = [(i, j) for i in active for j in table[i] if seen[j]]
        else:
            pairs = [(i, j) for i in active for j in _ring(i, radius, geo) if seen[j]]
        for only_neutralising in (True, False):
            for i, j in pairs:
                # The roots of i and j, halving the paths on the way.
                a = parent[i]
                while a != parent[a]:
                    parent[i] = a = parent[parent[a]]
                b = parent[j]
                while b != parent[b]:
                    parent[j] = b = parent[parent[b]]
                if a == b:
                    continue
                neutral_a, neutral_b = neutral[a], neutral[b]
                if neutral_a and neutral_b:
                    continue
                t, p = (total[a] + total[b]) % 10, phis[a] + phis[b]
                now_neutral = (t == 0) if p == 0 else _balanced(t, p)
                if only_neutralising and not now_neutral:
                    continue
                if b < a:
                    a, b = b, a
                parent[b] = a
                charged.discard(a)
                charged.discard(b)
                if not now_neutral:
                    charged.add(a)
                members[a].extend(members.pop(b))
                total[a], phis[a], neutral[a], formed[a] = t, p, now_neutral, radius
    result = []
    for root in sorted(members):
        cells = members[root]
        cells.sort()
        result.append((cells, neutral[root], formed[root]))
    return result


def _distance_sums(coordinates: list[int], size: int) -> list[int]:
    """For every x in 0..size-1, the sum of |x - c| over ``coordinates``."""
    count = [0] * size
    for c in coordinates:
        count[c] += 1
    sums = [0] * size
    current = sum(coordinates)  # at x = 0
    below = 0  # coordinates <= x
    n = len(coordinates)
    for x in range(size):
        sums[x] = current
        below += count[x]
        current += below - (n - below)
    return sums


def _describe(cells: list[int], neutral: bool, radius: int, geo: Geometry) -> Cluster:
    coords = geo.coords
    size = geo.size
    rows = [coords[c][0] for c in cells]
    cols = [coords[c][1] for c in cells]
    last = size - 1
    gap = min(min(rows) + last - max(rows), min(cols) + last - max(cols))
    n = len(cells)
    if n == 1:
        return Cluster(tuple(cells), neutral, radius, cells[0], gap, 0)
    mean_r, mean_c = sum(rows) / n, sum(cols) / n
    best: tuple[int, float, int] = (1 << 30, 0.0, cells[0])
    if n * n <= 4 * size:
        for c in cells:
            rc, cc = coords[c]
            spread = sum(abs(rc - coords[o][0]) + abs(cc - coords[o][1]) for o in cells)
            key = (spread, abs(rc - mean_r) + abs(cc - mean_c), c)
            if key < best:
                best = key
    else:
        # The Manhattan spread is the sum of a row part and a column part.
        row_sums, col_sums = _distance_sums(rows, size), _distance_sums(cols, size)
        for c, rc, cc in zip(cells, rows, cols, strict=True):
            spread = row_sums[rc] + col_sums[cc]
            if spread <= best[0]:
                key = (spread, abs(rc - mean_r) + abs(cc - mean_c), c)
                if key < best:
                    best = key
    return Cluster(tuple(cells), neutral, radius, best[2], gap, best[0])


def clusters_of(values: Sequence[int], size: int, rules: RuleSet) -> list[Cluster]:
    """The clusters the bot infers on a board of values, most urgent first."""
    geo = geometry(size)
    return sorted(grow_clusters(observe(values, size, rules), geo),
                  key=_urgency)


def _most_urgent(grown: list[tuple[list[int], bool, int]], geo: Geometry) -> Cluster | None:
    """``min(map(_describe, grown), key=_urgency)``, describing only the clusters that can win.

    The urgency starts with the gap and the size, which need no medoid; only
    the clusters tied for the best of those are described in full.
    """
    size = geo.size
    last = size - 1
    best: tuple[int, int] | None = None
    tied: list[tuple[list[int], bool, int]] = []
    for entry in grown:
        cells = entry[0]
        # cells are in cell order, so the first and last hold the extreme rows.
        columns = [c % size for c in cells]
        gap = min(cells[0] // size + last - cells[-1] // size,
                  min(columns) + last - max(columns))
        key = (gap, -len(cells))
        if best is None or key < best:
            best, tied = key, [entry]
        elif key == best:
            tied.append(entry)
    if not tied:
        return None
    return min((_describe(cells, neutral, radius, geo) for cells, neutral, radius in tied),
               key=_urgency)


def _urgency(cluster: Cluster) -> tuple[int, ...]:
    return (cluster.gap, -len(cluster.cells), cluster.cost, cluster.center)


# Ranks of the moves inside one cluster.
_ANNIHILATE, _FUSE, _STEP, _STEP_ONTO_OTHER = range(4)


class RenormalisationBot(Bot):
    name = "clustering"
    version = 2

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

    def plan(self) -> FusionPlan:
        """A new ``FusionPlan``: how one-shot boards are decoded (``families.decode``)."""
        return FusionPlan(self)

    def best(self, seen: tuple[int, ...], geo: Geometry, tie: int) -> MoveTuple | None:
        """The move ``score`` ranks first, from the most urgent cluster alone.

        A cluster of two or more numbers always has a move toward its center
        (or an annihilation), keyed ``(0, rank, ...)``, which beats every move
        of a later cluster and every ``(1, ...)`` move; so when the most urgent
        cluster has two numbers or more, the best move is among its own, and
        each candidate's tie-break is the output of the tie-breaking stream at
        the candidate's place in ``score``'s order (every number's moves in
        cell order), computed directly.
        """
        top = _most_urgent(_grow(seen, geo), geo)
        if top is None:
            return None
        cells = top.cells
        if len(cells) < 2:
            return super().best(seen, geo, tie)
        coords, neighbours = geo.coords, geo.neighbours
        members = set(cells)
        rc, cc = coords[top.center]
        # Moves scored before each number's: the moves of every number before it.
        place: dict[int, int] = {}
        count = 0
        for i, v in enumerate(seen):
            if v:
                if i in members:
                    place[i] = count
                count += len(neighbours[i])
        best_key: tuple[tuple[int, ...], int] | None = None
        best_move: tuple[int, int] = (-1, -1)
        for i in cells:
            v = seen[i]
            ri, ci = coords[i]
            here = abs(ri - rc) + abs(ci - cc)
            n = place[i]
            for j in neighbours[i]:
                n += 1
                w = seen[j]
                rj, cj = coords[j]
                same = j in members
                if w and same and certain_zero(v, w):
                    key: tuple[int, ...] = (_ANNIHILATE, -here)
                elif abs(rj - rc) + abs(cj - cc) < here:
                    if w and same:
                        key = (_FUSE, -here)
                    elif w:
                        key = (_STEP_ONTO_OTHER, -here)
                    else:
                        key = (_STEP, -here)
                else:
                    continue  # a (1, ...) move: never first while this cluster has moves
                if best_key is None or (key, 0) < best_key:
                    order = (key, nth_output(tie, n))
                    if best_key is None or order < best_key:
                        best_key, best_move = order, (i, j)
        if best_key is None:  # cannot happen: some member is away from the center
            return super().best(seen, geo, tie)
        return geo.move(*best_move)

_DISTANCES: dict[tuple[int, int], tuple[int, ...]] = {}


def _distances(geo: Geometry, center: int) -> tuple[int, ...]:
    """The Manhattan distance of every cell from ``center`` (cached per size and center)."""
    table = _DISTANCES.get((geo.size, center))
    if table is None:
        rc, cc = geo.coords[center]
        table = _DISTANCES[(geo.size, center)] = tuple(
            abs(r - rc) + abs(c - cc) for r, c in geo.coords
        )
    return table


# A member's best move in a plan: (rank, -distance to the center, tie-break, from, to).
_Candidate = tuple[int, int, int, int, int]


class _Fusing:
    """A cluster of a ``FusionPlan``: its cells now, its fixed center and its urgency."""

    __slots__ = ("candidates", "center", "cost", "distance", "key")

    def __init__(self, center: int, cost: int, distance: tuple[int, ...]) -> None:
        self.candidates: dict[int, _Candidate | None] = {}  # member -> its best move
        self.center = center
        self.cost = cost
        self.distance = distance
        self.key: tuple[int, int, int, int] = (0, 0, 0, 0)


class FusionPlan:
    """One-shot decoding by the clustering bot: clusters grown once, then fused.

    ``choose`` grows the clusters again from scratch on every board (the bot
    is a pure function of the board, which analyses rely on). A one-shot board
    gets no noise after its first round, so the clusters stay those of the
    first growth while the bot fuses them: a plan grows them once and then
    follows them move by move.

    - Each cluster is fused at its medoid as grown. The center stays put
      while its members move, so every step brings a member strictly nearer
      to it and every fusion ends.
    - Moves go to the most urgent cluster as in ``choose`` (the smallest
      gap, then the larger, then the cheaper, then the smaller center), its
      urgency recomputed after each of its moves. Within it the ranks of
      ``choose``: annihilate two members side by side, else fuse a member
      into one nearer the center, else step to an empty cell nearer, else
      step onto a number of another cluster; the farthest member first.
      Ties are broken by the plan's own SplitMix64 stream, seeded with the
      bot's seed (one draw per candidate move each time a member's moves are
      weighed).
    - A member's best move changes only when a cell next to it changes, so
      after a move only the members next to its two cells are weighed again.
    - The clusters are grown again from the board when the plan no longer
      describes it: a member stepped onto a number of another cluster, a
      fusion left a number behind (possible in Phi-Lambda, where a cluster
      is only maybe neutral), only lone numbers are left, or the board was
      changed by a move the plan did not choose (``forget``). When the
      growth itself leaves only lone numbers, the move is ``choose``'s.

    Deterministic: the same board and bot seed give the same moves.
    """

    def __init__(self, bot: RenormalisationBot) -> None:
        self.bot = bot
        self.rng = SplitMix64(bot.seed)
        self.clusters: dict[int, _Fusing] = {}
        self.owner: list[int] = []
        self.heap: list[tuple[tuple[int, int, int, int], int]] = []
        self.geo: Geometry | None = None
        self.seen: tuple[int, ...] = ()
        self.neighbours: tuple[tuple[int, ...], ...] = ()
        # (cluster, from, to, whether "to" held a number) of the plan's last move
        self.last: tuple[int, int, int, bool] | None = None
        self.expected_moves = -1
        self.grown = 0  # how many times the clusters were grown (benchmarks and tests read it)

    def forget(self) -> None:
        """The board was changed by a move the plan did not choose: grow again next time."""
        self.last = None
        self.expected_moves = -1

    def choose(self, game: Any) -> MoveTuple:
        """The plan's move on ``game``'s board (a one-shot game being decoded)."""
        seen = seen_in_game(game)
        geo = geometry(game.size)
        fresh = (self.last is None or geo is not self.geo
                 or game.moves_made != self.expected_moves or not self._follow(seen))
        if fresh:
            self._grow(seen, geo)
        move = self._next()
        if move is None and not fresh:  # the plan ran out with numbers left
            self._grow(seen, geo)
            move = self._next()
        if move is None:
            self.last = None
            return self.bot.choose(game)
        self.expected_moves = game.moves_made + 1
        self.last = (move[0], move[1], move[2], bool(seen[move[2]]))
        return geo.move(move[1], move[2])

    def _grow(self, seen: tuple[int, ...], geo: Geometry) -> None:
        self.grown += 1
        self.geo = geo
        self.neighbours = geo.neighbours
        self.seen = seen
        owner = [-1] * geo.cells
        clusters: dict[int, _Fusing] = {}
        heap: list[tuple[tuple[int, int, int, int], int]] = []
        members: list[tuple[int, list[int]]] = []
        for cid, (cells, neutral, radius) in enumerate(_grow(seen, geo)):
            if len(cells) < 2:
                continue
            members.append((cid, cells))
            described = _describe(cells, neutral, radius, geo)
            fusing = _Fusing(described.center, described.cost,
                             _distances(geo, described.center))
            fusing.key = (described.gap, -len(cells), described.cost, described.center)
            clusters[cid] = fusing
            for c in cells:
                owner[c] = cid
            heap.append((fusing.key, cid))
        self.clusters, self.owner, self.heap = clusters, owner, heap
        for cid, cells in members:  # cells in cell order
            fusing = clusters[cid]
            candidates = fusing.candidates
            for c in cells:
                candidates[c] = self._candidate(c, cid, fusing)
        heapq.heapify(heap)

    def _candidate(self, i: int, cid: int, fusing: _Fusing) -> _Candidate | None:
        """Member ``i``'s best move toward its cluster's center (``None``: it has none)."""
        seen, owner, distance = self.seen, self.owner, fusing.distance
        v = seen[i]
        here = distance[i]
        best: _Candidate | None = None
        for j in self.neighbours[i]:
            w = seen[j]
            same = owner[j] == cid
            if w and same and certain_zero(v, w):
                rank = _ANNIHILATE
            elif distance[j] >= here:
                continue
            elif w:
                rank = _FUSE if same else _STEP_ONTO_OTHER
            else:
                rank = _STEP
            candidate = (rank, -here, self.rng.next64(), i, j)
            if best is None or candidate < best:
                best = candidate
        return best

    def _follow(self, seen: tuple[int, ...]) -> bool:
        """Update the clusters after the plan's last move; ``False``: grow them again."""
        if self.last is None or self.geo is None:
            return False
        cid, i, j, onto_number = self.last
        owner, geo = self.owner, self.geo
        self.seen = seen
        fusing = self.clusters[cid]
        distance, candidates = fusing.distance, fusing.candidates
        del candidates[i]
        owner[i] = -1
        fusing.cost -= distance[i]
        other = owner[j]
        if other != cid and (other != -1 or onto_number):
            return False  # onto a number of another cluster (or of none)
        if seen[j]:
            if other == -1:
                owner[j] = cid
                candidates[j] = None
                fusing.cost += distance[j]
        elif other == cid:  # annihilated with a member
            del candidates[j]
            owner[j] = -1
            fusing.cost -= distance[j]
        if len(candidates) < 2:
            del self.clusters[cid]
            if candidates:  # a number left behind: the cluster was not neutral after all
                owner[next(iter(candidates))] = -1
                return False
        else:
            size = geo.size
            last = size - 1
            rows = [c // size for c in candidates]
            cols = [c % size for c in candidates]
            gap = min(min(rows) + last - max(rows), min(cols) + last - max(cols))
            fusing.key = (gap, -len(candidates), fusing.cost, fusing.center)
            heapq.heappush(self.heap, (fusing.key, cid))
        # The members next to the two changed cells weigh their moves again.
        neighbours, clusters = geo.neighbours, self.clusters
        for c in sorted({i, j, *neighbours[i], *neighbours[j]}):
            o = owner[c]
            if o != -1:
                near = clusters[o]
                near.candidates[c] = self._candidate(c, o, near)
        return True

    def _next(self) -> tuple[int, int, int] | None:
        """(cluster, from, to): the best move of the most urgent cluster."""
        heap, clusters = self.heap, self.clusters
        while heap:
            key, cid = heap[0]
            fusing = clusters.get(cid)
            if fusing is not None and fusing.key == key:
                break
            heapq.heappop(heap)  # a cluster gone, or an urgency since changed
        else:
            return None
        moves = [c for c in fusing.candidates.values() if c is not None]
        if not moves:  # cannot happen: a member away from the center can step nearer
            return None
        _, _, _, i, j = min(moves)
        return (cid, i, j)
