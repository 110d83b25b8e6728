"""The Decodoku puzzle's board: cells, links, and the grid as a string.

Pure Python, no Django. A board is ``rows x cols`` cells (8 x 8 for the
puzzles), numbered row-major from 0: ``cell = row * cols + col``. Every cell
holds a digit 0-9 except the two hidden corners, the top-left cell
(``TOP_LEFT`` = 0) and the bottom-right cell (the last one), whose values the
player does not see.

A *link* joins two neighbouring cells. The links are numbered in one fixed
order: first the horizontal links, row by row from the top and each row from
the left (link ``row * (cols - 1) + col`` joins ``(row, col)`` to
``(row, col + 1)``), then the vertical links in row-major order of their
upper cell (link ``rows * (cols - 1) + row * cols + col`` joins ``(row,
col)`` to ``(row + 1, col)``). An 8 x 8 board has 112 links, 56 of each kind;
this is also the order of the 112-bit genome of the published genetic solver
the puzzles come from (``docs/decodoku-puzzles.md``).

A grid string holds the cells row-major, one character each: a digit, and
for the two corners a digit or ``?`` (the corners are hidden whatever is
written there; a digit written at a corner is kept only as the value the
board's maker recorded, never shown to a solver).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

MODULUS = 10
SIZE = 8
TOP_LEFT = 0
HIDDEN = "?"
MIN_SIDE = 2
MAX_SIDE = 16


class DecodokuError(ValueError):
    """A malformed Decodoku board, grid string or explanation."""


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """The cells and links of a ``rows x cols`` board (build it with :func:`geometry`).

    One object per size (:func:`geometry` caches them), compared by identity.
    """

    rows: int
    cols: int
    links: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    between: dict[tuple[int, int], int]

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def bottom_right(self) -> int:
        return self.cells - 1

    @property
    def corners(self) -> tuple[int, int]:
        return (TOP_LEFT, self.cells - 1)

    def link(self, a: int, b: int) -> int:
        """The link joining two neighbouring cells, either way round."""
        key = (a, b) if a < b else (b, a)
        try:
            return self.between[key]
        except KeyError:
            raise DecodokuError(f"cells {a} and {b} are not neighbours") from None

    def cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def position(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)


@lru_cache(maxsize=32)
def geometry(rows: int = SIZE, cols: int = SIZE) -> Geometry:
    """The geometry of a ``rows x cols`` board (cached: it never changes)."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise DecodokuError(f"a board has {MIN_SIDE} to {MAX_SIDE} rows and columns")
    links: list[tuple[int, int]] = []
    for row in range(rows):
        for col in range(cols - 1):
            cell = row * cols + col
            links.append((cell, cell + 1))
    for row in range(rows - 1):
        for col in range(cols):
            cell = row * cols + col
            links.append((cell, cell + cols))
    neighbours: list[list[int]] = [[] for _ in range(rows * cols)]
    for a, b in links:
        neighbours[a].append(b)
        neighbours[b].append(a)
    return Geometry(
        rows=rows,
        cols=cols,
        links=tuple(links),
        neighbours=tuple(tuple(sorted(n)) for n in neighbours),
        between={pair: index for index, pair in enumerate(links)},
    )


STANDARD = geometry(SIZE, SIZE)


@dataclass(frozen=True, slots=True)
class Board:
    """A board after noise, as the player sees it, plus what its maker recorded.

    ``values`` has one digit per cell; the entries of the two corners are 0
    and mean nothing (the corners are hidden). ``corners`` is the pair
    (top-left, bottom-right) of values the board's maker recorded, when there
    is one: the true values for a generated board, the published digits for a
    published puzzle (``docs/decodoku-puzzles.md`` says how far those can be
    trusted). Solvers never read it.
    """

    geometry: Geometry
    values: tuple[int, ...]
    corners: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if len(self.values) != self.geometry.cells:
            raise DecodokuError(
                f"a {self.geometry.rows} x {self.geometry.cols} board has "
                f"{self.geometry.cells} cells, not {len(self.values)}"
            )
        for value in self.values:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MODULUS:
                raise DecodokuError(f"cell values are digits 0-9, not {value!r}")
        tl, br = self.geometry.corners
        if self.values[tl] or self.values[br]:
            raise DecodokuError("the two hidden corners hold 0 in the values")
        if self.corners is not None:
            if len(self.corners) != 2 or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MODULUS
                for v in self.corners
            ):
                raise DecodokuError("the recorded corners are two digits 0-9")
            if (sum(self.corners) + self.visible_sum) % MODULUS:
                raise DecodokuError(
                    "the recorded corners break the total-sum rule: all the numbers, "
                    "the corners included, sum to 0 mod 10"
                )

    @property
    def visible_sum(self) -> int:
        """The sum of the visible cells mod 10 (the corners sum to minus this)."""
        return sum(self.values) % MODULUS

    def bottom_right_for(self, top_left: int) -> int:
        """The bottom-right value the total-sum rule gives for a top-left value."""
        return (-self.visible_sum - top_left) % MODULUS

    def grid(self, *, corners: bool = False) -> str:
        """The grid string: the corners as ``?``, or as the recorded digits."""
        chars = [str(v) for v in self.values]
        tl, br = self.geometry.corners
        if corners and self.corners is not None:
            chars[tl], chars[br] = str(self.corners[0]), str(self.corners[1])
        else:
            chars[tl] = chars[br] = HIDDEN
        return "".join(chars)


def parse_grid(
    text: str, *, rows: int = SIZE, cols: int = SIZE, keep_corners: bool = False
) -> Board:
    """A board from its grid string (row-major, one character per cell).

    The two corners may be digits or ``?``; they are hidden either way. With
    ``keep_corners``, two corner digits are recorded as the board's
    ``corners`` (they must then obey the total-sum rule).
    """
    geo = geometry(rows, cols)
    if not isinstance(text, str):
        raise DecodokuError("the grid is a string of digits")
    if len(text) != geo.cells:
        raise DecodokuError(
            f"the grid has {len(text)} characters, not {geo.cells}: one per cell of the "
            f"{rows} x {cols} board, row-major"
        )
    tl, br = geo.corners
    values: list[int] = []
    for index, char in enumerate(text):
        if index in (tl, br):
            if char != HIDDEN and not ("0" <= char <= "9"):
                raise DecodokuError(
                    f"character {index + 1} ({char!r}) is a corner: a digit or {HIDDEN!r}"
                )
            values.append(0)
        elif "0" <= char <= "9":
            values.append(int(char))
        else:
            raise DecodokuError(
                f"character {index + 1} ({char!r}) is not a digit: every cell but the two "
                f"corners holds 0-9"
            )
    corners = None
    if keep_corners and text[tl] != HIDDEN and text[br] != HIDDEN:
        corners = (int(text[tl]), int(text[br]))
    return Board(geo, tuple(values), corners)
