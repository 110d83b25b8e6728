"""Our KenKen, Futoshiki and 2mino puzzles as game IDs of Simon Tatham's collection.

The Portable Puzzle Collection names a puzzle by a game ID, ``<params>:<description>``,
which its standalone solvers (Keen, Unequal, Dominosa built with
``-DSTANDALONE_SOLVER``) read on the command line. This module writes those IDs
for our puzzles and reads what the solvers print; ``bench/peer_grades.py`` runs
them. Pure functions, no Django, no subprocess.

The three description formats, as the collection's sources define them:

Keen (KenKen), ``<w>:<blocks>,<clues>``
    ``<blocks>`` walks the 2w(w-1) inner grid lines: first the vertical ones (between
    a cell and its right neighbour) row by row, then the horizontal ones (between a
    cell and the one below) column by column, then one extra closing line. For every
    line that separates two cages (and the closing one) it writes how many
    non-separating lines came since the previous separating one: ``_`` for none,
    ``a`` to ``y`` for 1 to 25. A letter repeated three times or more is written
    once followed by the count (``_3``); twice, it is written twice. ``<clues>``
    gives, for each cage in the reading order of its first cell, the operation
    letter (``a`` add, ``m`` multiply, ``s`` subtract, ``d`` divide) and the target;
    a one-cell cage is an addition whose target is its value.

Unequal (Futoshiki), ``<n>:<cell>,<cell>,...,``
    One item per cell in reading order, each followed by a comma: the given digit
    (0 for none), then the letters ``U R D L`` (in that order) for each neighbour
    above, right, below or left that the cell is *greater* than.

Dominosa (2mino), ``<n>:<digits>``
    ``n`` is the largest number; the board has n + 1 rows and n + 2 columns, read
    row by row, a number above 9 in brackets (``[10]``). Our board of size N
    (symbols 0 .. N-1) has N + 1 rows and N columns, so it is sent transposed with
    n = N - 1. The format has no hints: our locked bars are left out, so the peer
    grades the bare numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from puzzles.engines.futoshiki import Futoshiki
from puzzles.engines.kenken import KenKen
from puzzles.engines.twomino import Puzzle as TwominoPuzzle

KEEN_LEVELS = ("Easy", "Normal", "Hard", "Extreme", "Unreasonable")
UNEQUAL_LEVELS = ("Trivial", "Easy", "Tricky", "Extreme", "Recursive")
DOMINOSA_LEVELS = ("Trivial", "Basic", "Hard", "Extreme")
# Outcomes other than a level: several solutions, none, or (Dominosa, whose
# solver never guesses) deductions that stop before the board is tiled.
AMBIGUOUS = "ambiguous"
IMPOSSIBLE = "impossible"
STUCK = "stuck"

KEEN_OPS = {"+": "a", "x": "m", "-": "s", "/": "d", "=": "a"}
# The longest run one letter can state; longer runs are written inconsistently by
# the collection's own encoder and decoder, and no grid up to 9 x 9 whose cages
# fit in fewer than 9 cells has one.
MAX_RUN = 25

Grid = list[list[int]]


def _run_letter(run: int) -> str:
    if run == 0:
        return "_"
    if run > MAX_RUN:
        raise ValueError(f"a run of {run} cage-internal lines cannot be written")
    return chr(ord("a") + run - 1)


def _squeeze(letters: str) -> str:
    """Runs of one letter: three or more become the letter and the count."""
    out: list[str] = []
    i = 0
    while i < len(letters):
        j = i
        while j < len(letters) and letters[j] == letters[i]:
            j += 1
        count = j - i
        out.append(letters[i] + (str(count) if count > 2 else letters[i] * (count - 1)))
        i = j
    return "".join(out)


def keen_blocks(owner: Sequence[Sequence[int]]) -> str:
    """The block part of a Keen description for a grid of cage numbers."""
    w = len(owner)
    lines: list[bool] = []  # True where the line separates two cages
    for r in range(w):
        for c in range(w - 1):
            lines.append(owner[r][c] != owner[r][c + 1])
    for c in range(w):
        for r in range(w - 1):
            lines.append(owner[r][c] != owner[r + 1][c])
    lines.append(True)  # the closing line
    letters = []
    run = 0
    for separates in lines:
        if separates:
            letters.append(_run_letter(run))
            run = 0
        else:
            run += 1
    return _squeeze("".join(letters))


def keen_id(puzzle: KenKen) -> str:
    """The Keen game ID of a KenKen."""
    w = puzzle.size
    owner = [[-1] * w for _ in range(w)]
    for number, cage in enumerate(puzzle.cages):
        for r, c in cage.cells:
            owner[r][c] = number
    first = sorted((min(cage.cells), number) for number, cage in enumerate(puzzle.cages))
    clues = "".join(
        f"{KEEN_OPS[puzzle.cages[number].op]}{puzzle.cages[number].target}" for _, number in first
    )
    return f"{w}:{keen_blocks(owner)},{clues}"


def unequal_id(puzzle: Futoshiki) -> str:
    """The Unequal game ID of a Futoshiki."""
    n = puzzle.size
    greater: dict[tuple[int, int], set[str]] = {}
    for relation in puzzle.relations:
        low, high = relation.ordered()
        # The letter names where the smaller neighbour lies, seen from the larger cell.
        direction = {(-1, 0): "U", (0, 1): "R", (1, 0): "D", (0, -1): "L"}[
            (low[0] - high[0], low[1] - high[1])
        ]
        greater.setdefault(high, set()).add(direction)
    items = []
    for r in range(n):
        for c in range(n):
            flags = "".join(d for d in "URDL" if d in greater.get((r, c), set()))
            items.append(f"{puzzle.givens.get((r, c), 0)}{flags},")
    return f"{n}:{''.join(items)}"


def dominosa_id(puzzle: TwominoPuzzle) -> str:
    """The Dominosa game ID of a 2mino board's numbers (its locked bars cannot be said)."""
    size = puzzle.size
    numbers = []
    for c in range(size):  # a peer row is one of our columns
        for r in range(size + 1):
            value = puzzle.grid[r][c]
            numbers.append(str(value) if value < 10 else f"[{value}]")
    return f"{size - 1}:{''.join(numbers)}"


