"""Reading puzzle descriptions: small checks shared by the kinds, with clear messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from puzzles.engines.latin import Cell, Grid, PuzzleError


def require_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{what} must be an integer")
    number: int = value
    if low is not None and number < low:
        raise PuzzleError(f"{what} must be at least {low}")
    if high is not None and number > high:
        raise PuzzleError(f"{what} must be at most {high}")
    return number


def require_cell(value: Any, size: int, what: str) -> Cell:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise PuzzleError(f"{what} must be [row, col]")
    row = require_int(value[0], f"{what} row", 0, size - 1)
    col = require_int(value[1], f"{what} col", 0, size - 1)
    return (row, col)


def require_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PuzzleError(f"{what} must be a JSON object")
    return value


def read_grid(value: Any, size: int, what: str, *, allow_empty: bool = False) -> Grid:
    """An N x N grid of values 1..N (0 for an empty cell when ``allow_empty``)."""
    if not isinstance(value, list) or len(value) != size:
        raise PuzzleError(f"{what} must be a list of {size} rows")
    grid = []
    low = 0 if allow_empty else 1
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != size:
            raise PuzzleError(f"{what} row {r} must be a list of {size} values")
        grid.append([require_int(v, f"{what}[{r}][{c}]", low, size) for c, v in enumerate(row)])
    return grid


def neighbours(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
