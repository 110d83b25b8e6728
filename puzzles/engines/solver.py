"""Solving Latin-square puzzles: propagation, solution counting, techniques, hints.

Two solvers share the candidate bitmasks of :mod:`puzzles.engines.latin`:

* :func:`count_solutions` propagates singles and the kind's constraint to a
  fixed point, then branches on the cell with the fewest candidates. It stops
  as soon as it has found ``limit`` solutions (2 by default: enough to tell a
  unique puzzle from an ambiguous one).
* :func:`solve_logically` applies human techniques one step at a time, always
  the simplest one that removes a candidate, and records each step. Search is
  the last resort. The difficulty of a puzzle is the hardest technique its
  logical solution needs, plus the number of steps.

The techniques, simplest first (their level is their rank):

1. ``naked_single``: a cell has one candidate left; remove it from the cell's
   row and column.
2. ``hidden_single``: a value has one place left in a row or column.
3. ``cage_arithmetic`` (KenKen), ``operator_chain`` (Futoshiki) or
   ``adjacency`` (Adjacent Futoshiki): the kind's own constraint.
4. ``naked_pair`` and 5. ``naked_triple``: two (three) cells of a row or
   column share two (three) candidates between them, which leave the others.
6. ``permutation_filter``: every arrangement of the row or column that fits
   the candidates is listed; a candidate used by none of them goes.
7. ``search``: guess (the value of the puzzle's solution in the cell with the
   fewest candidates) and go on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from puzzles.engines.budget import Deadline
from puzzles.engines.latin import Grid, LatinPuzzle, Narrow, bit, is_single, value_of, values_of

NAKED_SINGLE = "naked_single"
HIDDEN_SINGLE = "hidden_single"
CAGE_ARITHMETIC = "cage_arithmetic"
OPERATOR_CHAIN = "operator_chain"
ADJACENCY = "adjacency"
NAKED_PAIR = "naked_pair"
NAKED_TRIPLE = "naked_triple"
PERMUTATION_FILTER = "permutation_filter"
SEARCH = "search"
NOT_JUSTIFIED = "not_justified"

TECHNIQUE_LEVELS: dict[str, int] = {
    NAKED_SINGLE: 1,
    HIDDEN_SINGLE: 2,
    CAGE_ARITHMETIC: 3,
    OPERATOR_CHAIN: 3,
    ADJACENCY: 3,
    NAKED_PAIR: 4,
    NAKED_TRIPLE: 5,
    PERMUTATION_FILTER: 6,
    SEARCH: 7,
}
# Every tag a player's entry can get, simplest first.
ENTRY_TAGS = (
    NAKED_SINGLE,
    HIDDEN_SINGLE,
    CAGE_ARITHMETIC,
    OPERATOR_CHAIN,
    ADJACENCY,
    NAKED_PAIR,
    NAKED_TRIPLE,
    PERMUTATION_FILTER,
    NOT_JUSTIFIED,
)
LOGIC_LEVEL = TECHNIQUE_LEVELS[PERMUTATION_FILTER]
SEARCH_LEVEL = TECHNIQUE_LEVELS[SEARCH]

# Difficulty labels by the level of the hardest technique needed.
# (Engine version 1; version 2 grades on the ladders of puzzles.engines.grading.)
DIFFICULTY_MAX_LEVEL: dict[str, int] = {"easy": 3, "medium": 5, "hard": 6, "expert": 7}
# Every difficulty label KenKen and Futoshiki accept or give: those of engine
# version 1, then the levels of versions 2 and 3 (each kind checks its own).
DIFFICULTIES = (
    *DIFFICULTY_MAX_LEVEL,
    "normal",
    "extreme",
    "unreasonable",
    "tricky",
    "recursive",
    "trivial",
)

# The permutation filter gives up on a row or column after this many partial
# arrangements (a wide-open line would take N! of them); deterministic.
PERMUTATION_NODE_LIMIT = 20_000


def label_for_level(level: int) -> str:
    for label, top in DIFFICULTY_MAX_LEVEL.items():
        if level <= top:
            return label
    return "expert"


# -- fast propagation and counting ------------------------------------------


def propagate(puzzle: LatinPuzzle, cands: list[int], narrow: Narrow | None = None) -> bool:
    """Singles (naked and hidden) and the kind's constraint to a fixed point, in place.

    ``narrow`` replaces the kind's constraint (``puzzle.narrow``): a weaker stage of
    it, for the lowest level of a ladder. Returns False when the candidates cannot be
    completed.
    """
    narrowing = puzzle.narrow if narrow is None else narrow
    g = puzzle.geometry
    full = g.full
    while True:
        changed = False
        for unit in g.units:
            seen = 0
            for i in unit:
                m = cands[i]
                if m & (m - 1) == 0:
                    if m == 0 or seen & m:
                        return False
                    seen |= m
            once = 0
            twice = 0
            for i in unit:
                m = cands[i]
                if seen and m & (m - 1) and m & seen:
                    m &= ~seen
                    if m == 0:
                        return False
                    cands[i] = m
                    changed = True
                twice |= once & m
                once |= m
            if once != full:
                return False
            only = once & ~twice & ~seen
            if only:
                for i in unit:
                    m = cands[i]
                    hit = m & only
                    if hit and m & (m - 1):
                        if hit & (hit - 1):
                            return False
                        cands[i] = hit
                        changed = True
        narrowed = narrowing(cands)
        if narrowed is None:
            return False
        if not changed and not narrowed:
            return True


@dataclass
class Count:
    """How many solutions were found (at most the limit) and the first ones.

    ``complete`` is False when the search gave up at ``max_nodes`` before
    reaching the limit or finishing: then ``count`` is only a lower bound.
    """

    count: int
    solutions: list[Grid]
    complete: bool = True


def count_solutions(
    puzzle: LatinPuzzle,
    *,
    limit: int = 2,
    cands: Sequence[int] | None = None,
    max_nodes: int | None = None,
    known: Grid | None = None,
    deadline: Deadline | None = None,
) -> Count:
    """Count the solutions of ``puzzle`` (from ``cands`` if given), stopping at ``limit``,
    or (incomplete) after ``max_nodes`` search nodes, or once ``deadline`` has passed
    (asked at every node), if given.

    With ``known`` (a solution), each branching tries that solution's value last:
    a second solution, if any, tends to be met sooner. The count is the same; which
    solutions are met first may differ.
    """
    start = list(cands) if cands is not None else puzzle.initial_candidates()
    solutions: list[Grid] = []
    stack = [start]
    nodes = 0
    while stack and len(solutions) < limit:
        nodes += 1
        if (max_nodes is not None and nodes > max_nodes) or (
            deadline is not None and deadline.passed()
        ):
            return Count(count=len(solutions), solutions=solutions, complete=False)
        current = stack.pop()
        if not propagate(puzzle, current):
            continue
        best = -1
        best_count = 99
        for i, m in enumerate(current):
            if m & (m - 1):
                k = m.bit_count()
                if k < best_count:
                    best, best_count = i, k
                    if k == 2:
                        break
        if best < 0:
            grid = puzzle.grid_from_masks(current)
            if puzzle.is_solution(grid):
                solutions.append(grid)
            continue
        m = current[best]
        # Push the largest value first so that the smallest is tried first.
        order = list(reversed(values_of(m)))
        if known is not None:
            r, c = puzzle.geometry.cell(best)
            order.sort(key=lambda v: v != known[r][c])
        for v in order:
            branch = current.copy()
            branch[best] = bit(v)
            stack.append(branch)
    return Count(count=len(solutions), solutions=solutions)


def plain_backtracking_count(
    puzzle: LatinPuzzle, *, limit: int = 2, max_nodes: int | None = None
) -> int | None:
    """The baseline: fill cells in reading order, no candidates and no deduction.

    A value is tried when its row and column do not hold it yet; a cage or a
    sign is checked as soon as its last cell is filled. Used to check
    :func:`count_solutions` in tests and to compare speed in the benchmark.
    Returns None when more than ``max_nodes`` values were tried.
    """
    n = puzzle.size
    givens = puzzle.given_cells()
    grid = [[0] * n for _ in range(n)]
    closing: list[list[tuple[tuple[tuple[int, int], ...], Callable[[list[int]], bool]]]] = [
        [] for _ in range(n * n)
    ]
    for cells, check in puzzle.constraint_groups():
        last = max(r * n + c for r, c in cells)
        closing[last].append((cells, check))
    found = 0
    nodes = 0

    def fill(index: int) -> bool:
        nonlocal found, nodes
        if index == n * n:
            found += 1
            return found >= limit
        r, c = divmod(index, n)
        options = [givens[index]] if index in givens else range(1, n + 1)
        for v in options:
            nodes += 1
            if max_nodes is not None and nodes > max_nodes:
                return True
            if any(grid[r][k] == v for k in range(c)) or any(grid[k][c] == v for k in range(r)):
                continue
            grid[r][c] = v
            closed = all(check([grid[a][b] for a, b in cells]) for cells, check in closing[index])
            if closed and fill(index + 1):
                grid[r][c] = 0
                return True
        grid[r][c] = 0
        return False

    fill(0)
    if max_nodes is not None and nodes > max_nodes:
        return None
    return found


# -- techniques, one step at a time -----------------------------------------


@dataclass
class Step:
    """One deduction: the technique, the cells that caused it, the candidates it removed."""

    technique: str
    cause: list[int]
    removed: dict[int, int]  # cell index -> mask of removed candidates
    unit: str = ""

    def to_dict(self, puzzle: LatinPuzzle) -> dict[str, Any]:
        g = puzzle.geometry
        data: dict[str, Any] = {
            "technique": self.technique,
            "cells": [list(g.cell(i)) for i in self.cause],
            "removed": [
                [*g.cell(i), v] for i, mask in sorted(self.removed.items()) for v in values_of(mask)
            ],
        }
        if self.unit:
            data["unit"] = self.unit
        return data


def _naked_single(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    peers = puzzle.geometry.peers
    for i, m in enumerate(cands):
        if is_single(m):
            removed = {j: m for j in peers[i] if cands[j] & m}
            if removed:
                return Step(NAKED_SINGLE, [i], removed)
    return None


def _hidden_single(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    g = puzzle.geometry
    for number, unit in enumerate(g.units):
        for v in range(1, puzzle.size + 1):
            b = bit(v)
            places = [i for i in unit if cands[i] & b]
            if len(places) == 1 and cands[places[0]] != b:
                i = places[0]
                return Step(HIDDEN_SINGLE, [i], {i: cands[i] & ~b}, g.unit_name(number))
    return None


def _constraint(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    found = puzzle.constraint_step(cands)
    if found is None:
        return None
    removed = {i: cands[i] & ~mask for i, mask in found.new_masks.items() if cands[i] & ~mask}
    if not removed:
        return None
    return Step(found.technique, found.cause, removed)


def _naked_subset(k: int, technique: str) -> Callable[[LatinPuzzle, list[int]], Step | None]:
    def find(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
        g = puzzle.geometry
        for number, unit in enumerate(g.units):
            open_cells = [i for i in unit if 2 <= cands[i].bit_count() <= k]
            for group in combinations(open_cells, k):
                union = 0
                for i in group:
                    union |= cands[i]
                if union.bit_count() != k:
                    continue
                removed = {j: cands[j] & union for j in unit if j not in group and cands[j] & union}
                if removed:
                    return Step(technique, list(group), removed, g.unit_name(number))
        return None

    return find


def _line_arrangements(cands: list[int], unit: Sequence[int]) -> list[int] | None:
    """For each cell of the line, the union of its values over all fitting arrangements.

    None when the line has more arrangements than the filter looks at.
    """
    masks = [cands[i] for i in unit]
    k = len(masks)
    union = [0] * k
    chosen = [0] * k
    nodes = 0

    def place(pos: int, used: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > PERMUTATION_NODE_LIMIT:
            return False
        if pos == k:
            for j in range(k):
                union[j] |= chosen[j]
            return True
        free = masks[pos] & ~used
        while free:
            b = free & -free
            free ^= b
            chosen[pos] = b
            if not place(pos + 1, used | b) and nodes > PERMUTATION_NODE_LIMIT:
                return False
        return True

    place(0, 0)
    if nodes > PERMUTATION_NODE_LIMIT:
        return None
    return union


def _permutation_filter(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    g = puzzle.geometry
    for number, unit in enumerate(g.units):
        if all(is_single(cands[i]) for i in unit):
            continue
        union = _line_arrangements(cands, unit)
        if union is None:
            continue
        removed = {i: cands[i] & ~u for i, u in zip(unit, union, strict=True) if cands[i] & ~u}
        if removed:
            cause = [i for i in unit if i not in removed]
            return Step(PERMUTATION_FILTER, cause, removed, g.unit_name(number))
    return None


TECHNIQUES: tuple[tuple[int, Callable[[LatinPuzzle, list[int]], Step | None]], ...] = (
    (1, _naked_single),
    (2, _hidden_single),
    (3, _constraint),
    (4, _naked_subset(2, NAKED_PAIR)),
    (5, _naked_subset(3, NAKED_TRIPLE)),
    (6, _permutation_filter),
)


@dataclass
class LogicResult:
    """Where the logical solver got to."""

    status: str  # "solved", "stuck" or "contradiction"
    cands: list[int]
    steps: list[Step] = field(default_factory=list)

    @property
    def hardest(self) -> str:
        if not self.steps:
            return NAKED_SINGLE
        return max(self.steps, key=lambda s: TECHNIQUE_LEVELS[s.technique]).technique


def _contradiction(cands: list[int]) -> bool:
    return any(m == 0 for m in cands)


def _solved(puzzle: LatinPuzzle, cands: list[int]) -> bool:
    if not all(is_single(m) for m in cands):
        return False
    return puzzle.is_solution(puzzle.grid_from_masks(cands))


def solve_logically(
    puzzle: LatinPuzzle,
    *,
    max_level: int = SEARCH_LEVEL,
    cands: Sequence[int] | None = None,
    until: Callable[[list[int]], bool] | None = None,
    max_steps: int = 10_000,
    solution: Grid | None = None,
) -> LogicResult:
    """Apply the simplest technique that removes a candidate, again and again.

    Stops when the grid is solved, when nothing up to ``max_level`` applies
    ("stuck"), when a cell has no candidate left ("contradiction"), or when
    ``until(cands)`` becomes true.

    ``solution``, when the caller knows the puzzle's only solution (a generator
    does), spares the search steps a solution count each: a unique puzzle's
    search step finds that solution anyway, so the steps are the same.
    """
    current = list(cands) if cands is not None else puzzle.initial_candidates()
    steps: list[Step] = []
    while len(steps) < max_steps:
        if _contradiction(current):
            return LogicResult("contradiction", current, steps)
        if until is not None and until(current):
            return LogicResult("stopped", current, steps)
        if _solved(puzzle, current):
            return LogicResult("solved", current, steps)
        step = None
        for level, technique in TECHNIQUES:
            if level > max_level:
                break
            step = technique(puzzle, current)
            if step is not None:
                break
        if step is None and max_level >= SEARCH_LEVEL:
            step = _search_step(puzzle, current, solution)
            if step is None:
                return LogicResult("contradiction", current, steps)
        if step is None:
            return LogicResult("stuck", current, steps)
        for i, mask in step.removed.items():
            current[i] &= ~mask
        steps.append(step)
    return LogicResult("stuck", current, steps)


def _fits(puzzle: LatinPuzzle, cands: list[int], grid: Grid) -> bool:
    n = puzzle.size
    return all(cands[r * n + c] & bit(grid[r][c]) for r in range(n) for c in range(n))


def _search_step(puzzle: LatinPuzzle, cands: list[int], known: Grid | None = None) -> Step | None:
    """Guess: the cell with the fewest candidates gets its value in the first solution found
    (or in ``known``, the puzzle's only solution, while it fits the candidates)."""
    if known is not None and _fits(puzzle, cands, known):
        solution = known
    else:
        found = count_solutions(puzzle, limit=1, cands=cands)
        if not found.count:
            return None
        solution = found.solutions[0]
    open_cells = [i for i, m in enumerate(cands) if not is_single(m)]
    i = min(open_cells, key=lambda j: (cands[j].bit_count(), j))
    r, c = puzzle.geometry.cell(i)
    keep = bit(solution[r][c])
    return Step(SEARCH, [i], {i: cands[i] & ~keep})


@dataclass(frozen=True)
class Difficulty:
    label: str
    hardest: str
    level: int
    steps: int

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "hardest": self.hardest, "steps": self.steps}