# -- what the solvers print ----------------------------------------------------


@dataclass(frozen=True)
class PeerResult:
    """A peer's verdict: a level name, or AMBIGUOUS, IMPOSSIBLE or STUCK."""

    level: str
    solution: Grid | None = None

    @property
    def unique(self) -> bool:
        return self.level not in (AMBIGUOUS, IMPOSSIBLE, STUCK)


KEEN_RATING = re.compile(r"^Difficulty rating: (.+)$", re.MULTILINE)


def parse_keen_grade(text: str) -> PeerResult:
    """``keensolver -g`` output: one line ``Difficulty rating: <level>``."""
    found = KEEN_RATING.search(text)
    if found is None:
        raise ValueError(f"no difficulty rating in the Keen output: {text[:200]!r}")
    rating = found.group(1).strip()
    if rating == "ambiguous":
        return PeerResult(AMBIGUOUS)
    if rating.startswith("impossible"):
        return PeerResult(IMPOSSIBLE)
    if rating not in KEEN_LEVELS:
        raise ValueError(f"unknown Keen rating {rating!r}")
    return PeerResult(rating)


def parse_keen_solution(text: str, size: int) -> Grid | None:
    """``keensolver <id>`` output: the solved grid, one row of digits per line."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == size and all(p.isdigit() for p in parts):
            rows.append([int(p) for p in parts])
    return rows[-size:] if len(rows) >= size else None


UNEQUAL_VERDICT = re.compile(
    r"^Game (?:has difficulty (\w+)\.|(has multiple solutions)\.|(is impossible)\.)$",
    re.MULTILINE,
)


def parse_unequal(text: str, size: int) -> PeerResult:
    """``unequalsolver <id>`` output: the solver's working, a verdict line
    (``Game has difficulty <level>.``, ``Game has multiple solutions.`` or
    ``Game is impossible.``) and then the grid as far as it was filled: 2n - 1
    lines, the digits on the even ones in the even columns."""
    verdicts = list(UNEQUAL_VERDICT.finditer(text))
    if not verdicts:
        raise ValueError(f"no verdict in the Unequal output: {text[-200:]!r}")
    found = verdicts[-1]  # the solver prints one; the grid follows it
    level, several, impossible = found.groups()
    if several:
        return PeerResult(AMBIGUOUS)
    if impossible:
        return PeerResult(IMPOSSIBLE)
    if level not in UNEQUAL_LEVELS:
        raise ValueError(f"unknown Unequal level {level!r}")
    board = text[found.end() :].strip("\n").splitlines()[::2]
    grid = None
    if len(board) == size and all(len(line) >= 2 * size - 1 for line in board):
        values = [[unequal_digit(line[2 * c], size) for c in range(size)] for line in board]
        if all(v is not None for row in values for v in row):
            grid = [[v or 0 for v in row] for row in values]
    return PeerResult(level, grid)


def unequal_digit(char: str, size: int) -> int | None:
    """A value as Unequal prints it: 1-9 below order 10; from order 10 on, 0-9 for
    1-10 and A, B, ... for 11, 12, ...; None for an empty cell or anything else."""
    if size < 10:
        return int(char) if char in "123456789" else None
    if char.isdigit():
        return int(char) + 1
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + 11
    return None


DOMINOSA_RATING = re.compile(r"^Difficulty rating: (\w+)$", re.MULTILINE)
DOMINOSA_UNSOLVED = "Could not deduce a unique solution"


def parse_dominosa(grade_text: str, solve_text: str) -> PeerResult:
    """``dominosasolver -g`` and ``dominosasolver`` output, together.

    The grader prints the hardest deduction it used even when the deductions
    stop short of a tiling; only the solving run says so (``Could not deduce a
    unique solution``), and ``Puzzle is inconsistent`` when no tiling is left.
    """
    if "Puzzle is inconsistent" in grade_text or "Puzzle is inconsistent" in solve_text:
        return PeerResult(IMPOSSIBLE)
    if DOMINOSA_UNSOLVED in solve_text:
        return PeerResult(STUCK)
    found = DOMINOSA_RATING.search(grade_text)
    if found is None or found.group(1) not in DOMINOSA_LEVELS:
        raise ValueError(f"no difficulty rating in the Dominosa output: {grade_text[:200]!r}")
    return PeerResult(found.group(1))
