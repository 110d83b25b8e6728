"""From stored rows to engine objects.

A stored puzzle never changes, so its engine object is kept in a small
cache keyed by the puzzle's id (KenKen's cages precompute their fitting
values once).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from puzzles.engines.registry import PuzzleKind, get_kind
from puzzles.models import Puzzle

CACHE_SIZE = 256
_cache: OrderedDict[str, Any] = OrderedDict()


def puzzle_kind(puzzle: Puzzle) -> PuzzleKind:
    return get_kind(puzzle.kind)


def engine_puzzle(puzzle: Puzzle) -> Any:
    """The engine's object for a stored puzzle."""
    key = f"{puzzle.pk}:{puzzle.engine_version}"
    found = _cache.get(key)
    if found is None:
        found = puzzle_kind(puzzle).load(puzzle.definition)
        _cache[key] = found
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return found
