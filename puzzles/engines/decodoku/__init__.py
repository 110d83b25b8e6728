"""Decodoku puzzles: the board after noise with two hidden corners, explained by links.

Pure Python (the solver uses NumPy and SciPy's HiGHS), no Django. The rules,
the published puzzles and the solver are described in
``docs/decodoku-puzzles.md``.
"""

from puzzles.engines.decodoku.board import (
    HIDDEN,
    MODULUS,
    SIZE,
    STANDARD,
    TOP_LEFT,
    Board,
    DecodokuError,
    Geometry,
    geometry,
    parse_grid,
)
from puzzles.engines.decodoku.explanation import Check, Group, Score, check, groups_of, score
from puzzles.engines.decodoku.solver import Solution, solve

__all__ = [
    "HIDDEN",
    "MODULUS",
    "SIZE",
    "STANDARD",
    "TOP_LEFT",
    "Board",
    "Check",
    "DecodokuError",
    "Geometry",
    "Group",
    "Score",
    "Solution",
    "check",
    "geometry",
    "groups_of",
    "parse_grid",
    "score",
    "solve",
]
