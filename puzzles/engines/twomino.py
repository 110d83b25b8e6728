"""2mino: find where every pair of symbols lies on a shuffled board.

Pure Python, no Django. A 2mino board of size N has N symbols (0 .. N-1) and
holds every unordered pair of them once, doubles included: N(N+1)/2 pairs, so
N(N+1) cells, laid out as N + 1 rows and N columns. The player draws the bars
between neighbouring cells until the board is cut into pairs.

Coordinates are ``(row, col)`` from 0. A *bar* lies between two neighbouring
cells and is named by the two cells, in either order; the board's outer edges
are implicit bars that are always on. A *domino* (a placed pair) is two
neighbouring cells.

Generation (``generate``), in the order of its random draws:

1. The tidy layout: pairs in the order 00, 10, 11, 20, 21, 22, ... (bigger
   symbol first) fill the board tile by tile, row-major; tiles are horizontal
   when N is even and vertical when N is odd, which is what makes the pairs fit
   an (N + 1) x N board exactly.
2. The shuffle: the pairs are permuted over the tile positions (a Fisher-Yates
   shuffle, one draw per position from the last down), then each tile is turned
   by 180 degrees (its two symbols swapped) with probability 1/2, one draw per
   tile in row-major order.
3. The transpositions: for every even block size k = 2, 4, ... up to N, and
   every top-left corner in row-major order, a k x k block that no domino
   crosses is transposed (mirrored across its diagonal) with probability 1/2,
   one draw per such block found.
4. The hints: ``hint_bars(N)`` separation bars (bars between two different
   dominoes of the solution) are locked, drawn without replacement from the
   separation bars in a fixed order.
5. Difficulty ``unique`` only: extra separation bars are locked until the
   solver proves the solution unique, then every extra bar that can be
   unlocked again without losing uniqueness is unlocked (no draw).

The randomness is ``random.Random(seed)``, and only its ``random()`` method:
Python guarantees that method's sequence for a given integer seed across
versions (see "Notes on Reproducibility" in the ``random`` module's
documentation), whereas ``randrange`` and ``shuffle`` may change. Integers are
drawn as ``int(random() * n)``.

Solving is exact cover: every cell covered once and every pair used once,
with no domino across a locked bar. ``count_solutions`` stops at a limit
(2 by default), which is all that uniqueness needs.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ENGINE_VERSION = 1
KIND = "2mino"
MIN_SIZE = 3
MAX_SIZE = 12

Cell = tuple[int, int]
Bar = tuple[Cell, Cell]  # normalised: the smaller cell first
Pair = tuple[int, int]  # normalised: the smaller symbol first
Difficulty = Literal["normal", "unique", "trivial", "basic", "hard"]
# ``normal`` and ``unique`` as they always were; the others are levels of ``grade``
# (a unique board rated exactly that level, or TwominoError). ``recursive`` is
# graded but not generated: no unique board needing search was met in 30 tries.
DIFFICULTIES: tuple[Difficulty, ...] = ("normal", "unique", "trivial", "basic", "hard")


class TwominoError(ValueError):
    """A malformed 2mino board or an impossible action on one."""


def hint_bars(size: int) -> int:
    """How many separation bars generation locks as hints: floor(N^2 / 4).

    The figure is the original game's (its author calls it the result of some
    algorithmics, without publishing the working). ``bench/puzzles.py`` and
    docs/puzzles.md report how often it gives a unique board at each N.
    """
    return size * size // 4


def bar(a: Cell, b: Cell) -> Bar:
    """The bar between two cells, normalised so that either order names it."""
    return (a, b) if a <= b else (b, a)


def pair_of(x: int, y: int) -> Pair:
    return (x, y) if x <= y else (y, x)


def all_pairs(size: int) -> list[Pair]:
    """Every pair of N symbols in the original order: 00, 10, 11, 20, 21, 22, ..."""
    return [(low, high) for high in range(size) for low in range(high + 1)]


def _check_size(size: object) -> int:
    if isinstance(size, bool) or not isinstance(size, int):
        raise TwominoError("size must be an integer")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise TwominoError(f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")
    return size


@dataclass(frozen=True)
class Board:
    """The shape of an (N + 1) x N board: its cells, neighbours and bars."""

    size: int
    rows: int = field(init=False)
    cols: int = field(init=False)

    def __post_init__(self) -> None:
        _check_size(self.size)
        object.__setattr__(self, "rows", self.size + 1)
        object.__setattr__(self, "cols", self.size)

    def contains(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    def cells(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        r, c = cell
        for other in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
            if self.contains(other):
                yield other

    def inner_bars(self) -> list[Bar]:
        """Every bar between two cells, row-major by its first cell, right before down."""
        bars: list[Bar] = []
        for r, c in self.cells():
            if c + 1 < self.cols:
                bars.append(((r, c), (r, c + 1)))
            if r + 1 < self.rows:
                bars.append(((r, c), (r + 1, c)))
        return bars

    def is_bar(self, a: Cell, b: Cell) -> bool:
        return self.contains(a) and self.contains(b) and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def outer_bars(self, a: Cell, b: Cell) -> list[Bar]:
        """The six bars around a domino on a and b that lie inside the board.

        Bars on the board's edge are left out: they are always on.
        """
        outer: list[Bar] = []
        for cell, partner in ((a, b), (b, a)):
            for n in self.neighbours(cell):
                if n != partner:
                    outer.append(bar(cell, n))
        return outer


@dataclass(frozen=True)
class Puzzle:
    """A 2mino board: the symbols, the locked bars and one solution."""

    size: int
    seed: int | None
    grid: tuple[tuple[int, ...], ...]
    locked: frozenset[Bar]
    solution: tuple[Bar, ...]
    difficulty: Difficulty = "normal"
    engine_version: int = ENGINE_VERSION

    @property
    def board(self) -> Board:
        return Board(self.size)

    def symbol(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    def pair_at(self, a: Cell, b: Cell) -> Pair:
        return pair_of(self.symbol(a), self.symbol(b))

    def to_json(self, *, solutions: int | None = None) -> dict[str, Any]:
        """The JSON form of ``manage.py puzzle generate 2mino``."""
        count = count_solutions(self) if solutions is None else solutions
        return {
            "kind": KIND,
            "size": self.size,
            "seed": self.seed,
            "engine_version": self.engine_version,
            "difficulty": self.difficulty,
            "rows": self.size + 1,
            "cols": self.size,
            "grid": [list(row) for row in self.grid],
            "locked_bars": [_bar_json(b) for b in sorted(self.locked)],
            "solution": [_bar_json(d) for d in self.solution],
            "solutions": count if count < 2 else ">=2",
        }


def _bar_json(b: Bar) -> dict[str, list[int]]:
    return {"a": list(b[0]), "b": list(b[1])}


# --- generation -------------------------------------------------------------


def _draw(rng: random.Random, n: int) -> int:
    """A whole number in [0, n) from one ``random()`` draw (see the module doc)."""
    return min(int(rng.random() * n), n - 1)


def tidy_layout(size: int) -> tuple[list[list[int]], list[Bar]]:
    """The sample board: every pair in order, horizontal tiles for even N, vertical for odd."""
    board = Board(size)
    grid = [[0] * board.cols for _ in range(board.rows)]
    tiles: list[Bar] = []
    if size % 2 == 0:
        for r in range(board.rows):
            for c in range(0, board.cols, 2):
                tiles.append(((r, c), (r, c + 1)))
    else:
        for r in range(0, board.rows, 2):
            for c in range(board.cols):
                tiles.append(((r, c), (r + 1, c)))
    for (a, b), (low, high) in zip(tiles, all_pairs(size), strict=True):
        grid[a[0]][a[1]] = high
        grid[b[0]][b[1]] = low
    return grid, tiles


def _shuffle_pairs(rng: random.Random, grid: list[list[int]], tiles: list[Bar]) -> None:
    contents = [(grid[a[0]][a[1]], grid[b[0]][b[1]]) for a, b in tiles]
    for i in range(len(contents) - 1, 0, -1):
        j = _draw(rng, i + 1)
        contents[i], contents[j] = contents[j], contents[i]
    for (a, b), (first, second) in zip(tiles, contents, strict=True):
        if rng.random() < 0.5:
            first, second = second, first
        grid[a[0]][a[1]] = first
        grid[b[0]][b[1]] = second


def _transpose_blocks(
    rng: random.Random, board: Board, grid: list[list[int]], tiles: list[Bar]
) -> list[Bar]:
    partner: dict[Cell, Cell] = {}
    for a, b in tiles:
        partner[a] = b
        partner[b] = a
    for k in range(2, board.size + 1, 2):
        for r0 in range(board.rows - k + 1):
            for c0 in range(board.cols - k + 1):
                inside = [(r0 + i, c0 + j) for i in range(k) for j in range(k)]
                if not all(
                    r0 <= partner[x][0] < r0 + k and c0 <= partner[x][1] < c0 + k for x in inside
                ):
                    continue
                if rng.random() >= 0.5:
                    continue
                old_values = {x: grid[x[0]][x[1]] for x in inside}
                old_partner = {x: partner[x] for x in inside}

                def mirror(cell: Cell, r0: int = r0, c0: int = c0) -> Cell:
                    return (r0 + cell[1] - c0, c0 + cell[0] - r0)

                for x in inside:
                    m = mirror(x)
                    grid[m[0]][m[1]] = old_values[x]
                    partner[m] = mirror(old_partner[x])
    seen: set[Cell] = set()
    dominoes: list[Bar] = []
    for cell in board.cells():
        if cell not in seen:
            seen.add(cell)
            seen.add(partner[cell])
            dominoes.append(bar(cell, partner[cell]))
    return dominoes


def generate(*, size: int, seed: int, difficulty: Difficulty = "normal") -> Puzzle:
    """A seeded 2mino board; the same arguments give the same board on every machine."""
    board = Board(size)
    if difficulty not in DIFFICULTIES:
        raise TwominoError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise TwominoError("seed must be a non-negative integer")
    rng = random.Random(seed)
    grid, tiles = tidy_layout(size)
    _shuffle_pairs(rng, grid, tiles)
    solution = _transpose_blocks(rng, board, grid, tiles)
    internal = set(solution)
    separation = [b for b in board.inner_bars() if b not in internal]
    locked: list[Bar] = []
    for _ in range(min(hint_bars(size), len(separation))):
        locked.append(separation.pop(_draw(rng, len(separation))))
    puzzle = Puzzle(
        size=size,
        seed=seed,
        grid=tuple(tuple(row) for row in grid),
        locked=frozenset(locked),
        solution=tuple(sorted(solution)),
        difficulty=difficulty,
    )
    if difficulty == "unique":
        puzzle = make_unique(puzzle)
    elif difficulty != "normal":
        puzzle = _level_board(puzzle, difficulty)
    return puzzle


# Boards tried for a level: the seed's own, then those of seed + k * LEVEL_SEED_STEP
# (k = 1, 2, ...), each made unique and moved towards the level; a fixed number of
# tries, so that a seed and a level always give the same board.
LEVEL_ATTEMPTS = 24
LEVEL_SEED_STEP = 2**64


def _level_board(first: Puzzle, level: Difficulty) -> Puzzle:
    reached: dict[str, int] = {}
    seed = first.seed or 0
    for k in range(LEVEL_ATTEMPTS):
        base = first if k == 0 else generate(size=first.size, seed=seed + k * LEVEL_SEED_STEP)
        try:
            made = _for_level(make_unique(base), level)
        except TwominoError as exc:
            name = str(exc).rsplit("reached: ", 1)[-1].split(")")[0]
            reached[name] = reached.get(name, 0) + 1
            continue
        return Puzzle(
            size=made.size,
            seed=first.seed,
            grid=made.grid,
            locked=made.locked,
            solution=made.solution,
            difficulty=level,
            engine_version=made.engine_version,
        )
    got = ", ".join(f"{name} {count}" for name, count in sorted(reached.items()))
    raise TwominoError(
        f"no {first.size}x{first.size} 2mino board rated {level} from seed {first.seed} "
        f"in {LEVEL_ATTEMPTS} tries (reached: {got}); try another seed or size"
    )


def _with_bars(puzzle: Puzzle, locked: set[Bar], difficulty: Difficulty) -> Puzzle:
    return Puzzle(
        size=puzzle.size,
        seed=puzzle.seed,
        grid=puzzle.grid,
        locked=frozenset(locked),
        solution=puzzle.solution,
        difficulty=difficulty,
        engine_version=puzzle.engine_version,
    )


def _for_level(unique: Puzzle, level: Difficulty) -> Puzzle:
    """The unique board moved to exactly ``level`` of :func:`grade`, without draws.

    Too hard: separation bars are locked one by one (in bar order), each kept
    unless the board gets easier than the level. Too easy: locked bars are
    unlocked one by one (in bar order), each change kept when the board stays
    unique and no harder than the level. TwominoError names the level reached
    when neither gets there.
    """
    target = GRADE_LEVELS.index(level) + 1
    locked = set(unique.locked)
    rank = grade(unique).rank
    if rank > target:
        own = set(unique.solution)
        for b in unique.board.inner_bars():
            if b in own or b in locked:
                continue
            new = grade(_with_bars(unique, locked | {b}, level)).rank
            if new >= target:
                locked.add(b)
                rank = new
            if rank == target:
                break
    elif rank < target:
        for b in sorted(locked):
            trial = locked - {b}
            if count_solutions_of(unique.size, unique.grid, trial, limit=2) != 1:
                continue
            new = grade(_with_bars(unique, trial, level)).rank
            if new <= target:
                locked, rank = trial, new
            if rank == target:
                break
    if rank != target:
        raise TwominoError(
            f"no {unique.size}x{unique.size} 2mino board rated {level} from seed "
            f"{unique.seed} (reached: {GRADE_LEVELS[rank - 1]}); try another seed or size"
        )
    return _with_bars(unique, locked, level)


def make_unique(puzzle: Puzzle) -> Puzzle:
    """Lock extra separation bars until the puzzle's solution is the only one.

    Each extra bar cuts a domino of another solution that the puzzle's own
    solution does not use. Afterwards every extra bar whose removal keeps the
    solution unique is unlocked again, so the set is irreducible (no extra bar
    can go); it is not proven to be the smallest possible.
    """
    own = set(puzzle.solution)
    locked = set(puzzle.locked)
    while True:
        other = next(
            (s for s in solve(puzzle.size, puzzle.grid, locked, limit=2) if set(s) != own),
            None,
        )
        if other is None:
            break
        cut = min(d for d in other if d not in own)
        locked.add(cut)
    extra = sorted(locked - puzzle.locked)
    for b in extra:
        trial = locked - {b}
        if count_solutions_of(puzzle.size, puzzle.grid, trial, limit=2) == 1:
            locked = trial
    return Puzzle(
        size=puzzle.size,
        seed=puzzle.seed,
        grid=puzzle.grid,
        locked=frozenset(locked),
        solution=puzzle.solution,
        difficulty="unique",
        engine_version=puzzle.engine_version,
    )


# --- solving ----------------------------------------------------------------


def placements(
    size: int, grid: Sequence[Sequence[int]], locked: Iterable[Bar]
) -> list[tuple[Bar, Pair]]:
    """Every domino that may be placed: two neighbours with no locked bar between them."""
    board = Board(size)
    blocked = set(locked)
    return [
        (b, pair_of(grid[b[0][0]][b[0][1]], grid[b[1][0]][b[1][1]]))
        for b in board.inner_bars()
        if b not in blocked
    ]


def solve(
    size: int,
    grid: Sequence[Sequence[int]],
    locked: Iterable[Bar],
    *,
    limit: int = 2,
) -> Iterator[tuple[Bar, ...]]:
    """Yield up to ``limit`` tilings that use every pair exactly once.

    Exact cover by Knuth's Algorithm X on sets: the constraints are the cells
    and the pairs, each placement covers two cells and one pair, and the
    constraint with the fewest remaining placements is branched on first.
    """
    board = Board(size)
    options = placements(size, grid, locked)
    # Cells and pairs are both (int, int): tag them so that they never collide.
    covers: list[tuple[object, ...]] = [
        (("cell", *b[0]), ("cell", *b[1]), ("pair", *p)) for b, p in options
    ]
    by_constraint: dict[object, set[int]] = {("cell", *c): set() for c in board.cells()}
    for p in all_pairs(size):
        by_constraint[("pair", *p)] = set()
    for i, constraints in enumerate(covers):
        for c in constraints:
            by_constraint[c].add(i)
    found = 0
    chosen: list[int] = []

    def select(i: int) -> list[tuple[object, set[int]]]:
        removed: list[tuple[object, set[int]]] = []
        for c in covers[i]:
            for j in by_constraint[c]:
                for other in covers[j]:
                    if other != c:
                        by_constraint[other].discard(j)
            removed.append((c, by_constraint.pop(c)))
        return removed

    def deselect(i: int, removed: list[tuple[object, set[int]]]) -> None:
        for c, rows in reversed(removed):
            by_constraint[c] = rows
            for j in rows:
                for other in covers[j]:
                    if other != c:
                        by_constraint[other].add(j)

    def search() -> Iterator[tuple[Bar, ...]]:
        nonlocal found
        if not by_constraint:
            found += 1
            yield tuple(sorted(options[i][0] for i in chosen))
            return
        column = min(by_constraint, key=lambda c: len(by_constraint[c]))
        for i in sorted(by_constraint[column]):
            removed = select(i)
            chosen.append(i)
            yield from search()
            chosen.pop()
            deselect(i, removed)
            if found >= limit:
                return

    if limit > 0:
        yield from search()


def count_solutions_of(
    size: int, grid: Sequence[Sequence[int]], locked: Iterable[Bar], *, limit: int = 2
) -> int:
    return sum(1 for _ in solve(size, grid, locked, limit=limit))


def count_solutions(puzzle: Puzzle, *, limit: int = 2) -> int:
    """How many tilings the board allows, counting no further than ``limit``."""
    return count_solutions_of(puzzle.size, puzzle.grid, puzzle.locked, limit=limit)


def forced_pairs(
    size: int, grid: Sequence[Sequence[int]], locked: Iterable[Bar]
) -> dict[Pair, Bar]:
    """Pairs that can lie in only one place: the solver's first forced deductions."""
    where: dict[Pair, list[Bar]] = {}
    for b, p in placements(size, grid, locked):
        where.setdefault(p, []).append(b)
    return {p: places[0] for p, places in where.items() if len(places) == 1}


