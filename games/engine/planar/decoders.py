"""Decoders of the planar family: each turns a board into the moves that clean it.

A decoder sees the values only (never the noise or the charge). ``plan``
returns every move it will play, in order; ``play`` makes them through the
engine, so the outcome is the engine's.

- ``matching`` (d = 2): minimum-weight perfect matching of the numbers, with
  the two sides as boundary, by PyMatching (Higgott and Gidney, sparse
  blossom). Every edge weighs the same (independent noise at one rate). Its
  moves carry each number along the matched chain or off the board.
- ``clustering`` (``UnionFindDecoder``, every d): clusters grow around the numbers one step at a
  time until each is neutral, its values summing to 0 mod d, or touches a
  side, through which it can pass its charge (the boundary rule of the
  union-find and Bravyi-Haah decoders). Each cluster is then cleaned along a
  spanning tree, towards the side it touched when it touched one.
- ``optimal`` (every d): maximum likelihood. It computes the probability of
  each logical class given the board and the error rate (``optimal.posterior``:
  exact up to d^L = 2^20, truncated beyond) and plays a
  correction of the most likely class it can reach (below): matching's
  (d = 2) or clustering's moves when they are of that class, else numbers
  carried off the board one by one through empty cells.

The class of a plan is the sum of the numbers it moves off through the left
side, mod d: the plan wins exactly when the noise carried that charge across
the left side. Moves carry whole numbers, so a plan's class is a sum of some
of the numbers (merged or not): the classes a board can reach are the subset
sums of its numbers (a single number 5 with d = 10 reaches 0 and 5 only).

Register a decoder in ``DECODERS``; its ``version`` changes whenever its
moves do.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np
from numpy.typing import NDArray

from ..errors import InvalidRuleSet
from .game import PlanarGame, edge_move
from .lattice import OUTSIDE, Lattice, lattice
from .optimal import exact_reaches, posterior

if TYPE_CHECKING:
    import pymatching

Move = tuple[int, int, int, int]


class PlanarDecoder(Protocol):
    name: ClassVar[str]
    version: ClassVar[int]
    moduli: ClassVar[frozenset[int]]
    description: ClassVar[str]

    def plan(self, values: Sequence[int], *, size: int, modulus: int,
             rate: float | None = None) -> list[Move]: ...

    def decodes_quickly(self, *, size: int, modulus: int) -> bool:
        """Whether a board of this size and d takes well under a second: what a worker
        spends on every person's board (the comparisons) without a second thought."""
        ...


def play(game: PlanarGame, decoder: PlanarDecoder, *, max_moves: int | None = None) -> bool:
    """Play the decoder's moves on ``game``; False when ``max_moves`` stopped it first."""
    moves = decoder.plan(game.values, size=game.size, modulus=game.modulus,
                         rate=game.rules.error_rate)
    if max_moves is not None and len(moves) > max_moves:
        for move in moves[:max_moves]:
            game.move(*move)
        return False
    for move in moves:
        game.move(*move)
    return True


# -- matching -------------------------------------------------------------------------


@lru_cache(maxsize=16)
def matching_graph(size: int) -> pymatching.Matching:
    """The planar board's matching graph: fault 0 is a crossing of the left side."""
    # Imported on first use: it brings SciPy and NetworkX (about 0.3 s), which
    # nothing but the matching decoder needs.
    import pymatching

    geometry = lattice(size)
    graph = pymatching.Matching()
    for edge in range(geometry.edges):
        a, b = geometry.first[edge], geometry.second[edge]
        faults = {0} if geometry.cut[edge] == 0 else set()
        if a == OUTSIDE:
            graph.add_boundary_edge(b, fault_ids=faults, weight=1.0)
        elif b == OUTSIDE:
            graph.add_boundary_edge(a, fault_ids=faults, weight=1.0)
        else:
            graph.add_edge(a, b, fault_ids=faults, weight=1.0)
    return graph


