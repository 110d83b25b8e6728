"""Grading KenKen and Futoshiki on ladders of technique levels.

Each kind has five levels. A level may use the deductions of the levels below
it plus its own; a puzzle's level is the lowest level whose deductions solve it
without guessing, and the top level means that guessing (search) is needed.

Engine version 3 (``LADDER_V3``) grades on the levels of Simon Tatham's
Portable Puzzle Collection, built from the same deductions as its solver
(``latin.c``, ``keen.c``, ``unequal.c``), with its level names:

=====  ============  =========  ================================================
level  KenKen        Futoshiki  adds
=====  ============  =========  ================================================
1      easy          trivial    singles; KenKen: each cage's digit set, cell by
                                cell alike; Futoshiki: nothing from the signs
2      normal        easy       the kind's whole constraint (each cage cell's own
                                digits; each sign between its two cells)
3      hard          tricky     naked and hidden subsets of any size; KenKen: a
                                digit a cage puts in one row or column
                                (``cage_must_contain``)
4      extreme       extreme    fish of any size and bivalue chains
                                (:mod:`puzzles.engines.peer_techniques`)
5      unreasonable  recursive  search (guessing)
=====  ============  =========  ================================================

Levels 1 and 2 differ by the stage of the kind's constraint that bulk
propagation applies (``LatinPuzzle.narrow_stages``; Adjacent Futoshiki has
three stages, as Unequal's Adjacent mode).

Engine version 2 (``LADDER_V2``) graded on our own ladder, kept so that its
puzzles are still regenerated: the whole constraint from level 1; level 2
pairs (Futoshiki: and ``double_sign``); level 3 subsets of three cells or more,
X-wing, ``cage_must_contain``, ``sign_chain_bounds``; level 4 forcing chains
that follow the constraint; Futoshiki names easy, tricky, hard, extreme,
recursive. Hints (:mod:`puzzles.engines.hints`) still climb its techniques.

Every technique is a plain function ``(puzzle, cands) -> Step | None`` on the
candidate bitmasks of :mod:`puzzles.engines.latin`: it returns the first
elimination it finds, or None. Level 1 runs in bulk (``propagate``); the
techniques above it are tried one at a time, simplest first, with the bulk
propagation run again after each one.

Other names are accepted when asking for a puzzle, for the level of the same
rank (each ladder's ``aliases``): engine version 1's ``medium`` and
``expert``, and the other kind's names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from puzzles.engines import budget
from puzzles.engines.budget import Deadline
from puzzles.engines.latin import (
    Grid,
    LatinPuzzle,
    Narrow,
    PuzzleError,
    bit,
    is_single,
    values_of,
)
from puzzles.engines.peer_techniques import BIVALUE_CHAIN, FISH, bivalue_chain, fish
from puzzles.engines.solver import (
    ADJACENCY,
    CAGE_ARITHMETIC,
    NAKED_PAIR,
    OPERATOR_CHAIN,
    Difficulty,
    Step,
    count_solutions,
    propagate,
    solve_logically,
)

HIDDEN_PAIR = "hidden_pair"
NAKED_SUBSET = "naked_subset"
HIDDEN_SUBSET = "hidden_subset"
X_WING = "x_wing"
CAGE_MUST_CONTAIN = "cage_must_contain"
DOUBLE_SIGN = "double_sign"
SIGN_CHAIN_BOUNDS = "sign_chain_bounds"
FORCING_CHAIN = "forcing_chain"
BASIC = "basic"  # level 1 in bulk: singles and the kind's constraint
SEARCH = "search"

# Every technique name a grade can give as the hardest (``Grade.hardest``), simplest first.
TECHNIQUE_NAMES = (
    BASIC,
    CAGE_ARITHMETIC,
    OPERATOR_CHAIN,
    ADJACENCY,
    NAKED_PAIR,
    HIDDEN_PAIR,
    DOUBLE_SIGN,
    NAKED_SUBSET,
    HIDDEN_SUBSET,
    X_WING,
    CAGE_MUST_CONTAIN,
    SIGN_CHAIN_BOUNDS,
    FISH,
    FORCING_CHAIN,
    BIVALUE_CHAIN,
    SEARCH,
)

KENKEN_LEVELS = ("easy", "normal", "hard", "extreme", "unreasonable")
# Engine version 2's Futoshiki names; version 3 takes Unequal's own (FUTOSHIKI_LEVELS).
FUTOSHIKI_LEVELS_V2 = ("easy", "tricky", "hard", "extreme", "recursive")
FUTOSHIKI_LEVELS = ("trivial", "easy", "tricky", "extreme", "recursive")
SEARCH_RANK = 5
# Sub-kinds graded on the ladder (level names and techniques) of their base kind.
LADDER_OF: dict[str, str] = {"futoshiki-adjacent": "futoshiki", "kenken-multiply": "kenken"}


def ladder_kind(kind: str) -> str:
    """The kind whose ladder grades ``kind`` (itself, or a sub-kind's base kind)."""
    return LADDER_OF.get(kind, kind)


Technique = Callable[[LatinPuzzle, list[int]], Step | None]


# -- subsets and fish --------------------------------------------------------


def subsets(
    puzzle: LatinPuzzle, cands: list[int], *, min_k: int = 2, max_k: int | None = None
) -> Step | None:
    """Naked and hidden subsets of ``min_k``..``max_k`` cells in a row or column.

    Naked: k open cells whose candidates together are k values; those values
    leave the line's other cells. Hidden: k values with only the same k cells
    of the line to go to; those cells lose every other value.
    """
    g = puzzle.geometry
    for k in range(min_k, (max_k or puzzle.size) + 1):
        for number, unit in enumerate(g.units):
            open_cells = [i for i in unit if not is_single(cands[i])]
            if len(open_cells) <= k:
                continue
            small = [i for i in open_cells if cands[i].bit_count() <= k]
            for group in combinations(small, k):
                union = 0
                for i in group:
                    union |= cands[i]
                if union.bit_count() != k:
                    continue
                removed = {
                    j: cands[j] & union for j in open_cells if j not in group and cands[j] & union
                }
                if removed:
                    name = NAKED_PAIR if k == 2 else NAKED_SUBSET
                    return Step(name, list(group), removed, g.unit_name(number))
            placed = 0
            for i in unit:
                if is_single(cands[i]):
                    placed |= cands[i]
            free_values = values_of(g.full & ~placed)
            places = {v: [i for i in open_cells if cands[i] & bit(v)] for v in free_values}
            for group_values in combinations(free_values, k):
                cells: set[int] = set()
                for v in group_values:
                    cells.update(places[v])
                if len(cells) != k:
                    continue
                keep = 0
                for v in group_values:
                    keep |= bit(v)
                removed = {i: cands[i] & ~keep for i in cells if cands[i] & ~keep}
                if removed:
                    name = HIDDEN_PAIR if k == 2 else HIDDEN_SUBSET
                    return Step(name, sorted(cells), removed, g.unit_name(number))
    return None


def pairs(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Naked and hidden pairs only."""
    return subsets(puzzle, cands, min_k=2, max_k=2)


def larger_subsets(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Naked and hidden subsets of three cells or more."""
    return subsets(puzzle, cands, min_k=3)


def x_wing(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """A value whose places in two rows lie in the same two columns leaves those
    columns' other cells (and the same with rows and columns swapped)."""
    g = puzzle.geometry
    n = puzzle.size
    for lines, across in ((g.rows, g.cols), (g.cols, g.rows)):
        for v in range(1, n + 1):
            b = bit(v)
            spots: list[tuple[int, tuple[int, ...]]] = []
            for number, line in enumerate(lines):
                pos = tuple(k for k, i in enumerate(line) if cands[i] & b)
                if len(pos) == 2 and not any(cands[line[k]] == b for k in pos):
                    spots.append((number, pos))
            for (first, pos_a), (second, pos_b) in combinations(spots, 2):
                if pos_a != pos_b:
                    continue
                removed = {}
                for k in pos_a:
                    for number, i in enumerate(across[k]):
                        if number not in (first, second) and cands[i] & b:
                            removed[i] = b
                if removed:
                    cause = [lines[first][k] for k in pos_a] + [lines[second][k] for k in pos_a]
                    return Step(X_WING, cause, removed)
    return None


# -- KenKen --------------------------------------------------------------------


def cage_must_contain(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Every filling of a cage that fits the candidates puts digit d in the cage's
    cells of one row (or column): d leaves that row's cells outside the cage."""
    fillings = getattr(puzzle, "cage_fillings", None)
    if fillings is None:
        return None
    g = puzzle.geometry
    n = puzzle.size
    for cells, tuples in fillings():
        if len(cells) < 2:
            continue
        fitting = [t for t in tuples if all(cands[i] & m for i, m in zip(cells, t, strict=True))]
        if not fitting:
            continue
        for axis in (0, 1):
            lines = sorted({g.cell(i)[axis] for i in cells})
            for line in lines:
                inside = [k for k, i in enumerate(cells) if g.cell(i)[axis] == line]
                need = g.full
                for t in fitting:
                    have = 0
                    for k in inside:
                        have |= t[k]
                    need &= have
                    if not need:
                        break
                if not need:
                    continue
                unit = g.rows[line] if axis == 0 else g.cols[line]
                removed = {i: cands[i] & need for i in unit if i not in cells and cands[i] & need}
                if removed:
                    name = g.unit_name(line if axis == 0 else n + line)
                    return Step(CAGE_MUST_CONTAIN, list(cells), removed, name)
    return None


# -- Futoshiki -----------------------------------------------------------------


def _smallest_max(masks: Sequence[int]) -> int:
    """The smallest possible largest value of distinct values, one from each mask (0: none)."""
    if len(masks) == 2:
        # The usual case (a cell's two neighbours in a line), without listing the pairs:
        # both smallest values if they differ, else one of them with the other's next.
        a, b = masks
        low_a, low_b = a & -a, b & -b
        if not low_a or not low_b:
            return 0
        if low_a != low_b:
            return max(low_a, low_b).bit_length()
        rest = (a & ~low_a, b & ~low_b)
        nexts = [m & -m for m in rest if m]
        return min(nexts).bit_length() if nexts else 0
    best = 0
    for combo in _distinct_choices(masks):
        top = max(combo)
        if not best or top < best:
            best = top
    return best


def _largest_min(masks: Sequence[int]) -> int:
    """The largest possible smallest value of distinct values, one from each mask (0: none)."""
    if len(masks) == 2:
        a, b = masks
        if not a or not b:
            return 0
        high_a, high_b = a.bit_length(), b.bit_length()
        if high_a != high_b:
            return min(high_a, high_b)
        rest = [m & ~(1 << (high_a - 1)) for m in (a, b)]
        return max(m.bit_length() for m in rest)
    best = 0
    for combo in _distinct_choices(masks):
        low = min(combo)
        best = max(best, low)
    return best


def _distinct_choices(masks: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for m in masks:
        out = [(*c, v) for c in out for v in values_of(m) if v not in c]
    return out


def _bound(cell: int, cands: list[int], below: Sequence[int], above: Sequence[int]) -> int:
    """The candidates of ``cell`` left once it exceeds every (distinct) cell of ``below``
    and is less than every (distinct) cell of ``above``."""
    mask = cands[cell]
    if len(below) >= 2:
        floor = _smallest_max([cands[i] for i in below])
        mask &= ~((1 << floor) - 1) if floor else 0
    if len(above) >= 2:
        ceiling = _largest_min([cands[i] for i in above])
        mask &= (1 << (ceiling - 1)) - 1 if ceiling else 0
    return mask


def double_sign(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """``a < b > c`` in one line: b exceeds two different values, so b >= 3 (and
    ``a > b < c``: b <= N - 2), sharper when a's and c's candidates allow."""
    less_pairs = getattr(puzzle, "less_pairs", None)
    if less_pairs is None:
        return None
    g = puzzle.geometry
    # Each cell's smaller and larger neighbours, in the order of the signs (one pass
    # over the signs instead of one per cell: large grids have many of both).
    smaller: dict[int, list[int]] = {}
    larger: dict[int, list[int]] = {}
    for lo, hi in less_pairs():
        smaller.setdefault(hi, []).append(lo)
        larger.setdefault(lo, []).append(hi)
    for x in range(len(cands)):
        if is_single(cands[x]):
            continue
        x_smaller = smaller.get(x, [])
        x_larger = larger.get(x, [])
        if len(x_smaller) < 2 and len(x_larger) < 2:
            continue  # _bound needs two cells on one side
        rx, cx = g.cell(x)
        for axis, own in ((0, rx), (1, cx)):
            below = [lo for lo in x_smaller if g.cell(lo)[axis] == own]
            above = [hi for hi in x_larger if g.cell(hi)[axis] == own]
            new = _bound(x, cands, below, above)
            if new != cands[x]:
                return Step(DOUBLE_SIGN, [x, *below, *above], {x: cands[x] & ~new})
    return None


def _reach(start: int, edges: dict[int, list[int]]) -> set[int]:
    seen: set[int] = set()
    stack = [start]
    while stack:
        i = stack.pop()
        for j in edges.get(i, ()):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def sign_chain_bounds(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Follow the signs transitively: the cells of x's row (or column) that some chain
    of signs puts below x are all different and all less than x, so x exceeds as many
    values as there are such cells (and the same for the cells above x)."""
    less_pairs = getattr(puzzle, "less_pairs", None)
    if less_pairs is None:
        return None
    g = puzzle.geometry
    up: dict[int, list[int]] = {}
    down: dict[int, list[int]] = {}
    for lo, hi in less_pairs():
        up.setdefault(lo, []).append(hi)
        down.setdefault(hi, []).append(lo)
    for x in range(len(cands)):
        if is_single(cands[x]):
            continue
        lower = _reach(x, down)
        higher = _reach(x, up)
        rx, cx = g.cell(x)
        for axis, own in ((0, rx), (1, cx)):
            below = sorted(i for i in lower if g.cell(i)[axis] == own)
            above = sorted(i for i in higher if g.cell(i)[axis] == own)
            new = cands[x]
            if below:
                new &= ~((1 << len(below)) - 1)
            if above:
                new &= (1 << (puzzle.size - len(above))) - 1
            if new != cands[x]:
                return Step(SIGN_CHAIN_BOUNDS, [x, *below, *above], {x: cands[x] & ~new})
    return None


# -- forcing chains --------------------------------------------------------------


def forcing_chain(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Try both values of a two-candidate cell, following singles and the kind's
    constraint from each: a value that leads to a contradiction goes, and a
    candidate that both values remove goes."""
    for i, m in enumerate(cands):
        if m.bit_count() != 2:
            continue
        outcomes: list[list[int] | None] = []
        for v in values_of(m):
            trial = list(cands)
            trial[i] = bit(v)
            outcomes.append(trial if propagate(puzzle, trial) else None)
        first, second = outcomes
        if first is None and second is None:
            return None  # the position itself is impossible; not this technique's call
        if first is None or second is None:
            kept = first if first is not None else second
            assert kept is not None  # noqa: S101
            return Step(FORCING_CHAIN, [i], {i: m & ~kept[i]})
        removed = {
            j: cands[j] & ~(first[j] | second[j])
            for j in range(len(cands))
            if cands[j] & ~(first[j] | second[j])
        }
        if removed:
            return Step(FORCING_CHAIN, [i], removed)
    return None


# -- the ladders -----------------------------------------------------------------

# Engine version 2's techniques by level. Hints climb these (each is a sound deduction
# with its own explanation, whatever level a ladder puts it on).
KENKEN_TECHNIQUES: tuple[tuple[int, Technique], ...] = (
    (2, pairs),
    (3, cage_must_contain),
    (3, larger_subsets),
    (3, x_wing),
    (4, forcing_chain),
)
FUTOSHIKI_TECHNIQUES: tuple[tuple[int, Technique], ...] = (
    (2, double_sign),
    (2, pairs),
    (3, sign_chain_bounds),
    (3, larger_subsets),
    (3, x_wing),
    (4, forcing_chain),
)
LADDERS: dict[str, tuple[tuple[int, Technique], ...]] = {
    "kenken": KENKEN_TECHNIQUES,
    "futoshiki": FUTOSHIKI_TECHNIQUES,
}


def any_subsets(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """Naked and hidden subsets of every size from two cells (Keen's and Unequal's
    "set elimination" is one rung for all sizes)."""
    return subsets(puzzle, cands, min_k=2)


@dataclass(frozen=True, eq=False)
class Ladder:
    """One kind's five levels: their names, the names accepted for them, and what each
    level adds. With ``staged``, level k also applies the k-th stage of the kind's
    constraint (:meth:`~puzzles.engines.latin.LatinPuzzle.narrow_stages`); otherwise
    the whole constraint applies from level 1."""

    kind: str
    version: int
    levels: tuple[str, ...]
    aliases: Mapping[str, str]
    techniques: tuple[tuple[int, Technique], ...]
    staged: bool

    def narrow_at(self, puzzle: LatinPuzzle, level: int) -> Narrow | None:
        """The stage of the kind's constraint that ``level`` uses (None: all of it)."""
        if not self.staged:
            return None
        stages = puzzle.narrow_stages()
        return stages[min(level, len(stages)) - 1]

    def rank_of(self, label: str) -> int:
        """The rank (1..5) of a level name or alias; PuzzleError otherwise."""
        label = self.aliases.get(label, label)
        if label not in self.levels:
            accepted = [*self.levels, *self.aliases]
            raise PuzzleError(f"{self.kind}: difficulty must be one of {', '.join(accepted)}")
        return self.levels.index(label) + 1

    def label(self, rank: int) -> str:
        return self.levels[rank - 1]


# Engine version 2: our own ladder (the whole constraint from level 1; pairs alone a
# level; double signs and sign chains; forcing chains that follow the constraint).
# Labels of engine version 1, and the other kind's names of the same rank, are
# accepted when asking for a puzzle.
LADDER_V2: dict[str, Ladder] = {
    "kenken": Ladder(
        kind="kenken",
        version=2,
        levels=KENKEN_LEVELS,
        aliases={
            "medium": "normal",
            "expert": "unreasonable",
            "tricky": "normal",
            "recursive": "unreasonable",
        },
        techniques=KENKEN_TECHNIQUES,
        staged=False,
    ),
    "futoshiki": Ladder(
        kind="futoshiki",
        version=2,
        levels=FUTOSHIKI_LEVELS_V2,
        aliases={
            "medium": "tricky",
            "expert": "recursive",
            "normal": "tricky",
            "unreasonable": "recursive",
        },
        techniques=FUTOSHIKI_TECHNIQUES,
        staged=False,
    ),
}
# Engine version 3: the levels of Simon Tatham's Keen and Unequal, built from the same
# deductions as their solver (see the module docstring and puzzles.engines.peer_techniques).
LADDER_V3: dict[str, Ladder] = {
    "kenken": Ladder(
        kind="kenken",
        version=3,
        levels=KENKEN_LEVELS,
        aliases={
            "medium": "normal",
            "expert": "unreasonable",
            "trivial": "easy",
            "tricky": "hard",
            "recursive": "unreasonable",
        },
        techniques=(
            (3, cage_must_contain),
            (3, any_subsets),
            (4, fish),
            (4, bivalue_chain),
        ),
        staged=True,
    ),
    "futoshiki": Ladder(
        kind="futoshiki",
        version=3,
        levels=FUTOSHIKI_LEVELS,
        aliases={
            "medium": "easy",
            "normal": "easy",
            "hard": "tricky",
            "expert": "recursive",
            "unreasonable": "recursive",
        },
        techniques=(
            (3, any_subsets),
            (4, fish),
            (4, bivalue_chain),
        ),
        staged=True,
    ),
}
LADDER_VERSIONS: dict[int, dict[str, Ladder]] = {2: LADDER_V2, 3: LADDER_V3}
CURRENT_LADDER_VERSION = 3
# The level names each base kind's puzzles are asked for and rated with today.
LEVEL_NAMES: dict[str, tuple[str, ...]] = {
    kind: ladder.levels for kind, ladder in LADDER_V3.items()
}


def ladder_for(kind: str, version: int = CURRENT_LADDER_VERSION) -> Ladder:
    """The ladder of ``version`` that grades ``kind`` (a sub-kind: its base kind's)."""
    return LADDER_VERSIONS[version][ladder_kind(kind)]


def level_of(kind: str, label: str, *, ladder: Ladder | None = None) -> int:
    """The rank (1..5) of a level name or alias of ``kind``; a clear error otherwise."""
    return (ladder or ladder_for(kind)).rank_of(label)


def label_of(kind: str, rank: int, *, ladder: Ladder | None = None) -> str:
    return (ladder or ladder_for(kind)).label(rank)


@dataclass
class Closure:
    """What the techniques up to a level deduce: candidates, status, techniques used."""

    cands: list[int]
    status: str  # "solved", "stuck" or "contradiction"
    used: dict[str, int]
    hardest: tuple[int, str]


def closure(
    puzzle: LatinPuzzle,
    *,
    level: int,
    cands: Sequence[int] | None = None,
    used: dict[str, int] | None = None,
    hardest: tuple[int, str] = (1, BASIC),
    ladder: Ladder | None = None,
    deadline: Deadline | None = None,
) -> Closure:
    """Apply the techniques of ``ladder`` (default: today's for the kind) up to
    ``level`` (1..4) until nothing changes; ``BudgetSpent`` once ``deadline`` (asked
    before every step) has passed."""
    chosen = ladder or ladder_for(puzzle.kind)
    current = list(cands) if cands is not None else puzzle.initial_candidates()
    counts = dict(used or {})
    narrow = chosen.narrow_at(puzzle, level)
    techniques = [(lv, t) for lv, t in chosen.techniques if lv <= level]
    while True:
        budget.check(deadline)
        if not propagate(puzzle, current, narrow):
            return Closure(current, "contradiction", counts, hardest)
        if all(is_single(m) for m in current):
            ok = puzzle.is_solution(puzzle.grid_from_masks(current))
            return Closure(current, "solved" if ok else "contradiction", counts, hardest)
        for lv, technique in techniques:
            step = technique(puzzle, current)
            if step is not None:
                for i, mask in step.removed.items():
                    current[i] &= ~mask
                counts[step.technique] = counts.get(step.technique, 0) + 1
                hardest = max(hardest, (lv, step.technique))
                break
        else:
            return Closure(current, "stuck", counts, hardest)


def solves_at(puzzle: LatinPuzzle, level: int, *, ladder: Ladder | None = None) -> bool:
    """Whether the techniques up to ``level`` solve ``puzzle`` (level 5: search, always)."""
    if level >= SEARCH_RANK:
        return True
    return closure(puzzle, level=level, ladder=ladder).status == "solved"


@dataclass(frozen=True)
class Grade:
    rank: int
    label: str
    hardest: str
    techniques: dict[str, int]

    def difficulty(self, puzzle: LatinPuzzle, *, solution: Grid | None = None) -> Difficulty:
        """The rating stored with a generated puzzle: the level's label, the hardest
        technique the ladder used, and the number of steps of the one-step-at-a-time
        trace (:func:`~puzzles.engines.solver.solve_logically`, as ``puzzle solve``
        prints it and as the stored technique counts are made)."""
        steps = len(solve_logically(puzzle, solution=solution).steps)
        return Difficulty(self.label, self.hardest, self.rank, steps)


def grade(
    puzzle: LatinPuzzle, *, ladder: Ladder | None = None, deadline: Deadline | None = None
) -> Grade:
    """The lowest level of ``ladder`` (default: today's for the kind) whose techniques
    solve ``puzzle`` (5: search is needed); ``BudgetSpent`` once ``deadline`` has passed."""
    chosen = ladder or ladder_for(puzzle.kind)
    found = closure(puzzle, level=1, ladder=chosen, deadline=deadline)
    level = 1
    while found.status == "stuck" and level < SEARCH_RANK - 1:
        level += 1
        found = closure(
            puzzle,
            level=level,
            cands=found.cands,
            used=found.used,
            hardest=found.hardest,
            ladder=chosen,
            deadline=deadline,
        )
    if found.status == "solved":
        # A level reached by its stage of the kind's constraint, not by a technique,
        # names that constraint as the hardest thing used.
        hardest_level, hardest = found.hardest
        if hardest_level < level:
            hardest = puzzle.constraint_technique
        return Grade(level, chosen.label(level), hardest, found.used)
    if found.status == "contradiction":
        counted = count_solutions(puzzle, limit=1, deadline=deadline)
        if not counted.complete:
            raise budget.BudgetSpent
        if counted.count == 0:
            raise PuzzleError("the puzzle has no solution")
    return Grade(SEARCH_RANK, chosen.label(SEARCH_RANK), SEARCH, found.used)
