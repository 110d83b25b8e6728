"""The puzzle kinds the platform knows, by name.

A kind is registered once with what the rest of the platform needs: its
engine version, sizes and difficulties, how to generate one from a seed (a
:class:`~puzzles.engines.base.Generated`, the same type for every kind), how
to read one back from its JSON description, how to solve it (for the
command line), and how play works on it (``play``: the player's state and
actions). A *sub-kind* (``kenken-multiply``, ``futoshiki-adjacent``) names the kind
whose page, drawing and levels it shares, its *base kind* (``base_kind``). KenKen and
Futoshiki share the Latin-square play of :mod:`puzzles.engines.latin_play`; a kind with
other actions (bars between cells, for instance) registers its own play module with the
same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from puzzles.engines import futoshiki, kenken, latin_play, twomino, twomino_play
from puzzles.engines.base import Generated
from puzzles.engines.decodoku import platform as decodoku_platform
from puzzles.engines.decodoku.board import SIZE as DECODOKU_SIZE
from puzzles.engines.latin import LatinPuzzle, PuzzleError
from puzzles.engines.solver import DIFFICULTIES, count_solutions, solve_logically


@dataclass(frozen=True)
class PuzzleKind:
    name: str
    title: str
    engine_version: int
    min_size: int
    max_size: int
    default_size: int
    difficulties: tuple[str, ...]
    generate: Callable[..., Generated[Any, Any]]
    load: Callable[[Mapping[str, Any]], Any]
    read_solution: Callable[[Mapping[str, Any], int], Any]
    solve: Callable[[Any], dict[str, Any]]
    play: ModuleType
    # How a generated puzzle is rated for storage ({"label", "hardest", "steps",
    # "techniques"}); None: the rating is the "difficulty" of its JSON.
    rate: Callable[[Any], dict[str, Any]] | None = None
    # A sub-kind's base kind (its page, rules, cage or sign drawing and level ladder);
    # "" for a kind of its own. grading.LADDER_OF says the same for the ladder, and a
    # test checks that the two agree.
    base_kind: str = ""

    def check_size(self, size: int) -> None:
        if not self.min_size <= size <= self.max_size:
            raise PuzzleError(
                f"{self.name}: size must be between {self.min_size} and {self.max_size}"
            )

    def level_label(self, difficulty: str, engine_version: int) -> str:
        """A stored puzzle's level as shown beside today's: a label given by an earlier
        engine version, whose levels may differ (version 2's Futoshiki "easy" is not
        version 3's), names that version."""
        if engine_version == self.engine_version or not difficulty:
            return difficulty
        return f"{difficulty} (engine version {engine_version})"


KINDS: dict[str, PuzzleKind] = {}


def stored_level_label(kind: str, difficulty: str, engine_version: int) -> str:
    """:meth:`PuzzleKind.level_label` of a stored puzzle (a kind no longer registered:
    the label as it is)."""
    registered = KINDS.get(kind)
    return registered.level_label(difficulty, engine_version) if registered else difficulty


def register(kind: PuzzleKind) -> None:
    if kind.name in KINDS:
        raise ValueError(f"puzzle kind {kind.name!r} is already registered")
    KINDS[kind.name] = kind


def get_kind(name: str) -> PuzzleKind:
    try:
        return KINDS[name]
    except KeyError:
        raise PuzzleError(
            f"unknown puzzle kind {name!r} (one of {', '.join(sorted(KINDS))})"
        ) from None


def solve_latin(puzzle: LatinPuzzle) -> dict[str, Any]:
    """Solution count (stopping at 2) and the technique trace, as JSON-ready data."""
    counted = count_solutions(puzzle, limit=2)
    data: dict[str, Any] = {"solutions": counted.count if counted.count < 2 else ">=2"}
    if counted.count == 1:
        data["solution"] = counted.solutions[0]
        result = solve_logically(puzzle)
        data["trace"] = [step.to_dict(puzzle) for step in result.steps]
        data["hardest"] = result.hardest
        data["steps"] = len(result.steps)
    return data


def latin_kind(
    *,
    name: str,
    title: str,
    engine_version: int,
    sizes: tuple[int, int, int],
    generate: Callable[..., Generated[Any, Any]],
    load: Callable[[Mapping[str, Any]], Any],
    read_solution: Callable[[Mapping[str, Any], int], Any],
    base_kind: str = "",
) -> PuzzleKind:
    """A Latin-square kind: the shared levels, solver and play; ``sizes`` is (min, max, default)."""
    low, high, default = sizes
    return PuzzleKind(
        name=name,
        title=title,
        engine_version=engine_version,
        min_size=low,
        max_size=high,
        default_size=default,
        difficulties=DIFFICULTIES,
        generate=generate,
        load=load,
        read_solution=read_solution,
        solve=solve_latin,
        play=latin_play,
        base_kind=base_kind,
    )


KENKEN_SIZES = (kenken.MIN_SIZE, kenken.MAX_SIZE, kenken.DEFAULT_SIZE)
register(
    latin_kind(
        name=kenken.KIND,
        title="KenKen",
        engine_version=kenken.ENGINE_VERSION,
        sizes=KENKEN_SIZES,
        generate=kenken.generate,
        load=kenken.from_dict,
        read_solution=kenken.read_solution,
    )
)
register(
    latin_kind(
        name=kenken.MULTIPLY_KIND,
        title="KenKen (multiplication only)",
        engine_version=kenken.ENGINE_VERSION,
        sizes=KENKEN_SIZES,
        generate=kenken.generate_multiply,
        load=kenken.from_dict_multiply,
        read_solution=kenken.read_solution,
        base_kind=kenken.KIND,
    )
)
register(
    latin_kind(
        name=futoshiki.KIND,
        title="Futoshiki",
        engine_version=futoshiki.ENGINE_VERSION,
        sizes=(futoshiki.MIN_SIZE, futoshiki.MAX_SIZE, futoshiki.DEFAULT_SIZE),
        generate=futoshiki.generate,
        load=futoshiki.from_dict,
        read_solution=futoshiki.read_solution,
    )
)
register(
    latin_kind(
        name=futoshiki.ADJACENT_KIND,
        title="Futoshiki (Adjacent)",
        engine_version=futoshiki.ADJACENT_ENGINE_VERSION,
        sizes=(futoshiki.MIN_SIZE, futoshiki.ADJACENT_MAX_SIZE, futoshiki.ADJACENT_DEFAULT_SIZE),
        generate=futoshiki.generate_adjacent,
        load=futoshiki.adjacent_from_dict,
        read_solution=futoshiki.read_solution,
        base_kind=futoshiki.KIND,
    )
)
register(
    PuzzleKind(
        name=twomino.KIND,
        title="2mino",
        engine_version=twomino.ENGINE_VERSION,
        min_size=twomino.MIN_SIZE,
        max_size=twomino.MAX_SIZE,
        default_size=6,
        difficulties=twomino.DIFFICULTIES,
        generate=twomino_play.generate,
        load=twomino_play.load,
        read_solution=twomino_play.read_solution,
        solve=twomino_play.solve,
        play=twomino_play,
        rate=twomino_play.rating,
    )
)
register(
    PuzzleKind(
        name=decodoku_platform.KIND,
        title="Decodoku puzzle",
        engine_version=decodoku_platform.ENGINE_VERSION,
        min_size=DECODOKU_SIZE,
        max_size=DECODOKU_SIZE,
        default_size=DECODOKU_SIZE,
        difficulties=decodoku_platform.DIFFICULTIES,
        generate=decodoku_platform.generate,
        load=decodoku_platform.load,
        read_solution=decodoku_platform.read_solution,
        solve=decodoku_platform.solve_board,
        play=decodoku_platform,
    )
)