class MatchingDecoder:
    name: ClassVar[str] = "matching"
    version: ClassVar[int] = 1
    moduli: ClassVar[frozenset[int]] = frozenset({2})
    description: ClassVar[str] = (
        "minimum-weight perfect matching (PyMatching), the two sides as boundary; d = 2"
    )

    def decodes_quickly(self, *, size: int, modulus: int) -> bool:
        return True

    def correction(self, values: Sequence[int], *, size: int) -> list[int]:
        """The matched chain: the edges a minimum-weight correction flips."""
        geometry = lattice(size)
        syndrome = np.fromiter((v & 1 for v in values), dtype=np.uint8, count=size * size)
        pairs = matching_graph(size).decode_to_edges_array(syndrome)
        edges = []
        for a, b in pairs.tolist():
            # PyMatching names the boundary -1; a cell's column tells which side.
            edges.append(geometry.edge_of(a if a >= 0 else OUTSIDE, b if b >= 0 else OUTSIDE))
        return edges

    def plan(self, values: Sequence[int], *, size: int, modulus: int,
             rate: float | None = None) -> list[Move]:
        """The moves along the matched chain (``rate`` is not needed: every edge weighs 1)."""
        _check_modulus(self, modulus)
        chain = self.correction(values, size=size)
        return _parity_moves(list(values), chain, size=size)

    def predict(self, syndromes: NDArray[np.uint8], *, size: int) -> NDArray[np.uint8]:
        """The correction's crossings of the left side, mod 2, for many boards at once."""
        predicted: NDArray[np.uint8] = matching_graph(size).decode_batch(syndromes)[:, 0]
        return predicted


def _parity_moves(values: list[int], chain: list[int], *, size: int) -> list[Move]:
    """Moves that carry every number along a Z2 chain whose boundary is the numbers.

    Every number sits at an end of an odd number of the chain's remaining
    edges; moving it along one of them removes the edge and keeps that true,
    so the board is clean when the chain is used up.
    """
    geometry = lattice(size)
    incident: dict[int, list[int]] = {}
    for edge in chain:
        for end in (geometry.first[edge], geometry.second[edge]):
            if end != OUTSIDE:
                incident.setdefault(end, []).append(edge)
    used: set[int] = set()
    moves: list[Move] = []
    stack = [cell for cell, v in enumerate(values) if v]
    while stack:
        cell = stack.pop()
        if not values[cell]:
            continue
        edges = incident.get(cell, [])
        while edges and edges[-1] in used:
            edges.pop()
        if not edges:  # pragma: no cover - a correction always explains every number
            raise InvalidRuleSet("the matching left a number without a chain")
        edge = edges.pop()
        used.add(edge)
        moves.append(edge_move(size, edge, cell))
        a, b = geometry.first[edge], geometry.second[edge]
        target = b if a == cell else a
        values[cell] = 0
        if target != OUTSIDE:
            values[target] ^= 1
            if values[target]:
                stack.append(target)
    return moves


# -- clustering: union-find ------------------------------------------------------------


class UnionFindDecoder:
    name: ClassVar[str] = "clustering"
    version: ClassVar[int] = 1
    moduli: ClassVar[frozenset[int]] = frozenset(range(2, 11))
    description: ClassVar[str] = (
        "clusters grown until neutral or touching a side (union-find boundary rule); any d"
    )

    def decodes_quickly(self, *, size: int, modulus: int) -> bool:
        return True

    def plan(self, values: Sequence[int], *, size: int, modulus: int,
             rate: float | None = None) -> list[Move]:
        """The clusters' moves (``rate`` is not needed: growth does not depend on it)."""
        _check_modulus(self, modulus)
        return _cluster_moves(list(values), size=size, modulus=modulus)


