"""The boards of a save as the analysis sees them, and one move played on them by the engine.

``BoardView`` is one step's board with the facts the checks need (how many
numbers, which group spans); ``move_outcomes`` plays a move on it with the
engine itself, under each merge-label convention, and tells the group ids
after and whether a group spans. Nothing here knows about the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...errors import EngineError
from ...events import MoveTuple
from ...game import Board, Game
from ...rules import MergeLabel
from ...variants import variant_kind
from ...version import ENGINE_VERSION
from ..model import EMPTY, LegacyStep


class BoardView:
    """One step's board as flat tuples, with the derived facts the checks need."""

    __slots__ = ("labels", "line", "numbers", "size", "spans", "step", "symbols", "t")

    def __init__(self, step: LegacyStep, size: int) -> None:
        self.step = step
        self.t = step.t
        self.line = step.line
        self.size = size
        self.symbols = step.symbols
        self.labels = step.labels
        self.numbers = sum(1 for s in self.symbols if s != EMPTY)
        self.spans = Board(size, (0,) * (size * size), self.labels).spanning()

    def where(self, index: int) -> str:
        row, col = divmod(index, self.size)
        return f"row {row + 1}, column {col + 1}"

    def cells_text(self, indices: list[int], limit: int = 6) -> str:
        """``(1,3), (1,4)``: cells as (row, column), counted from 1."""
        shown = [f"({i // self.size + 1},{i % self.size + 1})" for i in indices[:limit]]
        return ", ".join(shown) + (", ..." if len(indices) > limit else "")

    def line_of(self, index: int) -> int | None:
        return self.step.rows[index // self.size].line

    @property
    def label_set(self) -> set[int]:
        return set(self.labels) - {0}


@lru_cache(maxsize=32)
def _neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for index in range(size * size):
        row, col = divmod(index, size)
        found = []
        if row > 0:
            found.append(index - size)
        if row < size - 1:
            found.append(index + size)
        if col > 0:
            found.append(index - 1)
        if col < size - 1:
            found.append(index + 1)
        table.append(tuple(found))
    return tuple(table)


def neighbours(index: int, size: int) -> tuple[int, ...]:
    """The cells next to ``index``: up, down, left, right (the engine's order)."""
    return _neighbour_table(size)[index]


class _OneMove(Game):
    """A game restored from a board of the save that plays one move and stops there.

    The loss check, the jump on an empty board and the noise round that may
    follow a move are left out: the save itself tells what followed, and
    the analysis checks it against the clock.
    """

    def _after_move(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A move played on a board of the save: the group ids after it, and whether a group spans.

    ``convention`` is the merge-label convention it was played under, or
    ``None`` when the move merges no two groups (so the convention does not matter).
    """

    move: MoveTuple
    convention: MergeLabel | None
    labels: tuple[int, ...]
    spans: bool


@lru_cache(maxsize=16384)
def _probe(
    variant: str, size: int, symbols: tuple[str, ...], labels: tuple[int, ...],
    s: int, d: int, result: str, convention: MergeLabel,
) -> tuple[tuple[int, ...], bool] | None:
    """Play one move with the engine on a board of the save: (group ids after, spans).

    A pure function of its arguments, cached: checking the same save again
    (or a copy of it changed in one place) replays only what changed.
    """
    kind = variant_kind(variant)
    values = kind.stand_in_values(symbols, s, d, result)
    state = {
        "engine_version": ENGINE_VERSION,
        # A board whose values the save hides is played with stand-in values, by the
        # rules of its variant (Colors boards by the Z10 rules: the moves are the same).
        "rules": {"size": size, "variant": str(kind.plays_as),
                  "merge_label": str(convention)},
        "seed": "0",
        "rng": "0",
        "t": 0,
        "round": 0,
        "moves": 0,
        "next_label": max(labels, default=0) + 1,
        "values": "".join(map(str, values)),
        "labels": list(labels),
        "loss": None,
    }
    try:
        game = _OneMove.from_state(state, record=False)
        game.move(*divmod(s, size), *divmod(d, size))
    except EngineError:
        return None
    return game.labels(), bool(game.spanning_labels())


def _play(
    variant: str, size: int, prev: BoardView, s: int, d: int, result: str, convention: MergeLabel
) -> Outcome | None:
    played = _probe(variant, size, prev.symbols, prev.labels, s, d, result, convention)
    if played is None:
        return None
    labels, spans = played
    ls, ld = prev.labels[s], prev.labels[d]
    merge = bool(ld) and ld != ls
    move = (*divmod(s, size), *divmod(d, size))
    return Outcome(move, convention if merge else None, labels, spans)


_BOTH = (MergeLabel.MOVED, MergeLabel.DESTINATION)


def move_outcomes(
    variant: str, size: int, prev: BoardView, s: int, d: int, result: str,
    conventions: tuple[MergeLabel, ...] = _BOTH,
) -> list[Outcome]:
    """The move's outcome under each convention (one outcome when no merge happens)."""
    ls, ld = prev.labels[s], prev.labels[d]
    if not ld or ld == ls:
        conventions = conventions[:1]
    found = []
    for convention in conventions:
        outcome = _play(variant, size, prev, s, d, result, convention)
        if outcome:
            found.append(outcome)
    return found
