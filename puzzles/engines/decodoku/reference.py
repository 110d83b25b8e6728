"""The direct integer programme for the fewest links: a reference for the exact solver.

Pure Python with NumPy and SciPy (HiGHS), no Django. Every link ``e = (a, b)``
(``a < b``) carries an integer flow ``f_e`` from -9 to 9 and a binary
``y_e`` with ``-9 y_e <= f_e <= 9 y_e``: a flow moves value from ``a`` to
``b``, and only along a link in use. Every visible cell ``v`` ends at a
multiple of ten: ``x_v + inflow - outflow = 10 k_v`` with ``k_v`` an
integer. The two corners have no such row (their values are unknown), unless
the top-left value is fixed to ``c``: then the top-left cell has the row with
``x = c``. The bottom-right cell never needs one: the flows cancel over the
board, so its row would follow from the others. The objective is
``sum(y_e)``.

It is exact, but its linear relaxation is weak (the ``k_v`` make any
fractional flow balance), so HiGHS may need minutes on the denser published
puzzles; ``solver.py`` is the fast exact method, and the tests compare the
two where this one is quick (small boards, light noise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from puzzles.engines.decodoku.board import MODULUS, Board

_MAX_FLOW = MODULUS - 1


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    """``links``: the fewest links (``None`` if HiGHS stopped without a solution)."""

    links: int | None
    optimal: bool
    explanation: frozenset[int]


def fewest_links(
    board: Board, *, top_left: int | None = None, time_limit: float | None = None
) -> ReferenceResult:
    """The fewest links over all explanations (or over those giving ``top_left``)."""
    geo = board.geometry
    count = len(geo.links)
    cells = geo.cells
    tl, br = geo.corners
    # Variables: f (count), y (count), k (cells).
    f0, y0, k0 = 0, count, 2 * count
    total = 2 * count + cells
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    lower: list[float] = []
    upper: list[float] = []

    def add(entries: list[tuple[int, float]], low: float, high: float) -> None:
        row = len(lower)
        for col, value in entries:
            rows.append(row)
            cols.append(col)
            data.append(value)
        lower.append(low)
        upper.append(high)

    for cell in range(cells):
        if cell == br or (cell == tl and top_left is None):
            continue
        value = top_left if cell == tl and top_left is not None else board.values[cell]
        entries = [(k0 + cell, -float(MODULUS))]
        for link, (a, b) in enumerate(geo.links):
            if b == cell:
                entries.append((f0 + link, 1.0))
            elif a == cell:
                entries.append((f0 + link, -1.0))
        add(entries, -float(value), -float(value))
    for link in range(count):
        add([(f0 + link, 1.0), (y0 + link, -float(_MAX_FLOW))], -np.inf, 0.0)
        add([(f0 + link, -1.0), (y0 + link, -float(_MAX_FLOW))], -np.inf, 0.0)
    matrix = coo_matrix((data, (rows, cols)), shape=(len(lower), total)).tocsr()
    cost = np.zeros(total)
    cost[y0 : y0 + count] = 1.0
    low = np.r_[np.full(count, -_MAX_FLOW), np.zeros(count), np.full(cells, -4)]
    high = np.r_[np.full(count, _MAX_FLOW), np.ones(count), np.full(cells, 4)]
    options: dict[str, float] = {}
    if time_limit is not None:
        options["time_limit"] = time_limit
    result = milp(
        cost,
        constraints=LinearConstraint(matrix, np.array(lower), np.array(upper)),
        integrality=np.ones(total),
        bounds=Bounds(low, high),
        options=options,
    )
    if result.x is None:
        return ReferenceResult(None, False, frozenset())
    used = frozenset(int(i) for i in np.flatnonzero(np.round(result.x[y0 : y0 + count])))
    return ReferenceResult(len(used), result.status == 0, used)


def corner_costs(board: Board, *, time_limit: float | None = None) -> list[int | None]:
    """The fewest links for each top-left value 0-9 (ten solves: for small boards)."""
    return [fewest_links(board, top_left=c, time_limit=time_limit).links for c in range(MODULUS)]
