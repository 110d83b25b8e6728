"""Futoshiki: a Latin square with some values given and inequality signs between neighbours.

Rules: every row and column holds 1..N once; a given cell keeps its value; a
sign between two neighbouring cells holds between their values.

The kind's own technique, ``operator_chain``, follows seed 003: every sign
trims its two cells (the smaller side loses every value not below the
largest candidate of the other, the larger side every value not above the
smallest candidate of the other), repeated until nothing changes, since
signs in a chain feed each other.

Generation: a random Latin square with every value given and every sign
between neighbours shown; then, in a random order, each given and each sign
is removed if the puzzle can still be solved with the techniques allowed by
the target difficulty (which also proves it unique; for "expert" the
solution counter decides). If the result is easier than the target, a new
square is tried (a few times; the hardest result is kept). That is engine
version 1 (:func:`generate_v1`, kept unchanged). Version 2 (:func:`generate`)
removes the givens before the signs and grades on the ladder of
:mod:`puzzles.engines.grading`: the result must be rated exactly the level
asked for, or a PuzzleError names the levels reached.

The Adjacent sub-kind (:class:`AdjacentFutoshiki`, kind ``futoshiki-adjacent``)
lives at the end of this module: the same givens, bars instead of signs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from puzzles.engines.base import Generated
from puzzles.engines.common import (
    neighbours,
    read_grid,
    require_cell,
    require_int,
    require_mapping,
)
from puzzles.engines.grading import (
    SEARCH_RANK,
    Ladder,
    closure,
    grade,
    label_of,
    ladder_for,
    level_of,
)
from puzzles.engines.latin import (
    Cell,
    ConstraintStep,
    Grid,
    LatinPuzzle,
    Narrow,
    PuzzleError,
    bit,
    is_single,
    keep_only,
    narrow_nothing,
    random_latin_square,
)
from puzzles.engines.rng import Rng
from puzzles.engines.solver import (
    ADJACENCY,
    DIFFICULTY_MAX_LEVEL,
    OPERATOR_CHAIN,
    SEARCH_LEVEL,
    Difficulty,
    count_solutions,
    logical_closure,
    rate,
)

KIND = "futoshiki"
ENGINE_VERSION = 3
# Engine versions that ``generate`` can still reproduce (stored puzzles keep their own).
ENGINE_VERSIONS = (1, 2, 3)
MIN_SIZE = 4
# Beyond 9 x 9 the values 10, 11, ... are shown as two digits. 10 x 10 generates in
# about 1.5 s (at most about 2.2 s); 11 x 11 already took up to about 7 s
# (bench/futoshiki_sizes.py; docs/puzzles.md has the figures).
MAX_SIZE = 10
# Engine version 1 is kept only to regenerate its stored puzzles, all of 9 x 9 or less.
V1_MAX_SIZE = 9
DEFAULT_SIZE = 5
DEFAULT_DIFFICULTY = "medium"
SQUARE_ATTEMPTS = 4


@dataclass(frozen=True)
class Relation:
    """``a`` op ``b``, with ``op`` "<" or ">"; ``a`` and ``b`` are neighbours."""

    a: Cell
    b: Cell
    op: str

    def to_dict(self) -> dict[str, Any]:
        return {"a": list(self.a), "b": list(self.b), "op": self.op}

    def ordered(self) -> tuple[Cell, Cell]:
        """(smaller cell, larger cell)."""
        return (self.a, self.b) if self.op == "<" else (self.b, self.a)

    def holds(self, grid: Grid) -> bool:
        lo, hi = self.ordered()
        return grid[lo[0]][lo[1]] < grid[hi[0]][hi[1]]


class Futoshiki(LatinPuzzle):
    kind = KIND
    engine_version = ENGINE_VERSION
    constraint_technique = OPERATOR_CHAIN
    min_size = MIN_SIZE
    max_size = MAX_SIZE

    def __init__(
        self, size: int, givens: Mapping[Cell, int], relations: Sequence[Relation]
    ) -> None:
        super().__init__(size)
        g = self.geometry
        self.givens = dict(sorted(givens.items()))
        for cell, value in self.givens.items():
            if not (0 <= cell[0] < size and 0 <= cell[1] < size):
                raise PuzzleError(f"given {list(cell)} is outside the grid")
            if not 1 <= value <= size:
                raise PuzzleError(f"given {list(cell)}: the value must be 1 to {size}")
        self.relations = tuple(relations)
        pairs: set[frozenset[Cell]] = set()
        for number, rel in enumerate(self.relations):
            if rel.op not in ("<", ">"):
                raise PuzzleError(f"relation {number}: op must be '<' or '>'")
            if not neighbours(rel.a, rel.b):
                raise PuzzleError(f"relation {number}: a and b must be neighbouring cells")
            key = frozenset((rel.a, rel.b))
            if key in pairs:
                raise PuzzleError(f"relation {number}: a second sign between the same cells")
            pairs.add(key)
        self._less = [
            (g.index(lo), g.index(hi)) for lo, hi in (rel.ordered() for rel in self.relations)
        ]
        self._given_index = {g.index(cell): value for cell, value in self.givens.items()}

    def initial_candidates(self) -> list[int]:
        cands = super().initial_candidates()
        for index, value in self._given_index.items():
            cands[index] = bit(value)
        return cands

    def given_cells(self) -> dict[int, int]:
        return dict(self._given_index)

    def _chain(self, cands: list[int]) -> bool | None:
        changed = False
        again = True
        while again:
            again = False
            for lo, hi in self._less:
                a, b = cands[lo], cands[hi]
                if not a or not b:
                    return None
                # lo < the largest candidate of hi; hi > the smallest candidate of lo.
                na = a & ((1 << (b.bit_length() - 1)) - 1)
                low = na & -na
                nb = b & ~((low << 1) - 1)
                if na != a or nb != b:
                    cands[lo], cands[hi] = na, nb
                    if not na or not nb:
                        return None
                    changed = again = True
        return changed

    def narrow(self, cands: list[int]) -> bool | None:
        return self._chain(cands)

    def narrow_stages(self) -> tuple[Narrow, ...]:
        # Unequal's Trivial uses the givens and the Latin rule only; its Easy the signs.
        return (narrow_nothing, self.narrow)

    def constraint_step(self, cands: list[int]) -> ConstraintStep | None:
        trial = list(cands)
        if self._chain(trial) is False:
            return None
        new = {i: m for i, m in enumerate(trial) if m != cands[i]}
        if not new:
            return None
        cause = sorted(
            {i for pair in self._less for i in pair if i in new or any(j in new for j in pair)}
        )
        return ConstraintStep(OPERATOR_CHAIN, cause, new)

    def less_pairs(self) -> list[tuple[int, int]]:
        """Every sign as (index of the smaller cell, index of the larger cell)."""
        return self._less

    def constraint_groups(self) -> list[tuple[tuple[Cell, ...], Callable[[list[int]], bool]]]:
        def less(values: list[int]) -> bool:
            return values[0] < values[1]

        return [(rel.ordered(), less) for rel in self.relations]

    def constraints_hold(self, grid: Grid) -> bool:
        return all(rel.holds(grid) for rel in self.relations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": KIND,
            "size": self.size,
            "engine_version": ENGINE_VERSION,
            "givens": [[r, c, v] for (r, c), v in self.givens.items()],
            "relations": [rel.to_dict() for rel in self.relations],
        }


def from_dict(data: Mapping[str, Any]) -> Futoshiki:
    """A Futoshiki from its JSON description (extra keys such as the solution are ignored)."""
    data = require_mapping(data, "the puzzle")
    size = require_int(data.get("size"), "size", MIN_SIZE, MAX_SIZE)
    if data.get("mode", "signs") != "signs":
        raise PuzzleError("a futoshiki has signs; mode 'adjacent' is kind futoshiki-adjacent")
    givens = _read_givens(data, size)
    raw_relations = data.get("relations", [])
    if not isinstance(raw_relations, list):
        raise PuzzleError("relations must be a list")
    relations = []
    for number, raw in enumerate(raw_relations):
        raw = require_mapping(raw, f"relation {number}")
        a = require_cell(raw.get("a"), size, f"relation {number} a")
        b = require_cell(raw.get("b"), size, f"relation {number} b")
        op = raw.get("op")
        if op not in ("<", ">"):
            raise PuzzleError(f"relation {number}: op must be '<' or '>'")
        relations.append(Relation(a, b, op))
    return Futoshiki(size, givens, relations)


def _read_givens(data: Mapping[str, Any], size: int) -> dict[Cell, int]:
    raw_givens = data.get("givens", [])
    if not isinstance(raw_givens, list):
        raise PuzzleError("givens must be a list of [row, col, value]")
    if len(raw_givens) > size * size:
        raise PuzzleError("more givens than cells")
    givens: dict[Cell, int] = {}
    for number, raw in enumerate(raw_givens):
        if not isinstance(raw, list) or len(raw) != 3:
            raise PuzzleError(f"given {number} must be [row, col, value]")
        cell = require_cell(raw[:2], size, f"given {number}")
        if cell in givens:
            raise PuzzleError(f"given {number}: cell {list(cell)} is given twice")
        givens[cell] = require_int(raw[2], f"given {number} value", 1, size)
    return givens


def read_solution(data: Mapping[str, Any], size: int) -> Grid | None:
    if data.get("solution") is None:
        return None
    return read_grid(data["solution"], size, "solution")


def generated_dict(made: Generated[Futoshiki, Difficulty]) -> dict[str, Any]:
    """A generated Futoshiki's JSON: the puzzle's givens and signs with the seed,
    solution and rating."""
    data = made.puzzle.to_dict()
    return {
        "kind": KIND,
        "size": data["size"],
        "seed": made.seed,
        "engine_version": made.engine_version,
        "givens": data["givens"],
        "relations": data["relations"],
        "solution": made.solution,
        "difficulty": made.difficulty.to_dict(),
    }


def _all_relations(solution: Grid) -> list[Relation]:
    n = len(solution)
    out = []
    for r in range(n):
        for c in range(n):
            for other in ((r, c + 1), (r + 1, c)):
                if other[0] < n and other[1] < n:
                    op = "<" if solution[r][c] < solution[other[0]][other[1]] else ">"
                    out.append(Relation((r, c), other, op))
    return out


def _solvable(puzzle: Futoshiki, max_level: int) -> bool:
    if max_level >= SEARCH_LEVEL:
        return count_solutions(puzzle, limit=2).count == 1
    return logical_closure(puzzle, max_level=max_level)[1]


def _thin_out(size: int, rng: Rng, max_level: int) -> tuple[Futoshiki, Grid]:
    solution = random_latin_square(size, rng)
    givens = {(r, c): solution[r][c] for r in range(size) for c in range(size)}
    relations = _all_relations(solution)
    clues: list[tuple[str, Any]] = [("given", cell) for cell in givens]
    clues += [("relation", rel) for rel in relations]
    rng.shuffle(clues)
    kept_relations = set(relations)
    for what, clue in clues:
        if what == "given":
            value = givens.pop(clue)
        else:
            kept_relations.discard(clue)
        trial = Futoshiki(size, givens, [rel for rel in relations if rel in kept_relations])
        if not _solvable(trial, max_level):
            if what == "given":
                givens[clue] = value
            else:
                kept_relations.add(clue)
    puzzle = Futoshiki(size, givens, [rel for rel in relations if rel in kept_relations])
    return puzzle, solution


def generate_v1(
    *, size: int = DEFAULT_SIZE, seed: int, difficulty: str | None = None
) -> Generated[Futoshiki, Difficulty]:
    """Engine version 1 (kept unchanged so that its puzzles can be regenerated from their seed)."""
    if not MIN_SIZE <= size <= V1_MAX_SIZE:
        raise PuzzleError(f"engine version 1: size must be between {MIN_SIZE} and {V1_MAX_SIZE}")
    label = difficulty or DEFAULT_DIFFICULTY
    if label not in DIFFICULTY_MAX_LEVEL:
        raise PuzzleError(f"difficulty must be one of {', '.join(DIFFICULTY_MAX_LEVEL)}")
    max_level = DIFFICULTY_MAX_LEVEL[label]
    rng = Rng(seed)
    best: Generated[Futoshiki, Difficulty] | None = None
    for _ in range(SQUARE_ATTEMPTS):
        puzzle, solution = _thin_out(size, rng, max_level)
        rating = rate(puzzle)
        assert rating is not None  # noqa: S101 - a unique puzzle is solved with search
        candidate = Generated(
            puzzle, seed, solution, rating, engine_version=1, describe=generated_dict
        )
        if rating.label == label:
            return candidate
        if best is None or rating.level > best.difficulty.level:
            best = candidate
    assert best is not None  # noqa: S101
    return best


# -- generation, engine version 2: graded levels ------------------------------------

# Without a level, a square is thinned out for the second level (Unequal's Easy;
# engine version 2's "tricky").
DEFAULT_RANK = 2
# Squares thinned out per request for a level; fixed, so that a seed always gives
# the same puzzle.
LEVEL_ATTEMPTS = 24

# The largest grid each level is made on, by ladder version and rank (a level not
# listed goes up to the kind's largest size). Making the harder levels checks each
# removed clue with the level's techniques, and on large grids that can run for
# minutes. A request beyond the table is refused at once rather than left to stall
# the page that asked. Measured, seeds 1 and 2, CPU s: ladder 2: a 10x10 extreme 38 s,
# recursive over 40 s; Adjacent 12x12 extreme 18 s, 16x16 hard over 40 s, 8x8
# recursive 9-10 s. Ladder 3 (its level 4 lacks the stronger forcing chains, so it is
# quicker to check): Futoshiki 10x10 extreme 2.2-3.3 s, recursive over 40 s (9x9:
# 3.3-19 s); Adjacent 16x16 tricky 4.1-4.6 s, extreme 14x14 2.4-3.3 s and 16x16
# 10-23 s, recursive 8x8 1.8-2.6 s and 9x9 24 to over 40 s.
LEVEL_MAX_SIZE: dict[int, dict[int, int]] = {2: {4: 9, 5: 9}, 3: {5: 9}}
ADJACENT_LEVEL_MAX_SIZE: dict[int, dict[int, int]] = {2: {3: 12, 4: 9, 5: 7}, 3: {4: 14, 5: 8}}


def check_level_size(
    kind: str, title: str, rank: int, size: int, table: dict[int, int], ladder: Ladder
) -> None:
    """PuzzleError when the level of ``rank`` is not made on a ``size`` grid."""
    largest = table.get(rank)
    if largest is not None and size > largest:
        raise PuzzleError(
            f"{title} rated {label_of(kind, rank, ladder=ladder)} is made up to "
            f"{largest}x{largest}: "
            f"larger grids at that level take too long to make; ask for a smaller size "
            f"or an easier level"
        )


def _solvable_v2(puzzle: Futoshiki, rank: int, ladder: Ladder) -> bool:
    if rank >= SEARCH_RANK:
        return count_solutions(puzzle, limit=2).count == 1
    return closure(puzzle, level=rank, ladder=ladder).status == "solved"


def _thin_out_v2(size: int, rng: Rng, rank: int, ladder: Ladder) -> tuple[Futoshiki, Grid]:
    """Every given and sign, then each removed (in a random order) while the
    techniques up to ``rank`` still solve the puzzle (or, at the top, it stays unique)."""
    solution = random_latin_square(size, rng)
    givens = {(r, c): solution[r][c] for r in range(size) for c in range(size)}
    relations = _all_relations(solution)
    # Givens go first: a puzzle held together by signs needs the harder techniques.
    given_clues: list[tuple[str, Any]] = [("given", cell) for cell in givens]
    sign_clues: list[tuple[str, Any]] = [("relation", rel) for rel in relations]
    rng.shuffle(given_clues)
    rng.shuffle(sign_clues)
    clues = given_clues + sign_clues
    kept = set(relations)
    for what, clue in clues:
        if what == "given":
            value = givens.pop(clue)
        else:
            kept.discard(clue)
        trial = Futoshiki(size, givens, [rel for rel in relations if rel in kept])
        if not _solvable_v2(trial, rank, ladder):
            if what == "given":
                givens[clue] = value
            else:
                kept.add(clue)
    return Futoshiki(size, givens, [rel for rel in relations if rel in kept]), solution


def generate(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    engine_version: int = ENGINE_VERSION,
) -> Generated[Futoshiki, Difficulty]:
    """A Futoshiki with exactly one solution, rated exactly ``difficulty``
    (:func:`_made_at_level`). ``engine_version=1`` gives the puzzles of engine
    version 1 (:func:`generate_v1`), 2 those of version 2's ladder.
    """
    if engine_version == 1:
        return generate_v1(size=size, seed=seed, difficulty=difficulty)
    if engine_version not in (2, 3):
        raise PuzzleError(f"engine_version must be one of {', '.join(map(str, ENGINE_VERSIONS))}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    ladder = ladder_for(KIND, engine_version)
    puzzle, solution, rating = _made_at_level(
        kind=KIND,
        title="Futoshiki",
        size=size,
        seed=seed,
        difficulty=difficulty,
        ladder=ladder,
        max_sizes=LEVEL_MAX_SIZE[ladder.version],
        thin_out=_thin_out_v2,
    )
    assert isinstance(puzzle, Futoshiki)  # noqa: S101 - what _thin_out_v2 makes
    return Generated(
        puzzle, seed, solution, rating, engine_version=engine_version, describe=generated_dict
    )


def _made_at_level(
    *,
    kind: str,
    title: str,
    size: int,
    seed: int,
    difficulty: str | None,
    ladder: Ladder,
    max_sizes: dict[int, int],
    thin_out: Callable[[int, Rng, int, Ladder], tuple[Futoshiki, Grid]],
) -> tuple[Futoshiki, Grid, Difficulty]:
    """A puzzle thinned out by ``thin_out`` and rated exactly ``difficulty``, with its
    solution and rating. Without ``difficulty``, one square is thinned out for the
    second level (DEFAULT_RANK) and kept whatever its rating; otherwise up to
    LEVEL_ATTEMPTS squares are thinned out for the level, and PuzzleError says which
    levels were reached instead (or, at once, that the level is not made this large)."""
    target = level_of(kind, difficulty, ladder=ladder) if difficulty else DEFAULT_RANK
    if difficulty:
        check_level_size(kind, title, target, size, max_sizes, ladder)
    rng = Rng(seed)
    reached: dict[str, int] = {}
    for _ in range(LEVEL_ATTEMPTS if difficulty else 1):
        puzzle, solution = thin_out(size, rng, target, ladder)
        found = grade(puzzle, ladder=ladder)
        if found.rank == target or difficulty is None:
            return puzzle, solution, found.difficulty(puzzle, solution=solution)
        reached[found.label] = reached.get(found.label, 0) + 1
    got = ", ".join(f"{label} {count}" for label, count in reached.items())
    raise PuzzleError(
        f"no {size}x{size} {title} rated {label_of(kind, target, ladder=ladder)} "
        f"from seed {seed} in {LEVEL_ATTEMPTS} tries (reached: {got}); try another seed or size"
    )


# -- the Adjacent sub-kind -----------------------------------------------------------
#
# As in the "Adjacent" mode of Simon Tatham's Unequal: no signs; instead a bar joins
# every two neighbouring cells whose values differ by exactly one, and two neighbours
# without a bar do NOT differ by one (every such pair is marked). Some values may be
# given. It is a sub-kind ("futoshiki-adjacent", on the Futoshiki base kind) with
# its own engine version; its JSON records ``"mode": "adjacent"`` and the bars.

ADJACENT_KIND = "futoshiki-adjacent"
ADJACENT_MODE = "adjacent"
ADJACENT_ENGINE_VERSION = 2
# The Futoshiki ladder each engine version of the sub-kind grades on: version 1 on
# engine version 2's, version 2 on Unequal's levels (puzzles.engines.grading).
ADJACENT_LADDER_VERSION = {1: 2, 2: 3}
ADJACENT_DEFAULT_SIZE = 5
# Without signs to thin out, generation is quicker than Futoshiki's: larger grids fit.
ADJACENT_MAX_SIZE = 16


def _spread(mask: int, full: int) -> int:
    """The values one above or one below a value of ``mask``."""
    return ((mask << 1) | (mask >> 1)) & full


class AdjacentFutoshiki(Futoshiki):
    """Futoshiki with adjacency bars instead of signs (see the section comment above)."""

    kind = ADJACENT_KIND
    engine_version = ADJACENT_ENGINE_VERSION
    constraint_technique = ADJACENCY
    max_size = ADJACENT_MAX_SIZE

    def __init__(
        self, size: int, givens: Mapping[Cell, int], bars: Sequence[tuple[Cell, Cell]]
    ) -> None:
        super().__init__(size, givens, ())
        g = self.geometry
        seen: set[tuple[Cell, Cell]] = set()
        for number, (a, b) in enumerate(bars):
            if not neighbours(a, b):
                raise PuzzleError(f"bar {number}: a and b must be neighbouring cells")
            key = (min(a, b), max(a, b))
            if key in seen:
                raise PuzzleError(f"bar {number}: a second bar between the same cells")
            seen.add(key)
        self.bars = tuple(sorted(seen))
        # Every pair of neighbours, with whether a bar joins them: the absence of a
        # bar is a clue too.
        self._links: list[tuple[int, int, bool]] = []
        for r in range(size):
            for c in range(size):
                for other in ((r, c + 1), (r + 1, c)):
                    if other[0] < size and other[1] < size:
                        joined = ((r, c), other) in seen
                        self._links.append((g.index((r, c)), g.index(other), joined))

    def links(self) -> list[tuple[int, int, bool]]:
        """Every pair of neighbours as (index, index, joined by a bar)."""
        return self._links

    def _adjacency(self, cands: list[int]) -> bool | None:
        """Trim both cells of every link until nothing changes: across a bar each value
        needs a neighbour one apart; without one, it needs a value two or more apart."""
        full = self.geometry.full
        changed = False
        again = True
        while again:
            again = False
            for i, j, joined in self._links:
                a, b = cands[i], cands[j]
                if not a or not b:
                    return None
                if joined:
                    na = a & _spread(b, full)
                    nb = b & _spread(a, full)
                else:
                    # v is possible only if the other cell keeps a value outside v-1..v+1;
                    # the values ruled out are those whose window holds all of its values.
                    na = a & ~_cover(b, full)
                    nb = b & ~_cover(a, full)
                if na != a or nb != b:
                    cands[i], cands[j] = na, nb
                    if not na or not nb:
                        return None
                    changed = again = True
        return changed

    def narrow(self, cands: list[int]) -> bool | None:
        return self._adjacency(cands)

    def narrow_from_placed(self, cands: list[int]) -> bool | None:
        """Unequal's Easy in Adjacent mode: only a placed value narrows its neighbours
        (across a bar to the values one apart, without one to the others)."""
        full = self.geometry.full
        changed = False
        for i, j, joined in self._links:
            for placed, other in ((i, j), (j, i)):
                value = cands[placed]
                if not is_single(value):
                    continue
                near = _spread(value, full)
                narrowed = keep_only(cands, other, near if joined else full & ~near)
                if narrowed is None:
                    return None
                changed = changed or narrowed
        return changed

    def narrow_stages(self) -> tuple[Narrow, ...]:
        # Unequal's levels in Adjacent mode: nothing from the bars (Trivial), bars from
        # placed values (Easy), bars from every candidate (Tricky).
        return (narrow_nothing, self.narrow_from_placed, self.narrow)

    def constraint_step(self, cands: list[int]) -> ConstraintStep | None:
        trial = list(cands)
        if self._adjacency(trial) is False:
            return None
        new = {i: m for i, m in enumerate(trial) if m != cands[i]}
        if not new:
            return None
        cause = sorted({k for i, j, _ in self._links if i in new or j in new for k in (i, j)})
        return ConstraintStep(ADJACENCY, cause, new)

    def constraint_groups(self) -> list[tuple[tuple[Cell, ...], Callable[[list[int]], bool]]]:
        def apart_by_one(values: list[int]) -> bool:
            return abs(values[0] - values[1]) == 1

        def not_apart_by_one(values: list[int]) -> bool:
            return abs(values[0] - values[1]) != 1

        g = self.geometry
        return [
            ((g.cell(i), g.cell(j)), apart_by_one if joined else not_apart_by_one)
            for i, j, joined in self._links
        ]

    def constraints_hold(self, grid: Grid) -> bool:
        n = self.size
        for i, j, joined in self._links:
            (ra, ca), (rb, cb) = divmod(i, n), divmod(j, n)
            if (abs(grid[ra][ca] - grid[rb][cb]) == 1) != joined:
                return False
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": ADJACENT_KIND,
            "mode": ADJACENT_MODE,
            "size": self.size,
            "engine_version": ADJACENT_ENGINE_VERSION,
            "givens": [[r, c, v] for (r, c), v in self.givens.items()],
            "bars": [{"a": list(a), "b": list(b)} for a, b in self.bars],
        }


def _cover(mask: int, full: int) -> int:
    """The values v whose window v-1..v+1 holds every value of ``mask`` (0 if none)."""
    if not mask or mask.bit_length() - (mask & -mask).bit_length() > 2:
        return 0  # values three or more apart: no window holds them all
    out = full
    while mask:
        b = mask & -mask
        mask ^= b
        out &= b | (b << 1) | (b >> 1)
    return out


def adjacent_from_dict(data: Mapping[str, Any]) -> AdjacentFutoshiki:
    """An Adjacent Futoshiki from its JSON description (extra keys are ignored)."""
    data = require_mapping(data, "the puzzle")
    mode = data.get("mode", ADJACENT_MODE)
    if mode != ADJACENT_MODE:
        raise PuzzleError(f"mode must be {ADJACENT_MODE!r}")
    size = require_int(data.get("size"), "size", MIN_SIZE, ADJACENT_MAX_SIZE)
    givens = _read_givens(data, size)
    raw_bars = data.get("bars", [])
    if not isinstance(raw_bars, list):
        raise PuzzleError("bars must be a list")
    if len(raw_bars) > 2 * size * (size - 1):
        raise PuzzleError("more bars than pairs of neighbouring cells")
    bars = []
    for number, raw in enumerate(raw_bars):
        raw = require_mapping(raw, f"bar {number}")
        a = require_cell(raw.get("a"), size, f"bar {number} a")
        b = require_cell(raw.get("b"), size, f"bar {number} b")
        bars.append((a, b))
    return AdjacentFutoshiki(size, givens, bars)


def adjacent_generated_dict(made: Generated[AdjacentFutoshiki, Difficulty]) -> dict[str, Any]:
    """A generated Adjacent Futoshiki's JSON: the puzzle's own, then the seed, solution
    and rating."""
    return {
        **made.puzzle.to_dict(),
        "engine_version": made.engine_version,
        "seed": made.seed,
        "solution": made.solution,
        "difficulty": made.difficulty.to_dict(),
    }


def _all_bars(solution: Grid) -> list[tuple[Cell, Cell]]:
    n = len(solution)
    out = []
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr < n and cc < n and abs(solution[r][c] - solution[rr][cc]) == 1:
                    out.append(((r, c), (rr, cc)))
    return out


def _thin_out_adjacent(
    size: int, rng: Rng, rank: int, ladder: Ladder
) -> tuple[AdjacentFutoshiki, Grid]:
    """Every bar (they are all always shown) and every given; then each given removed,
    in a random order, while the techniques up to ``rank`` still solve the puzzle (or,
    at the top, it stays unique)."""
    solution = random_latin_square(size, rng)
    bars = _all_bars(solution)
    givens = {(r, c): solution[r][c] for r in range(size) for c in range(size)}
    order = list(givens)
    rng.shuffle(order)
    for cell in order:
        value = givens.pop(cell)
        if not _solvable_v2(AdjacentFutoshiki(size, givens, bars), rank, ladder):
            givens[cell] = value
    return AdjacentFutoshiki(size, givens, bars), solution


def generate_adjacent(
    *,
    size: int = ADJACENT_DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    engine_version: int = ADJACENT_ENGINE_VERSION,
) -> Generated[AdjacentFutoshiki, Difficulty]:
    """An Adjacent Futoshiki with exactly one solution, rated exactly ``difficulty``
    (on the Futoshiki ladder); the same tries and messages as :func:`generate`."""
    if engine_version not in ADJACENT_LADDER_VERSION:
        versions = ", ".join(map(str, ADJACENT_LADDER_VERSION))
        raise PuzzleError(f"engine_version must be one of {versions}")
    if not MIN_SIZE <= size <= ADJACENT_MAX_SIZE:
        raise PuzzleError(f"size must be between {MIN_SIZE} and {ADJACENT_MAX_SIZE}")
    ladder = ladder_for(ADJACENT_KIND, ADJACENT_LADDER_VERSION[engine_version])
    puzzle, solution, rating = _made_at_level(
        kind=ADJACENT_KIND,
        title="Adjacent Futoshiki",
        size=size,
        seed=seed,
        difficulty=difficulty,
        ladder=ladder,
        max_sizes=ADJACENT_LEVEL_MAX_SIZE[ladder.version],
        thin_out=_thin_out_adjacent,
    )
    assert isinstance(puzzle, AdjacentFutoshiki)  # noqa: S101 - what _thin_out_adjacent makes
    return Generated(
        puzzle,
        seed,
        solution,
        rating,
        engine_version=engine_version,
        describe=adjacent_generated_dict,
    )
