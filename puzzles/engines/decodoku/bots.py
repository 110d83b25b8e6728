"""Decoder bots on Decodoku puzzles: each gives links that explain the board and a corner.

Pure Python, no Django. Two bots decode a puzzle's board
(``docs/decodoku-puzzles.md``, "The bots"):

* ``exact``: the exact solver (:mod:`solver`): the fewest links, proven, and
  the smallest of the top-left values they allow.
* ``clustering`` (:func:`corner_sink_decoder`): a clustering decoder in the manner of the
  renormalisation-group decoders (Bravyi and Haah; Wootton's decoder for the
  Decodoku game), with the two hidden corners as sinks. Every non-zero cell
  is a cluster, and so is each hidden corner. A cluster is *done* when its
  numbers sum to 0 mod 10 or it holds a corner (the corner takes whatever
  value balances it). At radius 1, 2, ... a cluster that is not done joins
  a cluster within that Manhattan distance, one join at a time: first a join
  whose numbers sum to 0, then one that reaches a corner, then any, nearer
  before farther. When no join is left at a radius the radius grows, until
  every cluster is done (the corners always end it). Each cluster is then
  explained by a tree joining its non-zero cells (and its corner, when its
  numbers do not already sum to 0): the nearest cell still outside is joined
  by a shortest path, again and again. The links of those trees are the
  bot's explanation, checked with :func:`explanation.check`, and its answer
  is the top-left value they give; when one group holds both corners the
  value is free and the bot answers the one that leaves the bottom-right
  corner 0.

Minimum-weight matching does not apply as it does for Z2: there a defect is
annihilated by exactly one partner, so an explanation is a pairing. In Z10 a
group may need three or more numbers (3, 3 and 4), and a pairing can only
join numbers that sum to 0 mod 10 two by two, so matching is not a decoder of
these boards without a rule for groups, which is what clustering is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from puzzles.engines.decodoku.board import MODULUS, Board, DecodokuError, Geometry
from puzzles.engines.decodoku.explanation import check
from puzzles.engines.decodoku.solver import solve

BOT_VERSION = 1


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """A bot's decoding of one board: its links, the corner it answers, and the solver's flags.

    ``optimal`` and ``ties`` are the exact solver's (``None`` and ``()`` for
    other bots).
    """

    bot: str
    corner: int
    links: frozenset[int]
    optimal: bool | None = None
    ties: tuple[int, ...] = ()


def exact(board: Board) -> BotAnswer:
    found = solve(board)
    return BotAnswer(
        bot="exact",
        corner=found.corner,
        links=found.explanations[found.corner],
        optimal=found.optimal,
        ties=found.ties,
    )


def _distance(geo: Geometry, a: frozenset[int], b: frozenset[int]) -> int:
    """The Manhattan distance between the nearest cells of two clusters."""
    best = geo.rows + geo.cols
    for x in a:
        xr, xc = geo.position(x)
        for y in b:
            yr, yc = geo.position(y)
            best = min(best, abs(xr - yr) + abs(xc - yc))
    return best


def _clusters(board: Board) -> list[frozenset[int]]:
    """The clusters, joined until every one sums to 0 mod 10 or holds a corner."""
    geo = board.geometry
    corners = frozenset(geo.corners)

    def done(cells: frozenset[int]) -> bool:
        return bool(cells & corners) or sum(board.values[c] for c in cells) % MODULUS == 0

    clusters = [frozenset({c}) for c, v in enumerate(board.values) if v]
    clusters += [frozenset({c}) for c in geo.corners]
    radius = 1
    while any(not done(c) for c in clusters):
        best: tuple[int, int, int, int] | None = None
        for i, a in enumerate(clusters):
            if done(a):
                continue
            for j, b in enumerate(clusters):
                if i == j:
                    continue
                gap = _distance(geo, a, b)
                if gap > radius:
                    continue
                joined = a | b
                # Within the radius: a join that sums to 0 first, then one that reaches a
                # corner, then any; nearer before farther.
                rank = 0 if not joined & corners and done(joined) else 1 if done(joined) else 2
                key = (rank, gap, i, j)
                if best is None or key < best:
                    best = key
        if best is None:
            radius += 1
            continue
        _, _, i, j = best
        merged = clusters[i] | clusters[j]
        clusters = [c for k, c in enumerate(clusters) if k not in (i, j)] + [merged]
    return clusters


def _tree(board: Board, cluster: frozenset[int]) -> set[int]:
    """Links of a tree joining a cluster's non-zero cells (and its corner if needed).

    The nearest cell still outside the tree is joined by a shortest path over
    the board, again and again. Paths may cross other clusters' trees: two
    groups that each sum to 0 or hold a corner still do once joined.
    """
    geo = board.geometry
    terminals = {c for c in cluster if board.values[c]}
    corners = [c for c in geo.corners if c in cluster]
    if corners and sum(board.values[c] for c in terminals) % MODULUS:
        terminals.add(corners[0])
    if len(terminals) <= 1:
        return set()
    tree_cells = {min(terminals)}
    links: set[int] = set()
    remaining = terminals - tree_cells
    while remaining:
        previous: dict[int, int] = {}
        queue = deque(sorted(tree_cells))
        seen = set(tree_cells)
        reached = None
        while queue and reached is None:
            cell = queue.popleft()
            for nxt in geo.neighbours[cell]:
                if nxt in seen:
                    continue
                seen.add(nxt)
                previous[nxt] = cell
                if nxt in remaining:
                    reached = nxt
                    break
                queue.append(nxt)
        if reached is None:  # pragma: no cover - the board is connected
            raise DecodokuError("the board is not connected")
        cell = reached
        while cell not in tree_cells:
            links.add(geo.link(cell, previous[cell]))
            tree_cells.add(cell)
            cell = previous[cell]
        remaining -= tree_cells
    return links


def corner_sink_decoder(board: Board) -> BotAnswer:
    """The ``clustering`` bot's answer: clusters joined nearest first, the hidden corners
    as sinks, each explained by a tree of shortest paths."""
    links: set[int] = set()
    for cluster in _clusters(board):
        links |= _tree(board, cluster)
    verdict = check(board, links)
    if not verdict.valid:  # pragma: no cover - each tree sums to 0 or holds a corner
        raise DecodokuError("the clustering decoder's links do not explain the board")
    # Both corners in one group: the value that leaves the bottom-right corner 0.
    free = (-board.visible_sum) % MODULUS
    corner = verdict.top_left if verdict.top_left is not None else free
    return BotAnswer(bot="clustering", corner=corner, links=frozenset(links))


BOTS: dict[str, Callable[[Board], BotAnswer]] = {
    "exact": exact, "clustering": corner_sink_decoder}
