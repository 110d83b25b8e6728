"""The published Decodoku puzzles, shipped as data in ``puzzles/data/decodoku_puzzles.json``.

Pure Python, no Django. The file names its source (repository, file and
commit) and what each field means; ``docs/decodoku-puzzles.md`` says how it
was made and what the corner digits can be trusted for. Each entry is one
distinct grid with every published number that shows it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from puzzles.engines.decodoku.board import Board, DecodokuError, parse_grid

DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "decodoku_puzzles.json"


@dataclass(frozen=True, slots=True)
class PublishedPuzzle:
    """One distinct published grid.

    ``numbers``: every published number showing this grid (ascending).
    ``grid``: the 64 characters as published, corner digits included.
    ``solution_links``: per number, the link counts of the source author's
    own solutions (an upper bound on the minimum: they are explanations).
    """

    numbers: tuple[int, ...]
    grid: str
    solution_links: dict[int, tuple[int, ...]]

    @property
    def number(self) -> int:
        """The puzzle's first published number."""
        return self.numbers[0]

    def board(self) -> Board:
        """The board, with the published corner digits recorded as its corners."""
        return parse_grid(self.grid, keep_corners=True)


def _entry(raw: Any) -> PublishedPuzzle:
    if not isinstance(raw, dict):
        raise DecodokuError("a published puzzle is a JSON object")
    numbers = raw.get("numbers")
    grid = raw.get("grid")
    links = raw.get("solution_links", {})
    if not (isinstance(numbers, list) and numbers and all(isinstance(n, int) for n in numbers)):
        raise DecodokuError("a published puzzle needs its numbers")
    if not isinstance(grid, str):
        raise DecodokuError("a published puzzle needs its grid")
    parse_grid(grid, keep_corners=True)  # checks the grid
    if not isinstance(links, dict):
        raise DecodokuError("solution_links maps numbers to link counts")
    return PublishedPuzzle(
        numbers=tuple(sorted(numbers)),
        grid=grid,
        solution_links={int(k): tuple(v) for k, v in links.items()},
    )


def load(path: Path = DATA_FILE) -> tuple[PublishedPuzzle, ...]:
    """The puzzles of a data file, in the order of their first number."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DecodokuError(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(document, dict) or not isinstance(document.get("puzzles"), list):
        raise DecodokuError(f"{path}: no list of puzzles")
    puzzles = sorted((_entry(raw) for raw in document["puzzles"]), key=lambda p: p.number)
    numbers = [n for p in puzzles for n in p.numbers]
    if len(numbers) != len(set(numbers)):
        raise DecodokuError(f"{path}: a number names two grids")
    if len({p.grid for p in puzzles}) != len(puzzles):
        raise DecodokuError(f"{path}: a grid appears twice")
    return tuple(puzzles)


@lru_cache(maxsize=1)
def published_puzzles() -> tuple[PublishedPuzzle, ...]:
    """The shipped puzzles (read once)."""
    return load()


def source() -> dict[str, Any]:
    """The data file's description of where the puzzles come from."""
    document = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    found = document.get("source", {})
    return dict(found) if isinstance(found, dict) else {}
