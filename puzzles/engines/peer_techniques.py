"""The Latin-square techniques of Simon Tatham's Keen and Unequal, as their levels use them.

The ladder of engine version 3 (:data:`puzzles.engines.grading.LADDER_V3`) is
built from the same deductions as the collection's solver (``latin.c`` and
the puzzles' own rules), so that a level name here means what it means there:

* **subsets** of any size in a row or column (the collection's "set
  elimination": k cells whose candidates are k values) are
  :func:`puzzles.engines.grading.subsets` from two cells up;
* **fish** (its "positional set elimination on a single number"): k rows
  whose places for a value lie in k columns; the value leaves those columns'
  other cells (k = 2 is the X-wing, 3 the swordfish), and the same with rows
  and columns swapped;
* **bivalue chains** (its "forcing chains"): a chain of two-candidate cells
  along rows and columns, each taking the value its predecessor cannot.

Every function is a technique ``(puzzle, cands) -> Step | None`` as in
:mod:`puzzles.engines.grading`: the first elimination found, or None.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from puzzles.engines.latin import LatinPuzzle, bit
from puzzles.engines.solver import Step

FISH = "fish"
BIVALUE_CHAIN = "bivalue_chain"


def fish(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """k lines (rows, or columns) whose open places for a value v lie in k cross lines:
    v fills those cross lines within the k lines, so it leaves their other cells."""
    g = puzzle.geometry
    n = puzzle.size
    for v in range(1, n + 1):
        b = bit(v)
        for lines, across in ((g.rows, g.cols), (g.cols, g.rows)):
            # Each line where v is not yet placed, with the positions v may take in it.
            spots: list[tuple[int, int]] = []
            for number, line in enumerate(lines):
                if any(cands[i] == b for i in line):
                    continue
                positions = 0
                for k, i in enumerate(line):
                    if cands[i] & b:
                        positions |= 1 << k
                spots.append((number, positions))
            for size in range(2, len(spots)):
                for group in combinations(spots, size):
                    union = 0
                    for _, positions in group:
                        union |= positions
                    if union.bit_count() != size:
                        continue
                    chosen = {number for number, _ in group}
                    removed: dict[int, int] = {}
                    for k in range(n):
                        if not union >> k & 1:
                            continue
                        for number, i in enumerate(across[k]):
                            if number not in chosen and cands[i] & b:
                                removed[i] = b
                    if removed:
                        cause = [
                            lines[number][k]
                            for number, _ in group
                            for k in range(n)
                            if union >> k & 1 and cands[lines[number][k]] & b
                        ]
                        return Step(FISH, cause, removed)
    return None


def _shares_line(puzzle: LatinPuzzle, a: int, b: int) -> bool:
    ra, ca = puzzle.geometry.cell(a)
    rb, cb = puzzle.geometry.cell(b)
    return ra == rb or ca == cb


def bivalue_chain(puzzle: LatinPuzzle, cands: list[int]) -> Step | None:
    """From a two-candidate cell s with values {a, b}: suppose s is not a, so it is b;
    then each two-candidate cell seeing it that holds b is its other value, and so on
    along the chain. A cell that sees both s and a chain cell forced to a cannot be a
    (either s is a, or that chain cell is)."""
    g = puzzle.geometry
    for start, mask in enumerate(cands):
        if mask.bit_count() != 2:
            continue
        for origin in (mask & -mask, mask & (mask - 1)):
            value = {start: mask & ~origin}
            came_from = {start: -1}
            queue = deque([start])
            while queue:
                cell = queue.popleft()
                current = value[cell]
                for other in g.peers[cell]:
                    if other in value or not cands[other] & current:
                        continue
                    if cands[other].bit_count() == 2:
                        value[other] = cands[other] & ~current
                        came_from[other] = cell
                        queue.append(other)
                    if current == origin and _shares_line(puzzle, other, start):
                        chain = [cell]
                        while came_from[chain[-1]] >= 0:
                            chain.append(came_from[chain[-1]])
                        return Step(BIVALUE_CHAIN, chain[::-1], {other: origin})
    return None
