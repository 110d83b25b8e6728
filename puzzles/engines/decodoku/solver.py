"""The exact solver: the fewest links that explain a board, and the corner they imply.

Pure Python with NumPy and SciPy (HiGHS), no Django. The method and why it
is exact are in ``docs/decodoku-puzzles.md`` ("The solver"), its measured
times in "Measured figures" there; in short:

An explanation with the fewest links never has a cycle, so it is a partition
of the cells into *parts* (its groups), each a connected set of cells that is
*valid*: its visible numbers sum to 0 mod 10, or it holds a corner. A part of
``s`` cells costs ``s - 1`` links. So the problem is a set partitioning over
all valid connected sets, with the cost ``|P| - 1``.

1. **Bound.** HiGHS solves the linear relaxation of that set partitioning
   (through its dual: ``max sum(pi)`` subject to ``sum(pi[v] for v in P) <=
   |P| - 1`` for every column ``P``) over the valid connected sets of up to
   six cells, then *column generation* adds every larger valid set whose
   reduced cost ``rc(P) = |P| - 1 - sum(pi[v] for v in P)`` is negative,
   found by an exhaustive search of the connected sets, until there is none:
   the relaxation is then solved over *all* valid connected sets, and its
   value ``LP`` is a lower bound on the links. Among the optimal duals a
   second linear programme picks the one with the least mass above 1, which
   keeps the searches below small.
2. **Every candidate part.** For any explanation ``S`` (a partition),
   ``links(S) = sum(pi) + sum(rc(P) for P in S)``, and every ``rc(P) >= 0``.
   So an explanation with at most ``m`` links uses only parts with
   ``rc(P) <= m - LP``, and the same search lists all of them.
3. **Exact cover.** A depth-first search with memoisation covers the cells
   with those parts (always the lowest uncovered cell next, cheapest parts
   first, pruned by the remaining reduced-cost budget) and gives, for every
   top-left value, the fewest links among the explanations that give it.
   ``m`` starts at ``ceil(LP)`` and grows by one until an explanation exists:
   that ``m`` is the minimum, and the top-left values reaching it are the
   answer and its ties.

Every explanation returned is checked with :func:`explanation.check` before
it is handed out. ``reference.py`` holds the direct integer programme (a
flow per link), slower but independent, which the tests compare against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import coo_matrix, csr_matrix, hstack, vstack

from puzzles.engines.decodoku.board import MODULUS, Board, Geometry
from puzzles.engines.decodoku.explanation import check

SMALL_PARTS = 6  # the first columns: every valid connected set of up to six cells
NODE_LIMIT = 50_000_000  # search steps before the solver gives up proving optimality
_BATCH = 100  # new columns per round of column generation
_MAX_ROUNDS = 500
_TOLERANCE = 1e-6  # reduced costs within this of zero count as zero
_SLACK = 1e-4  # room added to reduced-cost budgets for the LP's rounding
_INF = math.inf


@dataclass(frozen=True, slots=True)
class Solution:
    """The solver's answer for one board.

    ``links``: the fewest links of any explanation. ``corner``: the top-left
    value such an explanation gives (the smallest one when several tie).
    ``ties``: the other top-left values whose best explanation has as few
    links (empty: the puzzle has one answer). ``explanations``: one
    minimum explanation (a set of links) per value in ``(corner, *ties)``.
    ``optimal`` is false only when the search ran out of steps; the
    explanation is then the best found and ``ties`` is empty.
    ``lower_bound``: the relaxation's value ``LP``.
    """

    corner: int
    links: int
    optimal: bool
    ties: tuple[int, ...]
    explanations: dict[int, frozenset[int]]
    lower_bound: float

    def as_dict(self) -> dict[str, object]:
        """The command's JSON: ``corner``, ``links``, ``optimal``, ``ties``."""
        return {
            "corner": self.corner,
            "links": self.links,
            "optimal": self.optimal,
            "ties": list(self.ties),
        }


class _Exhausted(Exception):
    """The search used up its steps."""


@dataclass(frozen=True, slots=True, eq=False)
class _Shape:
    """What the solver precomputes once per board size."""

    cells: int
    full: int
    corner_mask: int
    top_left_bit: int
    bottom_right_bit: int
    neighbour_masks: tuple[int, ...]
    small_masks: tuple[int, ...]
    small_incidence: NDArray[np.int64]


