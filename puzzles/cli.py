"""What ``manage.py puzzle`` does, as plain functions (the command only parses arguments).

``generate`` yields one JSON object per puzzle; ``solve`` reads such lines
(the solution is optional) and yields the solution count and the technique
trace of each, raising :class:`PuzzleFileError` that names the line of the
first malformed puzzle.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from typing import Any

from puzzles.engines import futoshiki, kenken
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind

SEED_BITS = 63
MAX_LINE_LENGTH = 1_000_000


class PuzzleFileError(ValueError):
    """A line of a puzzle file cannot be read; the message names the line."""


def generate_puzzles(
    *,
    kind: str,
    size: int | None,
    difficulty: str | None,
    seed: int | None,
    count: int,
    engine_version: int | None = None,
) -> Iterator[dict[str, Any]]:
    """``count`` puzzles with seeds ``seed``, ``seed + 1``, ... (a random first seed if None).

    ``engine_version`` regenerates the puzzles of an earlier engine version
    (KenKen and Futoshiki keep version 1); None means the current one.
    """
    puzzle_kind = get_kind(kind)
    extra: dict[str, Any] = {}
    if engine_version is not None and engine_version != puzzle_kind.engine_version:
        module = {"kenken": kenken, "futoshiki": futoshiki}.get(kind)
        versions = module.ENGINE_VERSIONS if module else (puzzle_kind.engine_version,)
        if engine_version not in versions:
            raise PuzzleError(
                f"{kind}: engine version must be one of {', '.join(map(str, versions))}"
            )
        extra["engine_version"] = engine_version
    size = puzzle_kind.default_size if size is None else size
    puzzle_kind.check_size(size)
    if difficulty is not None and difficulty not in puzzle_kind.difficulties:
        raise PuzzleError(
            f"{kind}: difficulty must be one of {', '.join(puzzle_kind.difficulties)}"
        )
    if count < 1:
        raise PuzzleError("count must be at least 1")
    first = secrets.randbits(SEED_BITS) if seed is None else seed
    if first < 0 or first + count > 2**SEED_BITS:
        raise PuzzleError(f"seeds must lie between 0 and 2**{SEED_BITS} - 1")
    for offset in range(count):
        made = puzzle_kind.generate(size=size, seed=first + offset, difficulty=difficulty, **extra)
        yield made.to_dict()


def solve_lines(lines: Iterable[str], *, source: str) -> Iterator[dict[str, Any]]:
    """Solve each puzzle line of a file; blank lines are skipped."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}, line {number}"
        if len(line) > MAX_LINE_LENGTH:
            raise PuzzleFileError(f"{where}: the line is longer than {MAX_LINE_LENGTH} characters")
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PuzzleFileError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
        try:
            if not isinstance(data, dict):
                raise PuzzleError("the line must hold a JSON object")
            kind_name = data.get("kind")
            if not isinstance(kind_name, str):
                raise PuzzleError("kind must be a string")
            kind = get_kind(kind_name)
            puzzle = kind.load(data)
            stated = kind.read_solution(data, puzzle.size)
        except PuzzleError as exc:
            raise PuzzleFileError(f"{where}: {exc}") from None
        result: dict[str, Any] = {"line": number, "kind": kind.name, "size": puzzle.size}
        result.update(kind.solve(puzzle))
        if stated is not None:
            result["stated_solution_valid"] = puzzle.is_solution(stated)
        yield result