@lru_cache(maxsize=64)
def _incidence(size: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's edges (side edges included), in edge order."""
    geometry = lattice(size)
    table: list[list[int]] = [[] for _ in range(size * size)]
    for edge in range(geometry.edges):
        for end in (geometry.first[edge], geometry.second[edge]):
            if end != OUTSIDE:
                table[end].append(edge)
    return tuple(tuple(edges) for edges in table)


class _Clusters:
    """Union-find clusters grown by half-edges (Delfosse and Nickerson's growth, for Z_d).

    Each cluster keeps its cells, its charge (the sum of its numbers), the
    edges at its rim not yet fully grown, the fully grown edges inside it,
    and the side edge through which it reached a side (-1 while it has not).
    A cluster is *active* while its charge is not 0 mod d and it has not
    reached a side. Growth adds half an edge to every rim edge; an edge
    grown twice (from one side or both) joins its two ends.
    """

    def __init__(self, values: list[int], size: int, modulus: int) -> None:
        self.modulus = modulus
        self.geometry = lattice(size)
        self.incident = _incidence(size)
        self.support = [0] * self.geometry.edges
        self.owner = [-1] * len(values)
        self.parent: list[int] = []
        self.cells: list[list[int]] = []
        self.rim: list[list[int]] = []
        self.inside: list[list[int]] = []
        self.charge: list[int] = []
        self.side: list[int] = []
        for cell, v in enumerate(values):
            if v:
                ident = len(self.parent)
                self.owner[cell] = ident
                self.parent.append(ident)
                self.cells.append([cell])
                self.rim.append(list(self.incident[cell]))
                self.inside.append([])
                self.charge.append(v)
                self.side.append(-1)

    def find(self, ident: int) -> int:
        parent = self.parent
        while parent[ident] != ident:
            parent[ident] = parent[parent[ident]]
            ident = parent[ident]
        return ident

    def active(self, root: int) -> bool:
        return self.side[root] < 0 and self.charge[root] % self.modulus != 0

    def roots(self) -> list[int]:
        return [i for i, p in enumerate(self.parent) if p == i]

    def _union(self, a: int, b: int) -> int:
        if len(self.cells[a]) < len(self.cells[b]):
            a, b = b, a
        self.parent[b] = a
        self.cells[a].extend(self.cells[b])
        self.rim[a].extend(self.rim[b])
        self.inside[a].extend(self.inside[b])
        self.charge[a] += self.charge[b]
        if self.side[a] < 0:
            self.side[a] = self.side[b]
        self.cells[b], self.rim[b], self.inside[b] = [], [], []
        return a

    def grow(self, root: int) -> None:
        support, first, second = self.support, self.geometry.first, self.geometry.second
        rim: list[int] = []
        joined: list[int] = []
        for edge in self.rim[root]:
            grown = support[edge]
            if grown >= 2:
                continue
            support[edge] = grown + 1
            (joined if grown == 1 else rim).append(edge)
        self.rim[root] = rim
        owner, find = self.owner, self.find
        for edge in joined:
            root = find(root)
            a, b = first[edge], second[edge]
            if a == OUTSIDE or b == OUTSIDE:
                if self.side[root] < 0:
                    self.side[root] = edge
                continue
            ra = find(owner[a]) if owner[a] >= 0 else -1
            rb = find(owner[b]) if owner[b] >= 0 else -1
            if ra == rb:
                continue  # both ends already in one cluster: no new link
            self.inside[root].append(edge)
            for end, holder in ((a, ra), (b, rb)):
                if holder < 0:
                    owner[end] = root
                    self.cells[root].append(end)
                    self.rim[root].extend(e for e in self.incident[end] if support[e] < 2)
                elif (holder := find(holder)) != root:  # the first end may have merged it
                    root = self._union(root, holder)


def _cluster_moves(values: list[int], *, size: int, modulus: int) -> list[Move]:
    clusters = _Clusters(values, size, modulus)
    while True:
        active = [r for r in clusters.roots() if clusters.active(r)]
        if not active:
            break
        # Weighted growth: only the smallest active clusters grow this step, so a
        # big cluster does not swallow the small ones around it.
        smallest = min(len(clusters.cells[r]) for r in active)
        for root in active:
            if len(clusters.cells[root]) == smallest:
                root = clusters.find(root)
                if clusters.active(root):
                    clusters.grow(root)
    moves: list[Move] = []
    geometry = clusters.geometry
    for root in clusters.roots():
        moves.extend(_peel(clusters.cells[root], clusters.inside[root], clusters.side[root],
                           values, size=size, modulus=modulus, geometry=geometry))
    return moves


def _peel(cells: list[int], inside: list[int], side: int, values: list[int], *, size: int,
          modulus: int, geometry: Lattice) -> list[Move]:
    """Clean a neutral cluster along a spanning tree of its grown edges, leaves first.

    Each number moves to its parent in the tree. The tree grows from the
    cell at the side edge through which the cluster reached a side (what is
    left there leaves the board through that side) or else from its first
    number.
    """
    if not any(values[cell] for cell in cells):
        return []
    first, second = geometry.first, geometry.second
    if side >= 0:
        root = first[side] if first[side] != OUTSIDE else second[side]
    else:
        root = min(cell for cell in cells if values[cell])
    links: dict[int, list[int]] = {}
    for edge in inside:
        a, b = first[edge], second[edge]
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    parent = {root: root}
    order = [root]
    queue = deque([root])
    while queue:
        cell = queue.popleft()
        for other in links.get(cell, ()):
            if other not in parent:
                parent[other] = cell
                order.append(other)
                queue.append(other)
    moves: list[Move] = []
    for cell in reversed(order[1:]):
        if values[cell]:
            target = parent[cell]
            moves.append((*divmod(cell, size), *divmod(target, size)))
            values[target] = (values[target] + values[cell]) % modulus
            values[cell] = 0
    if values[root]:
        if side < 0:  # pragma: no cover - a neutral cluster's root ends at 0
            raise InvalidRuleSet("a neutral cluster left a number at its root")
        row, col = divmod(root, size)
        moves.append((row, col, row, -1 if geometry.cut[side] == 0 else size))
        values[root] = 0
    return moves


# -- optimal ------------------------------------------------------------------------


class OptimalDecoder:
    name: ClassVar[str] = "optimal"
    version: ClassVar[int] = 1
    moduli: ClassVar[frozenset[int]] = frozenset(range(2, 11))
    description: ClassVar[str] = (
        "maximum likelihood: a correction of the most likely logical class; any d "
        "(exact up to d^L = 2^20, a truncated contraction beyond)"
    )

    def decodes_quickly(self, *, size: int, modulus: int) -> bool:
        # The exact contraction takes under 0.2 s where it reaches; the truncated one
        # seconds (d = 10, L = 7: 9 s), too much to spend on every person's board.
        return exact_reaches(size=size, modulus=modulus)

    def plan(self, values: Sequence[int], *, size: int, modulus: int,
             rate: float | None = None) -> list[Move]:
        _check_modulus(self, modulus)
        if rate is None:
            raise InvalidRuleSet("the optimal decoder needs the error rate of the noise")
        board = list(values)
        if not any(board):
            return []
        odds = posterior(board, size=size, modulus=modulus, rate=rate)
        base = (MatchingDecoder() if modulus == 2 else UnionFindDecoder()).plan(
            board, size=size, modulus=modulus)
        reachable = _subset_sums([v for v in board if v], modulus)
        best = max(odds[c] for c in range(modulus) if reachable >> c & 1)
        # The shorter plan of the other decoder when it already wins as often as can be.
        if odds[plan_class(board, base, size=size, modulus=modulus)] == best:
            return base
        return _moves_to_class(board, odds, size=size, modulus=modulus)


def plan_class(values: Sequence[int], moves: Sequence[Move], *, size: int, modulus: int) -> int:
    """The class of a plan that cleans the board: what it moves off through the left side."""
    board = list(values)
    left = 0
    for from_row, from_col, to_row, to_col in moves:
        source = from_row * size + from_col
        moved, board[source] = board[source], 0
        if to_col == -1:
            left += moved
        elif to_col < size:
            target = to_row * size + to_col
            board[target] = (board[target] + moved) % modulus
    return left % modulus


def _subset_sums(numbers: Sequence[int], modulus: int) -> int:
    """The sums mod d of the subsets of ``numbers``, as a bit mask (bit c for sum c)."""
    full = (1 << modulus) - 1
    sums = 1
    for v in numbers:
        v %= modulus
        sums |= ((sums << v) | (sums >> (modulus - v))) & full
    return sums


def _paths_to_side(board: list[int], *, size: int, left: bool) -> dict[int, list[int]]:
    """For each number with a way off through one side over empty cells: the cells it crosses.

    A breadth-first search from the side over the empty cells; a number's path
    is the shortest (the cells after its own, in order, before it leaves).
    """
    column = 0 if left else size - 1
    after: dict[int, int] = {}  # an empty cell -> the next cell towards the side (-1: off)
    queue: deque[int] = deque()
    paths: dict[int, list[int]] = {}
    for row in range(size):
        cell = row * size + column
        if board[cell]:
            paths[cell] = []
        else:
            after[cell] = -1
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        row, col = divmod(cell, size)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if not (0 <= r < size and 0 <= c < size):
                continue
            other = r * size + c
            if board[other]:
                if other not in paths:
                    path = []
                    step = cell
                    while step != -1:
                        path.append(step)
                        step = after[step]
                    paths[other] = path
            elif other not in after:
                after[other] = cell
                queue.append(other)
    return paths


def _moves_to_class(board: list[int], odds: NDArray[np.float64], *, size: int,
                    modulus: int) -> list[Move]:
    """Carry the numbers off one by one, keeping the most likely reachable class reachable.

    Each step takes, among the numbers with a way off through a side over empty
    cells, the shortest way after which the classes still reachable (what has
    left through the left side plus a subset sum of the numbers left) include
    the most likely one; the number with the smallest column can always leave
    through the left side, so every step moves one number off the board.
    """
    moves: list[Move] = []
    through_left = 0
    while True:
        numbers = [cell for cell, v in enumerate(board) if v]
        if not numbers:
            return moves
        candidates = []
        for left in (True, False):
            for cell, path in _paths_to_side(board, size=size, left=left).items():
                candidates.append((len(path), cell, not left, path))
        candidates.sort(key=lambda item: item[:3])
        best_score, choice = -1.0, candidates[0]
        for _, cell, right, path in candidates:
            rest = _subset_sums([board[n] for n in numbers if n != cell], modulus)
            shift = through_left if right else through_left + board[cell]
            score = max(odds[(shift + c) % modulus] for c in range(modulus) if rest >> c & 1)
            if score > best_score:
                best_score, choice = score, (0, cell, right, path)
        _, cell, right, path = choice
        here = cell
        for step in path:
            moves.append((*divmod(here, size), *divmod(step, size)))
            here = step
        row, col = divmod(here, size)
        moves.append((row, col, row, size if right else -1))
        if not right:
            through_left += board[cell]
        board[cell] = 0


def _check_modulus(decoder: Any, modulus: int) -> None:
    if modulus not in decoder.moduli:
        allowed = ", ".join(str(d) for d in sorted(decoder.moduli))
        raise InvalidRuleSet(f"the {decoder.name} decoder decodes d = {allowed}, not d = {modulus}")


AnyDecoder = MatchingDecoder | UnionFindDecoder | OptimalDecoder

DECODERS: dict[str, type[AnyDecoder]] = {
    MatchingDecoder.name: MatchingDecoder,
    UnionFindDecoder.name: UnionFindDecoder,
    OptimalDecoder.name: OptimalDecoder,
}


def get_decoder(name: str) -> AnyDecoder:
    try:
        return DECODERS[name]()
    except KeyError:
        known = ", ".join(sorted(DECODERS))
        raise InvalidRuleSet(f"unknown planar decoder {name!r}; known: {known}") from None
