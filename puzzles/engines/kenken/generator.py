"""KenKen generation, engine versions 2 and 3: unique puzzles aimed at a level.

:func:`generate` draws a unique puzzle, then merges or splits cages until the
grader (:mod:`puzzles.engines.grading`) rates it the level asked for; engine
version 1 is passed on to :mod:`puzzles.engines.kenken.generator_v1`. Apart
from the puzzle because it is the only part that uses the grader and the
solution counter to decide what to keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from puzzles.engines.base import Generated
from puzzles.engines.common import neighbours
from puzzles.engines.grading import (
    SEARCH_RANK,
    Grade,
    Ladder,
    closure,
    grade,
    label_of,
    ladder_for,
    level_of,
)
from puzzles.engines.kenken.cages import ALL_OPERATIONS, MULTIPLY_ONLY, Cage
from puzzles.engines.kenken.drawing import (
    CAGE_DRAWS,
    OPERATION_DRAWS,
    V2_MAX_CAGE,
    _halves,
    _pick_v2,
    _split_v2,
    grow_cages_v2,
)
from puzzles.engines.kenken.generator_v1 import DEFAULT_MAX_CAGE, generate_v1
from puzzles.engines.kenken.puzzle import (
    DEFAULT_SIZE,
    ENGINE_VERSION,
    ENGINE_VERSIONS,
    MAX_SIZE,
    MIN_SIZE,
    KenKen,
    generated_dict,
    puzzle_class,
)
from puzzles.engines.latin import Cell, Grid, PuzzleError, random_latin_square
from puzzles.engines.rng import Rng
from puzzles.engines.solver import Difficulty, count_solutions

# Unique puzzles drawn per request for a level, and changes tried on each to move
# it towards the level: both fixed, so that a seed always gives the same puzzle.
LEVEL_ATTEMPTS = 24
LEVEL_TWEAKS = 10
# From this size up, cages have at most LARGE_GRID_MAX_CAGE cells unless asked otherwise:
# a six-cell + or x cage on an 8 x 8 or 9 x 9 grid has hundreds to thousands of
# fillings, and puzzles with several of them took 30 to 70 s to prove unique (median
# 9 x 9 time with five-cell cages at most: under a second; bench/puzzle_levels.py).
LARGE_GRID_FROM_SIZE = 8
LARGE_GRID_MAX_CAGE = 5
# Keen's Easy knows only which digits a cage holds: on a large grid few puzzles with
# five-cell cages are that easy, and aiming at it took 7.5 s median with 2 hits in 5
# on 9 x 9 (engine version 3, bench/puzzle_levels.py). From LARGE_GRID_FROM_SIZE up,
# engine version 3 draws cages of at most three cells for "easy" (asked for without
# max_cage).
EASY_LARGE_GRID_MAX_CAGE = 3


def default_max_cage(size: int) -> int:
    """The largest cage engine version 2 draws on a grid of this size by default."""
    return LARGE_GRID_MAX_CAGE if size >= LARGE_GRID_FROM_SIZE else V2_MAX_CAGE


# Proving a large grid unique can take minutes when its cages are big and loose. From
# this size up, the proof gets a budget of search nodes (of count_solutions); a puzzle
# not proved unique within it is treated as ambiguous and changed (the exact proof
# still decides every puzzle that is kept). Smaller grids never needed the budget.
PROOF_BUDGET_FROM_SIZE = 8
PROOF_NODE_LIMIT = 150


def _differing(puzzle: KenKen, solution: Grid) -> set[Cell] | None:
    """None if ``puzzle`` is proved to have exactly one solution, else the cells where a
    second one differs; from PROOF_BUDGET_FROM_SIZE up, a puzzle whose proof needs more
    than PROOF_NODE_LIMIT search nodes counts as not proved, and the cells returned are
    those of its cage with the most fillings (the likeliest cause), to be changed."""
    n = puzzle.size
    large = n >= PROOF_BUDGET_FROM_SIZE
    found = count_solutions(
        puzzle,
        limit=2,
        max_nodes=PROOF_NODE_LIMIT if large else None,
        known=solution if large else None,
    )
    if found.count == 1 and found.complete:
        return None
    other = next((s for s in found.solutions if s != solution), None)
    if other is None:
        fillings = puzzle.cage_fillings()
        widest = max(range(len(fillings)), key=lambda k: len(fillings[k][1]))
        return set(puzzle.cages[widest].cells)
    return {(r, c) for r in range(n) for c in range(n) if other[r][c] != solution[r][c]}


def _unique_v2(
    size: int, rng: Rng, max_cage: int, operations: tuple[str, ...], ladder: Ladder
) -> tuple[KenKen, Grid]:
    """A unique KenKen: operations drawn again where solutions differ, then cages split
    (multiplication only: split at once, a product has no other operation to draw)."""
    cls = puzzle_class(operations)
    draws = OPERATION_DRAWS if operations == ALL_OPERATIONS else 0
    while True:
        solution = random_latin_square(size, rng)
        for _ in range(CAGE_DRAWS):
            groups = grow_cages_v2(size, rng, max_cage)
            cages = [_pick_v2(cells, solution, rng, operations=operations) for cells in groups]
            for repair in range(draws + size):
                puzzle = cls(size, cages)
                # Sound deductions that fill the grid prove it unique (no count needed).
                if closure(puzzle, level=1, ladder=ladder).status == "solved":
                    return puzzle, solution
                differing = _differing(puzzle, solution)
                if differing is None:
                    return puzzle, solution
                if repair >= draws:
                    if not _split_v2(cages, differing, solution, rng, operations):
                        break
                    continue
                for number, cage in enumerate(cages):
                    if differing.intersection(cage.cells):
                        cages[number] = _pick_v2(cage.cells, solution, rng, avoid=cage.op)


def _merge(
    cages: list[Cage],
    solution: Grid,
    rng: Rng,
    max_cage: int,
    operations: tuple[str, ...] = ALL_OPERATIONS,
) -> list[Cage] | None:
    """Two touching cages made one (at most ``max_cage`` cells), with a new operation."""
    options = []
    for a, b in combinations(range(len(cages)), 2):
        if len(cages[a].cells) + len(cages[b].cells) > max_cage:
            continue
        if any(neighbours(x, y) for x in cages[a].cells for y in cages[b].cells):
            options.append((a, b))
    if not options:
        return None
    a, b = rng.choice(options)
    merged = _pick_v2(sorted(cages[a].cells + cages[b].cells), solution, rng, operations=operations)
    return [cage for k, cage in enumerate(cages) if k not in (a, b)] + [merged]


def _ease(
    cages: list[Cage], solution: Grid, rng: Rng, operations: tuple[str, ...] = ALL_OPERATIONS
) -> list[Cage] | None:
    """One cage split in two halves, or a cage's operation drawn again (multiplication
    only: a cage split in halves, there being no other operation)."""
    big = [k for k, cage in enumerate(cages) if len(cage.cells) >= 4]
    if operations != ALL_OPERATIONS:
        rng.shuffle(big)
        for number in big:
            cage = cages[number]
            found = _halves(cage.cells, rng.choice(cage.cells), rng)
            if found is not None:
                part, rest = found
                out = [c for k, c in enumerate(cages) if k != number]
                return [
                    *out,
                    _pick_v2(rest, solution, rng, operations=operations),
                    _pick_v2(part, solution, rng, operations=operations),
                ]
        return None
    if big and rng.chance(1, 2):
        number = rng.choice(big)
        cage = cages[number]
        found = _halves(cage.cells, rng.choice(cage.cells), rng)
        if found is not None:
            part, rest = found
            out = [c for k, c in enumerate(cages) if k != number]
            return [*out, _pick_v2(rest, solution, rng), _pick_v2(part, solution, rng)]
    multi = [k for k, cage in enumerate(cages) if len(cage.cells) >= 2]
    if not multi:
        return None
    number = rng.choice(multi)
    out = list(cages)
    out[number] = _pick_v2(cages[number].cells, solution, rng, avoid=cages[number].op)
    return out


def _aim(
    puzzle: KenKen,
    solution: Grid,
    graded: Grade,
    target: int,
    rng: Rng,
    max_cage: int,
    operations: tuple[str, ...],
    ladder: Ladder,
) -> tuple[KenKen, Grade]:
    """Move a unique puzzle towards the target level: merge cages when it is too easy,
    split cages or change operations when it is too hard; every change keeps it unique.
    Returns the puzzle and its grade (``graded``, that of ``puzzle``, if nothing changed)."""
    rank = graded.rank
    cages = list(puzzle.cages)
    for _ in range(LEVEL_TWEAKS):
        if rank == target:
            break
        changed = (
            _merge(cages, solution, rng, max_cage, operations)
            if rank < target
            else _ease(cages, solution, rng, operations)
        )
        if changed is None:
            break
        trial = type(puzzle)(puzzle.size, changed)
        # A puzzle the techniques solve without search is unique: only a puzzle that
        # needs search is counted.
        trial_grade = grade(trial, ladder=ladder)
        new_rank = trial_grade.rank
        if new_rank >= SEARCH_RANK and _differing(trial, solution) is not None:
            continue
        if (rank < target and new_rank <= target) or (rank > target and target <= new_rank <= rank):
            puzzle, cages, rank, graded = trial, changed, new_rank, trial_grade
    return puzzle, graded


def generate(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    max_cage: int | None = None,
    engine_version: int = ENGINE_VERSION,
    operations: Sequence[str] = ALL_OPERATIONS,
) -> Generated[KenKen, Difficulty]:
    """A KenKen with exactly one solution, the same for the same arguments.

    With ``difficulty`` (a level of :mod:`puzzles.engines.grading`), the puzzle is
    rated exactly that level, or PuzzleError says which levels were reached
    instead after LEVEL_ATTEMPTS unique puzzles. ``max_cage`` defaults to
    :func:`default_max_cage` (engine version 1: DEFAULT_MAX_CAGE).
    ``engine_version=1`` gives the puzzles of engine version 1 (:func:`generate_v1`).
    ``operations=MULTIPLY_ONLY`` gives the multiplication-only sub-kind (from engine
    version 2 on).
    """
    ops = tuple(operations)
    cls = puzzle_class(ops)
    if engine_version == 1 and ops == ALL_OPERATIONS:
        return generate_v1(
            size=size,
            seed=seed,
            difficulty=difficulty,
            max_cage=DEFAULT_MAX_CAGE if max_cage is None else max_cage,
        )
    if engine_version not in (2, 3):
        versions = ENGINE_VERSIONS if cls is KenKen else (2, 3)
        raise PuzzleError(f"engine_version must be one of {', '.join(map(str, versions))}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    ladder = ladder_for(cls.kind, engine_version)
    target = None if difficulty is None else level_of(cls.kind, difficulty, ladder=ladder)
    if max_cage is None:
        max_cage = default_max_cage(size)
        if engine_version >= 3 and target == 1 and size >= LARGE_GRID_FROM_SIZE:
            max_cage = EASY_LARGE_GRID_MAX_CAGE
    if not 2 <= max_cage <= 6:
        raise PuzzleError("max_cage must be between 2 and 6")
    rng = Rng(seed)
    reached: dict[str, int] = {}
    for _ in range(LEVEL_ATTEMPTS if target else 1):
        puzzle, solution = _unique_v2(size, rng, max_cage, ops, ladder)
        # The grade of the puzzle kept is reused for its rating rather than computed again.
        graded = grade(puzzle, ladder=ladder)
        if target is not None:
            puzzle, graded = _aim(puzzle, solution, graded, target, rng, max_cage, ops, ladder)
        if target is None or graded.rank == target:
            return Generated(
                puzzle,
                seed,
                solution,
                graded.difficulty(puzzle),
                engine_version=engine_version,
                describe=generated_dict,
            )
        label = label_of(cls.kind, graded.rank, ladder=ladder)
        reached[label] = reached.get(label, 0) + 1
    assert difficulty is not None  # noqa: S101
    got = ", ".join(f"{label} {count}" for label, count in reached.items())
    title = "KenKen" if cls is KenKen else "KenKen (multiplication only)"
    raise PuzzleError(
        f"no {size}x{size} {title} rated {label_of(cls.kind, target or 1, ladder=ladder)} "
        f"from seed {seed} "
        f"in {LEVEL_ATTEMPTS} tries (reached: {got}); try another seed or size"
    )


def generate_multiply(
    *,
    size: int = DEFAULT_SIZE,
    seed: int,
    difficulty: str | None = None,
    max_cage: int | None = None,
    engine_version: int = ENGINE_VERSION,
) -> Generated[KenKen, Difficulty]:
    """A multiplication-only KenKen (the kind MULTIPLY_KIND): :func:`generate` with
    ``operations=MULTIPLY_ONLY``."""
    return generate(
        size=size,
        seed=seed,
        difficulty=difficulty,
        max_cage=max_cage,
        engine_version=engine_version,
        operations=MULTIPLY_ONLY,
    )