def rate(puzzle: LatinPuzzle, *, max_level: int = SEARCH_LEVEL) -> Difficulty | None:
    """The difficulty of ``puzzle``; None if techniques up to max_level do not solve it."""
    result = solve_logically(puzzle, max_level=max_level)
    if result.status != "solved":
        return None
    level = TECHNIQUE_LEVELS[result.hardest]
    return Difficulty(label_for_level(level), result.hardest, level, len(result.steps))


# -- the player's grid: candidates, hints, tags ----------------------------


def entries_candidates(puzzle: LatinPuzzle, entries: Grid) -> list[int]:
    """Candidates with the player's entries (0 = empty) and the givens decided, nothing deduced."""
    cands = puzzle.initial_candidates()
    n = puzzle.size
    for r in range(n):
        for c in range(n):
            v = entries[r][c]
            if v:
                cands[r * n + c] = bit(v)
    return cands


def implied_candidates(puzzle: LatinPuzzle, entries: Grid) -> list[int]:
    """What the rules imply directly from the entries: each value leaves its row and column,
    and the kind's constraint (cages, signs) is applied; no other deduction."""
    cands = entries_candidates(puzzle, entries)
    decided = {i: m for i, m in enumerate(cands) if is_single(m)}
    peers = puzzle.geometry.peers
    for i, m in decided.items():
        for j in peers[i]:
            if j not in decided:
                cands[j] &= ~m
    for _ in range(puzzle.size * puzzle.size):
        if not puzzle.narrow(cands):
            break
    return cands


