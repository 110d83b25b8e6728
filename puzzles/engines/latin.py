"""What KenKen and Futoshiki share: an N x N Latin square and candidate bitmasks.

Cells are numbered ``index = row * size + col``. The candidates of a cell are
one integer whose bit ``v - 1`` is set when the value ``v`` (1..N) is still
possible there, as in the Futoshiki program of seed 003 ("options"). A cell
is decided when exactly one bit is left, and a cell with no bit left means
the grid cannot be completed.

A puzzle kind subclasses :class:`LatinPuzzle` and adds its own constraint:
``narrow`` (used by the fast propagation of the solution counter) and
``constraint_step`` (the same deduction, one piece at a time, for the
technique trace and for tagging players' entries).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

MIN_LATIN_SIZE = 3
# The default limit of a kind; Futoshiki raises its own (the masks are Python integers,
# so nothing here assumes N <= 9: only the time to generate a puzzle limits N).
MAX_LATIN_SIZE = 9

Cell = tuple[int, int]
Grid = list[list[int]]
# A kind's constraint applied to candidates in place: True if something changed,
# False if nothing did, None if the candidates cannot be completed.
Narrow = Callable[[list[int]], bool | None]


class PuzzleError(ValueError):
    """A puzzle description is malformed or breaks the rules of its kind."""


def bit(value: int) -> int:
    """The candidate bit of ``value`` (1-based)."""
    return 1 << (value - 1)


def value_of(mask: int) -> int:
    """The value of a single-bit mask."""
    return mask.bit_length()


def values_of(mask: int) -> list[int]:
    """The values whose bits are set, smallest first."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def is_single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def mask_of(*values: int) -> int:
    """The candidate mask of some values."""
    out = 0
    for value in values:
        out |= bit(value)
    return out


def keep_only(cands: list[int], index: int, allowed: int) -> bool | None:
    """Narrow one cell to ``allowed``, in place: True if it lost a candidate, False if
    not, None if it has none left (the candidates cannot be completed)."""
    kept = cands[index] & allowed
    if kept == cands[index]:
        return False
    cands[index] = kept
    return None if not kept else True


def narrow_nothing(cands: list[int]) -> bool | None:
    """The stage of a kind's constraint that deduces nothing (only the Latin rule applies)."""
    return False


@dataclass(frozen=True)
class Geometry:
    """Rows, columns and peers of an N x N grid (computed once per size)."""

    size: int
    full: int
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.size)

    def index(self, cell: Sequence[int]) -> int:
        return cell[0] * self.size + cell[1]

    def unit_name(self, unit_number: int) -> str:
        if unit_number < self.size:
            return f"row {unit_number}"
        return f"column {unit_number - self.size}"


@cache
def geometry(size: int) -> Geometry:
    rows = tuple(tuple(r * size + c for c in range(size)) for r in range(size))
    cols = tuple(tuple(r * size + c for r in range(size)) for c in range(size))
    peers = []
    for index in range(size * size):
        r, c = divmod(index, size)
        peers.append(tuple(sorted((set(rows[r]) | set(cols[c])) - {index})))
    return Geometry(
        size=size,
        full=(1 << size) - 1,
        rows=rows,
        cols=cols,
        units=rows + cols,
        peers=tuple(peers),
    )


@dataclass
class ConstraintStep:
    """One application of a kind's own constraint: which cells caused it, what it removed."""

    technique: str
    cause: list[int]
    new_masks: dict[int, int] = field(default_factory=dict)


class LatinPuzzle:
    """Base class of the Latin-square puzzles."""

    kind: ClassVar[str] = ""
    engine_version: ClassVar[int] = 0
    constraint_technique: ClassVar[str] = ""
    min_size: ClassVar[int] = MIN_LATIN_SIZE
    max_size: ClassVar[int] = MAX_LATIN_SIZE

    def __init__(self, size: int) -> None:
        if not isinstance(size, int) or isinstance(size, bool):
            raise PuzzleError("size must be an integer")
        if not self.min_size <= size <= self.max_size:
            raise PuzzleError(f"size must be between {self.min_size} and {self.max_size}")
        self.size = size
        self.geometry = geometry(size)

    # -- what a kind provides ------------------------------------------------

    def initial_candidates(self) -> list[int]:
        """Candidates before any deduction (givens already decided)."""
        return [self.geometry.full] * (self.size * self.size)

    def given_cells(self) -> dict[int, int]:
        """Cells whose value the puzzle states (index -> value); the player cannot change them."""
        return {}

    def narrow(self, cands: list[int]) -> bool | None:
        """Apply the kind's constraint everywhere; True if something changed, None if impossible."""
        raise NotImplementedError

    def narrow_stages(self) -> tuple[Narrow, ...]:
        """The kind's constraint at increasing strength, the last being :meth:`narrow`.

        The ladder of engine version 3 applies the stage of its level (level 1 the
        first, each level the next, the last from then on), as the levels of Keen
        and Unequal do: Keen's Easy knows only which digits a cage holds, Unequal's
        Trivial ignores the signs.
        """
        return (self.narrow,)

    def constraint_step(self, cands: list[int]) -> ConstraintStep | None:
        """The first single application of the kind's constraint that removes a candidate."""
        raise NotImplementedError

    def constraints_hold(self, grid: Grid) -> bool:
        """Whether a complete grid satisfies the kind's own constraints (not the Latin rule)."""
        raise NotImplementedError

    def constraint_groups(self) -> list[tuple[tuple[Cell, ...], Callable[[list[int]], bool]]]:
        """The kind's constraints as (cells, check of their values), for the plain baseline."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------

    def is_solution(self, grid: Grid) -> bool:
        """Whether ``grid`` is a complete, valid solution of this puzzle."""
        n = self.size
        if len(grid) != n or any(len(row) != n for row in grid):
            return False
        full = set(range(1, n + 1))
        if any(set(row) != full for row in grid):
            return False
        if any({grid[r][c] for r in range(n)} != full for c in range(n)):
            return False
        if any(grid[r][c] != v for (r, c), v in self._given_items()):
            return False
        return self.constraints_hold(grid)

    def _given_items(self) -> Iterator[tuple[Cell, int]]:
        for index, value in self.given_cells().items():
            yield self.geometry.cell(index), value

    def grid_from_masks(self, cands: Sequence[int]) -> Grid:
        n = self.size
        return [[value_of(cands[r * n + c]) for c in range(n)] for r in range(n)]


def random_latin_square(size: int, rng: Any) -> Grid:
    """A random Latin square, filled cell by cell with values in random order (backtracking).

    ``rng`` is a :class:`~puzzles.engines.rng.Rng`.
    """
    n = size
    full = (1 << n) - 1
    grid = [[0] * n for _ in range(n)]
    row_used = [0] * n
    col_used = [0] * n
    orders: list[list[int]] = [[] for _ in range(n * n)]
    pos = 0
    while pos < n * n:
        r, c = divmod(pos, n)
        if grid[r][c] == 0:
            free = full & ~(row_used[r] | col_used[c])
            order = values_of(free)
            rng.shuffle(order)
            orders[pos] = order
        else:
            old = bit(grid[r][c])
            row_used[r] &= ~old
            col_used[c] &= ~old
            grid[r][c] = 0
        placed = False
        while orders[pos]:
            v = orders[pos].pop()
            b = bit(v)
            if not (row_used[r] | col_used[c]) & b:
                grid[r][c] = v
                row_used[r] |= b
                col_used[c] |= b
                placed = True
                break
        if placed:
            pos += 1
        else:
            grid[r][c] = 0
            pos -= 1
            # mark the previous cell as "to be retried" (its value is removed above)
    return grid