# --- validation of a board given from outside --------------------------------


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle from the JSON of ``puzzle generate 2mino``; the solution is optional.

    Raises TwominoError naming the field that is wrong.
    """
    if not isinstance(data, dict):
        raise TwominoError("a 2mino puzzle must be a JSON object")
    if data.get("kind") != KIND:
        raise TwominoError(f"kind must be {KIND!r}")
    size = _check_size(data.get("size"))
    board = Board(size)
    grid = data.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != board.rows
        or not all(isinstance(row, list) and len(row) == board.cols for row in grid)
    ):
        raise TwominoError(f"grid must be {board.rows} rows of {board.cols} symbols")
    for row in grid:
        for value in row:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
                raise TwominoError(f"grid symbols must be integers from 0 to {size - 1}")
    counts = [0] * size
    for row in grid:
        for value in row:
            counts[value] += 1
    if any(n != size + 1 for n in counts):
        raise TwominoError(f"every symbol must appear {size + 1} times in the grid")
    locked = frozenset(_bars_from_json(board, data.get("locked_bars", []), "locked_bars"))
    solution_data = data.get("solution")
    solution: tuple[Bar, ...] = ()
    if solution_data is not None:
        solution = tuple(sorted(_bars_from_json(board, solution_data, "solution")))
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TwominoError("seed must be an integer or null")
    difficulty = data.get("difficulty", "normal")
    if difficulty not in DIFFICULTIES:
        raise TwominoError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    puzzle = Puzzle(
        size=size,
        seed=seed,
        grid=tuple(tuple(row) for row in grid),
        locked=locked,
        solution=solution,
        difficulty=difficulty,
    )
    if solution:
        problem = tiling_problem(puzzle, solution)
        if problem:
            raise TwominoError(f"solution: {problem}")
    return puzzle


def _bars_from_json(board: Board, items: object, name: str) -> list[Bar]:
    if not isinstance(items, list):
        raise TwominoError(f"{name} must be a list")
    bars: list[Bar] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise TwominoError(f"{name}[{index}] must be an object with a and b")
        cells = []
        for key in ("a", "b"):
            value = item.get(key)
            if (
                not isinstance(value, list)
                or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise TwominoError(f"{name}[{index}].{key} must be [row, col]")
            cells.append((value[0], value[1]))
        if not board.is_bar(cells[0], cells[1]):
            raise TwominoError(
                f"{name}[{index}]: {cells[0]} and {cells[1]} are not neighbours on the board"
            )
        bars.append(bar(cells[0], cells[1]))
    return bars


def tiling_problem(puzzle: Puzzle, dominoes: Iterable[Bar]) -> str | None:
    """Why the dominoes are not a solution of the puzzle, or None when they are."""
    board = puzzle.board
    covered: set[Cell] = set()
    counts: dict[Pair, int] = dict.fromkeys(all_pairs(puzzle.size), 0)
    for a, b in dominoes:
        if not board.is_bar(a, b):
            return f"{a} and {b} are not neighbours"
        if bar(a, b) in puzzle.locked:
            return f"the domino {a}-{b} crosses a locked bar"
        for cell in (a, b):
            if cell in covered:
                return f"the cell {cell} is in two dominoes"
            covered.add(cell)
        counts[puzzle.pair_at(a, b)] += 1
    for p, n in counts.items():
        if n == 0:
            return f"the pair {p[0]}-{p[1]} is missing"
        if n > 1:
            return f"the pair {p[0]}-{p[1]} is found {n} times"
    return None


# --- play ---------------------------------------------------------------------


@dataclass(frozen=True)
class ToggleResult:
    bar: Bar
    on: bool
    formed: tuple[Bar, ...]
    broken: tuple[Bar, ...]


class Play:
    """A player's board: which bars are on, and which pairs that forms.

    A pair is formed when the bar between two neighbouring cells is off and
    the six bars around them are on (the board's edges count as on). The
    puzzle is solved when every pair is formed exactly once, whatever tiling
    the player chose: formed dominoes never overlap (the bar inside one is an
    outer bar of every other domino on its cells), so N(N+1)/2 of them with
    all pairs different cover the board.
    """

    def __init__(self, puzzle: Puzzle, on: Iterable[Bar] = ()) -> None:
        self.puzzle = puzzle
        self.board = puzzle.board
        self.on: set[Bar] = set(puzzle.locked)
        self.counts: dict[Pair, int] = dict.fromkeys(all_pairs(puzzle.size), 0)
        self.formed: set[Bar] = set()
        for b in on:
            self._check_bar(b)
            self.on.add(bar(*b))
        for d in self.board.inner_bars():
            if self._is_formed(d):
                self.formed.add(d)
                self.counts[puzzle.pair_at(*d)] += 1

    def _check_bar(self, b: Bar) -> Bar:
        a, c = b
        if not self.board.is_bar(a, c):
            raise TwominoError(f"there is no bar between {a} and {c}")
        return bar(a, c)

    def _is_formed(self, d: Bar) -> bool:
        return d not in self.on and all(o in self.on for o in self.board.outer_bars(*d))

    def _dominoes_touching(self, b: Bar) -> set[Bar]:
        touching: set[Bar] = set()
        for cell in b:
            for n in self.board.neighbours(cell):
                touching.add(bar(cell, n))
        return touching

    def toggle(self, a: Cell, b: Cell) -> ToggleResult:
        """Turn the bar between a and b on or off; locked bars cannot change."""
        key = self._check_bar((a, b))
        if key in self.puzzle.locked:
            raise TwominoError(f"the bar between {a} and {b} is locked")
        candidates = self._dominoes_touching(key)
        before = {d for d in candidates if d in self.formed}
        if key in self.on:
            self.on.discard(key)
        else:
            self.on.add(key)
        after = {d for d in candidates if self._is_formed(d)}
        for d in before - after:
            self.formed.discard(d)
            self.counts[self.puzzle.pair_at(*d)] -= 1
        for d in after - before:
            self.formed.add(d)
            self.counts[self.puzzle.pair_at(*d)] += 1
        return ToggleResult(
            bar=key,
            on=key in self.on,
            formed=tuple(sorted(after - before)),
            broken=tuple(sorted(before - after)),
        )

    def pair_status(self, p: Pair) -> Literal["missing", "found", "repeated"]:
        n = self.counts[pair_of(*p)]
        return "missing" if n == 0 else "found" if n == 1 else "repeated"

    @property
    def solved(self) -> bool:
        return all(n == 1 for n in self.counts.values())

    def problem(self) -> str | None:
        """Why the board is not solved yet (the first missing or doubled pair), or None."""
        for p, n in self.counts.items():
            if n == 0:
                return f"the pair {p[0]}-{p[1]} is missing"
            if n > 1:
                return f"the pair {p[0]}-{p[1]} is found {n} times"
        return None


# --- grading: a ladder of deductions -----------------------------------------
#
# After Simon Tatham's Dominosa (Portable Puzzle Collection), whose levels go
# from "a domino with one place" up to recursion. A position is the set of
# placements still possible and the dominoes placed; each technique removes
# placements or places a domino, and only sound deductions are used, so a board
# the ladder fills has exactly one solution.

ONLY_PLACE = "only_place"  # a pair with one placement left
ONLY_PARTNER = "only_partner"  # a cell with one placement left
SHARED_CELL = "shared_cell"  # every placement of a pair covers one cell: the cell is the pair's
LEAVES_NOTHING = "leaves_nothing"  # a placement that would leave a cell or pair with none
FORCING = "forcing"  # a placement whose level 1 consequences contradict
SEARCH = "search"
GRADE_LEVELS = ("trivial", "basic", "hard", "recursive")
GRADE_TECHNIQUES = (ONLY_PLACE, ONLY_PARTNER, SHARED_CELL, LEAVES_NOTHING, FORCING, SEARCH)


@dataclass(frozen=True)
class Grade:
    """The lowest level whose deductions tile the board (``recursive``: they do not)."""

    rank: int
    label: str
    hardest: str
    techniques: dict[str, int]


class _Position:
    def __init__(self, options: dict[Bar, Pair]) -> None:
        self.alive = dict(options)
        self.placed: set[Bar] = set()

    def copy(self) -> _Position:
        other = _Position(self.alive)
        other.placed = set(self.placed)
        return other

    def tables(self) -> tuple[dict[Cell, list[Bar]], dict[Pair, list[Bar]]]:
        by_cell: dict[Cell, list[Bar]] = {}
        by_pair: dict[Pair, list[Bar]] = {}
        for b, p in self.alive.items():
            by_cell.setdefault(b[0], []).append(b)
            by_cell.setdefault(b[1], []).append(b)
            by_pair.setdefault(p, []).append(b)
        return by_cell, by_pair

    def place(self, b: Bar) -> None:
        pair = self.alive[b]
        self.placed.add(b)
        for other in [o for o, p in self.alive.items() if o != b]:
            if _share_a_cell(other, b) or self.alive[other] == pair:
                del self.alive[other]


def _share_a_cell(a: Bar, b: Bar) -> bool:
    """Whether two dominoes share a cell."""
    return bool({a[0], a[1]} & {b[0], b[1]})


def _broken(pos: _Position, cells: list[Cell], pairs: list[Pair]) -> bool:
    by_cell, by_pair = pos.tables()
    return any(c not in by_cell for c in cells) or any(p not in by_pair for p in pairs)


def _level1(pos: _Position, cells: list[Cell], pairs: list[Pair]) -> str | None:
    """One trivial deduction applied; its name, or None (nothing applies)."""
    by_cell, by_pair = pos.tables()
    for p in pairs:
        places = by_pair.get(p, [])
        if len(places) == 1 and places[0] not in pos.placed:
            pos.place(places[0])
            return ONLY_PLACE
    for c in cells:
        places = by_cell.get(c, [])
        if len(places) == 1 and places[0] not in pos.placed:
            pos.place(places[0])
            return ONLY_PARTNER
    return None


def _level2(pos: _Position, cells: list[Cell], pairs: list[Pair]) -> str | None:
    by_cell, by_pair = pos.tables()
    for p in pairs:
        places = by_pair.get(p, [])
        if len(places) < 2:
            continue
        common = {places[0][0], places[0][1]}
        for b in places[1:]:
            common &= {b[0], b[1]}
        for c in sorted(common):
            others = [b for b in by_cell[c] if pos.alive[b] != p]
            if others:
                for b in others:
                    del pos.alive[b]
                return SHARED_CELL
    for b in sorted(pos.alive):
        if b in pos.placed:
            continue
        trial = pos.copy()
        trial.place(b)
        if _broken(trial, cells, pairs):
            del pos.alive[b]
            return LEAVES_NOTHING
    return None


def _settle(pos: _Position, cells: list[Cell], pairs: list[Pair], used: dict[str, int]) -> bool:
    """Level 1 until nothing applies; False on a contradiction."""
    while not _broken(pos, cells, pairs):
        step = _level1(pos, cells, pairs)
        if step is None:
            return True
        used[step] = used.get(step, 0) + 1
    return False


def _level3(pos: _Position, cells: list[Cell], pairs: list[Pair]) -> str | None:
    for b in sorted(pos.alive):
        if b in pos.placed:
            continue
        trial = pos.copy()
        trial.place(b)
        if not _settle(trial, cells, pairs, {}):
            del pos.alive[b]
            return FORCING
    return None


def grade(puzzle: Puzzle) -> Grade:
    """The level of a board: the lowest rung of the ladder that tiles it.

    1 ``trivial``: a pair with one placement left (``only_place``) or a cell
    with one (``only_partner``) is placed. 2 ``basic``: when every placement of
    a pair covers one cell, that cell's other placements go (``shared_cell``);
    a placement that would leave a cell or a pair with no placement goes
    (``leaves_nothing``). 3 ``hard``: a placement whose level 1 consequences
    end in a contradiction goes (``forcing``). 4 ``recursive``: the ladder gets
    stuck (guessing is needed, or the board has more than one solution).
    """
    board = puzzle.board
    cells = list(board.cells())
    pairs = all_pairs(puzzle.size)
    pos = _Position(dict(placements(puzzle.size, puzzle.grid, puzzle.locked)))
    used: dict[str, int] = {}
    hardest = (1, ONLY_PLACE)
    rungs = ((1, _level1), (2, _level2), (3, _level3))
    while not _broken(pos, cells, pairs):
        if len(pos.placed) * 2 == len(cells):
            rank = hardest[0]
            return Grade(rank, GRADE_LEVELS[rank - 1], hardest[1], used)
        for level, rung in rungs:
            step = rung(pos, cells, pairs)
            if step is not None:
                used[step] = used.get(step, 0) + 1
                hardest = max(hardest, (level, step), key=lambda h: h[0])
                break
        else:
            break
    return Grade(4, GRADE_LEVELS[3], SEARCH, used)