@dataclass(frozen=True)
class Hint:
    """A hint, as seed 003 gives them."""

    kind: str  # "no_candidate", "single_candidate" or "single_place"
    cell: tuple[int, int]
    value: int | None
    unit: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cell": list(self.cell), "value": self.value, "unit": self.unit}


def find_hint(puzzle: LatinPuzzle, entries: Grid) -> Hint | None:
    """The first hint for the player's grid, or None.

    Looked for in this order: an empty cell with no candidate left (the
    player has made an error: shown first so that it is not built on), an
    empty cell with a single candidate, a value with a single place in a row
    or column.
    """
    g = puzzle.geometry
    n = puzzle.size
    cands = implied_candidates(puzzle, entries)
    givens = puzzle.given_cells()
    empty = [i for i in range(n * n) if not entries[i // n][i % n] and i not in givens]
    for i in empty:
        if cands[i] == 0:
            return Hint("no_candidate", g.cell(i), None)
    for i in empty:
        if is_single(cands[i]):
            return Hint("single_candidate", g.cell(i), value_of(cands[i]))
    empty_set = set(empty)
    for number, unit in enumerate(g.units):
        for v in range(1, n + 1):
            b = bit(v)
            if any(i not in empty_set and cands[i] == b for i in unit):
                continue
            places = [i for i in unit if i in empty_set and cands[i] & b]
            if len(places) == 1:
                return Hint("single_place", g.cell(places[0]), v, g.unit_name(number))
    return None


def justify_entry(puzzle: LatinPuzzle, entries: Grid, cell: tuple[int, int], value: int) -> str:
    """The simplest technique that forces ``value`` at ``cell`` from the entries before it.

    The logical solver always applies the simplest technique that removes a
    candidate, so the first time the cell is decided, the hardest technique
    used so far is the simplest sufficient one. "not_justified" when the
    techniques (search excluded) do not force that value: a guess, or an
    error.
    """
    n = puzzle.size
    before = [row[:] for row in entries]
    before[cell[0]][cell[1]] = 0
    start = entries_candidates(puzzle, before)
    i = cell[0] * n + cell[1]
    if not start[i] & bit(value):
        return NOT_JUSTIFIED
    result = solve_logically(
        puzzle, max_level=LOGIC_LEVEL, cands=start, until=lambda cands: is_single(cands[i])
    )
    if result.status == "contradiction" or result.cands[i] != bit(value):
        return NOT_JUSTIFIED
    if not result.steps:
        return NAKED_SINGLE
    return result.hardest


def logical_closure(
    puzzle: LatinPuzzle, *, max_level: int, cands: Sequence[int] | None = None
) -> tuple[list[int], bool]:
    """Everything the techniques up to ``max_level`` (search excluded) deduce, quickly.

    The same fixed point as :func:`solve_logically` reaches (each technique
    only removes candidates that stay removable), without recording steps:
    singles and the kind's constraint run in bulk. Returns the candidates and
    whether they are a complete solution.
    """
    current = list(cands) if cands is not None else puzzle.initial_candidates()
    harder = [technique for level, technique in TECHNIQUES if 3 < level <= max_level]
    while True:
        if not propagate(puzzle, current):
            return current, False
        if all(is_single(m) for m in current):
            return current, puzzle.is_solution(puzzle.grid_from_masks(current))
        for technique in harder:
            step = technique(puzzle, current)
            if step is not None:
                for i, mask in step.removed.items():
                    current[i] &= ~mask
                break
        else:
            return current, False