@lru_cache(maxsize=8)
def _shape(geo: Geometry) -> _Shape:
    masks = connected_sets(geo, min(SMALL_PARTS, geo.cells))
    incidence = np.zeros((len(masks), geo.cells), dtype=np.int64)
    for row, mask in enumerate(masks):
        for cell in _cells_of(mask):
            incidence[row, cell] = 1
    tl, br = geo.corners
    return _Shape(
        cells=geo.cells,
        full=(1 << geo.cells) - 1,
        corner_mask=(1 << tl) | (1 << br),
        top_left_bit=1 << tl,
        bottom_right_bit=1 << br,
        neighbour_masks=tuple(sum(1 << n for n in geo.neighbours[c]) for c in range(geo.cells)),
        small_masks=masks,
        small_incidence=incidence,
    )


def _cells_of(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def connected_sets(geo: Geometry, largest: int) -> tuple[int, ...]:
    """Every connected set of at most ``largest`` cells, once each, as a bit mask.

    The enumeration is ESU (Wernicke, "Efficient detection of network
    motifs", 2006): a set grows from its smallest cell, only through cells
    larger than it, and only through the exclusive neighbours of the cell
    just added, which makes every set come out exactly once.
    """
    neighbour_masks = [sum(1 << n for n in geo.neighbours[c]) for c in range(geo.cells)]
    found: list[int] = []

    def grow(subset: int, extension: int, barred: int, closed: int, size: int) -> None:
        found.append(subset)
        if size == largest:
            return
        while extension:
            low = extension & -extension
            extension ^= low
            fresh = neighbour_masks[low.bit_length() - 1] & ~closed & ~barred
            grow(subset | low, extension | fresh, barred, closed | fresh, size + 1)

    for cell in range(geo.cells):
        barred = (1 << (cell + 1)) - 1  # the root and every smaller cell
        grow(
            1 << cell,
            neighbour_masks[cell] & ~barred,
            barred,
            (1 << cell) | neighbour_masks[cell],
            1,
        )
    return tuple(found)


def _columns_matrix(masks: Sequence[int], cells: int) -> csr_matrix:
    """Columns as rows of a (columns x cells) 0/1 matrix."""
    rows: list[int] = []
    cols: list[int] = []
    for index, mask in enumerate(masks):
        for cell in _cells_of(mask):
            rows.append(index)
            cols.append(cell)
    data = np.ones(len(rows))
    return coo_matrix((data, (rows, cols)), shape=(len(masks), cells)).tocsr()


def _duals(masks: Sequence[int], cells: int) -> tuple[float, NDArray[np.float64]]:
    """The relaxation's value over these columns, and a dual with little mass above 1."""
    a = _columns_matrix(masks, cells)
    cost = np.array([m.bit_count() - 1 for m in masks], dtype=np.float64)
    first = linprog(
        -np.ones(cells), A_ub=a, b_ub=cost, bounds=[(None, None)] * cells, method="highs"
    )
    if first.status != 0:  # pragma: no cover - the full board is always a column
        raise RuntimeError(f"the relaxation failed: {first.message}")
    value = float(-first.fun)
    pi = np.asarray(first.x, dtype=np.float64)
    # Among the optimal duals, the one with the least sum of max(0, pi - 1).
    identity = coo_matrix(
        (np.ones(cells), (np.arange(cells), np.arange(cells))), shape=(cells, cells)
    )
    upper = vstack(
        [
            hstack([a, csr_matrix((len(masks), cells))]),
            hstack([identity, -identity]),
            csr_matrix(np.r_[-np.ones(cells), np.zeros(cells)][None, :]),
        ]
    )
    bound = np.r_[cost, np.ones(cells), [-(value - _TOLERANCE / 10)]]
    second = linprog(
        np.r_[np.zeros(cells), np.ones(cells)],
        A_ub=upper,
        b_ub=bound,
        bounds=[(None, None)] * cells + [(0, None)] * cells,
        method="highs",
    )
    if second.status == 0:
        pi = np.asarray(second.x[:cells], dtype=np.float64)
    return value, pi


def _search(
    shape: _Shape,
    values: Sequence[int],
    pi: NDArray[np.float64],
    budget: float,
    *,
    known: set[int] | None,
    stop_after: int | None,
    tick: Callable[[int], None],
) -> list[int]:
    """Every valid connected set with ``sum(1 - pi[v]) <= budget``, not in ``known``.

    A set grows as in :func:`connected_sets`; a branch is cut when even every
    negative weight still reachable could not bring it back within budget.
    """
    weight = [1.0 - float(p) for p in pi]
    negative = [min(0.0, w) for w in weight]
    neighbour_masks = shape.neighbour_masks
    corner_mask = shape.corner_mask
    limit = budget + _TOLERANCE
    found: list[int] = []
    steps = [0]

    class _Enough(Exception):
        pass

    def grow(
        subset: int,
        extension: int,
        barred: int,
        closed: int,
        value: float,
        total: int,
        reachable: float,
    ) -> None:
        steps[0] += 1
        if steps[0] & 0xFFFF == 0:
            tick(0x10000)
        valid = total % MODULUS == 0 or subset & corner_mask
        if valid and value <= limit and (known is None or subset not in known):
            found.append(subset)
            if stop_after is not None and len(found) >= stop_after:
                raise _Enough
        while extension:
            low = extension & -extension
            extension ^= low
            cell = low.bit_length() - 1
            rest = reachable - negative[cell]
            grown = value + weight[cell]
            if grown + rest <= limit:
                fresh = neighbour_masks[cell] & ~closed & ~barred
                grow(
                    subset | low,
                    extension | fresh,
                    barred,
                    closed | fresh,
                    grown,
                    total + values[cell],
                    rest,
                )
            reachable = rest  # the cell is out of reach of the later branches
            if value + reachable > limit:
                break

    try:
        for cell in range(shape.cells):
            barred = (1 << (cell + 1)) - 1
            reachable = sum(negative[cell + 1 :])
            if weight[cell] + reachable > limit:
                continue
            grow(
                1 << cell,
                neighbour_masks[cell] & ~barred,
                barred,
                (1 << cell) | neighbour_masks[cell],
                weight[cell],
                values[cell],
                reachable,
            )
    except _Enough:
        pass
    tick(steps[0] & 0xFFFF)
    return found


def _cover(
    shape: _Shape,
    values: Sequence[int],
    parts: list[tuple[float, int]],
    cap: float,
    tick: Callable[[int], None],
) -> dict[int, tuple[float, list[int]]]:
    """Per top-left value, the least total reduced cost of an exact cover (within ``cap``)."""
    full = shape.full
    by_lowest: list[list[tuple[float, int]]] = [[] for _ in range(shape.cells)]
    starts: list[tuple[float, int]] = []
    for rc, mask in parts:
        if mask & shape.top_left_bit:
            starts.append((rc, mask))
        else:
            by_lowest[(mask & -mask).bit_length() - 1].append((rc, mask))
    for bucket in by_lowest:
        bucket.sort()
    starts.sort()
    solved: dict[int, tuple[float, int]] = {}
    failed: dict[int, float] = {}
    steps = [0]

    def best(mask: int, budget: float) -> float:
        if mask == full:
            return 0.0
        hit = solved.get(mask)
        if hit is not None:
            return hit[0] if hit[0] <= budget + _TOLERANCE else _INF
        tried = failed.get(mask)
        if tried is not None and tried >= budget - _TOLERANCE:
            return _INF
        steps[0] += 1
        if steps[0] % 4096 == 0:
            tick(4096)
        free = ~mask & full
        cell = (free & -free).bit_length() - 1
        found, choice, room = _INF, 0, budget
        for rc, part in by_lowest[cell]:
            if rc > room + _TOLERANCE:
                break
            if part & mask:
                continue
            rest = best(mask | part, room - rc)
            if rest < _INF and rc + rest < found:
                found, choice, room = rc + rest, part, rc + rest
        if found < _INF:
            solved[mask] = (found, choice)
        else:
            failed[mask] = max(budget, failed.get(mask, -_INF))
        return found

    result: dict[int, tuple[float, list[int]]] = {}
    for rc, start in starts:
        if rc > cap + _TOLERANCE:
            break
        rest = best(start, cap - rc)
        if rest == _INF:
            continue
        total = rc + rest
        chain = [start]
        mask = start
        while mask != full:
            part = solved[mask][1]
            chain.append(part)
            mask |= part
        if start & shape.bottom_right_bit:
            corners = list(range(MODULUS))
        else:
            corners = [(-sum(values[c] for c in _cells_of(start))) % MODULUS]
        for corner in corners:
            if corner not in result or total < result[corner][0] - _TOLERANCE:
                result[corner] = (total, chain)
    tick(steps[0] % 4096)
    return result


def _spanning_links(geo: Geometry, mask: int) -> list[int]:
    """Links of a spanning tree of a connected part (breadth first from its first cell)."""
    cells = _cells_of(mask)
    inside = set(cells)
    seen = {cells[0]}
    queue = [cells[0]]
    links = []
    while queue:
        cell = queue.pop(0)
        for other in geo.neighbours[cell]:
            if other in inside and other not in seen:
                seen.add(other)
                queue.append(other)
                links.append(geo.link(cell, other))
    if len(seen) != len(cells):  # pragma: no cover - every column is connected
        raise RuntimeError("a part is not connected")
    return links


def _links_of(geo: Geometry, partition: Sequence[int]) -> frozenset[int]:
    return frozenset(link for part in partition for link in _spanning_links(geo, part))


def solve(board: Board, *, node_limit: int = NODE_LIMIT) -> Solution:
    """The fewest links that explain the board, the top-left value they give, and ties."""
    # One process often asks for the same board several times (loading the
    # published puzzles, then the bots, then the comparison with them); the
    # answer depends on the digits alone, so it is worked out once.
    return _solve(board.geometry, board.values, node_limit)


@lru_cache(maxsize=256)
def _solve(geo: Geometry, values: tuple[int, ...], node_limit: int) -> Solution:
    shape = _shape(geo)
    board = Board(geo, values)  # the corners of ``values`` hold 0
    sums = shape.small_incidence @ np.asarray(values, dtype=np.int64)
    masks = [
        mask
        for mask, total in zip(shape.small_masks, sums.tolist(), strict=True)
        if total % MODULUS == 0 or mask & shape.corner_mask
    ]
    if shape.full not in masks:
        masks.append(shape.full)
    pool = set(masks)
    used = [0]
    bound = 0.0

    def tick(steps: int) -> None:
        used[0] += steps
        if used[0] > node_limit:
            raise _Exhausted

    try:
        for _ in range(_MAX_ROUNDS):
            bound, pi = _duals(masks, shape.cells)
            fresh = _search(
                shape, values, pi, 1.0 - _TOLERANCE, known=pool, stop_after=_BATCH, tick=tick
            )
            if not fresh:
                break
            masks.extend(fresh)
            pool.update(fresh)
        else:  # pragma: no cover - every round adds a column, and columns are finite
            raise _Exhausted
        target = math.ceil(bound - _TOLERANCE)
        while True:
            cap = target - bound + _SLACK
            candidates = _search(
                shape, values, pi, 1.0 + cap, known=None, stop_after=None, tick=tick
            )
            parts = []
            for mask in candidates:
                rc = (mask.bit_count() - 1) - float(sum(pi[c] for c in _cells_of(mask)))
                if rc <= cap + _TOLERANCE:
                    parts.append((max(rc, 0.0), mask))
            covers = _cover(shape, values, parts, cap, tick)
            if covers:
                break
            target += 1
            masks = list(dict.fromkeys([*masks, *candidates]))
    except _Exhausted:
        return _fallback(board, masks, bound)

    costs = {corner: sum(p.bit_count() - 1 for p in chain) for corner, (_, chain) in covers.items()}
    fewest = min(costs.values())
    best = sorted(c for c, cost in costs.items() if cost == fewest)
    explanations = {c: _links_of(geo, covers[c][1]) for c in best}
    for corner, links in explanations.items():
        result = check(board, links)
        if not result.valid or corner not in result.answers or len(links) != fewest:
            raise RuntimeError("the solver built an explanation that does not hold")
    return Solution(
        corner=best[0],
        links=fewest,
        optimal=True,
        ties=tuple(best[1:]),
        explanations=explanations,
        lower_bound=bound,
    )


def _fallback(board: Board, masks: list[int], bound: float) -> Solution:
    """The best explanation from the columns found so far, not proven optimal."""
    geo = board.geometry
    columns = list(dict.fromkeys(masks))
    a = _columns_matrix(columns, geo.cells).T.tocsc()
    cost = np.array([m.bit_count() - 1 for m in columns], dtype=np.float64)
    result = milp(
        cost,
        constraints=LinearConstraint(a, 1, 1),
        integrality=np.ones(len(columns)),
        bounds=Bounds(0, 1),
        options={"presolve": False, "time_limit": 60},
    )
    if result.x is None:  # pragma: no cover - the full board is always a column
        raise RuntimeError("no explanation found")
    chosen = [columns[i] for i in np.flatnonzero(np.round(result.x))]
    links = _links_of(geo, chosen)
    verdict = check(board, links)
    corner = min(verdict.answers)
    return Solution(
        corner=corner,
        links=len(links),
        optimal=False,
        ties=(),
        explanations={corner: links},
        lower_bound=bound,
    )
