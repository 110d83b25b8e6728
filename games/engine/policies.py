"""Simple move policies shared by the command line, the tests and the benchmarks.

A policy sees what a player sees (the values) and returns one move. Policies
draw from their own generator so that they never disturb the noise stream.
"""

from __future__ import annotations

from typing import Protocol

from .events import MoveTuple
from .game import Game
from .rng import SplitMix64, rejection_limit


class Policy(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def version(self) -> int: ...

    def choose(self, game: Game) -> MoveTuple: ...


class RandomPolicy:
    """A uniformly random number moved in a uniformly random legal direction.

    The number is found by drawing cells until one holds a number, which is
    uniform over the numbers on the board without listing them.
    """

    name = "random"
    version = 1

    def __init__(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed)

    def choose(self, game: Game) -> MoveTuple:
        # below(L*L) written out as in the engine's noise loop (SplitMix64.outputs).
        rng = self._rng
        draw = rng.outputs()
        values = game._values
        ncells = len(values)
        limit = rejection_limit(ncells)
        while True:
            r = draw()
            if r >= limit:
                r = rng.redraw(limit)
            cell = r % ncells
            if values[cell]:
                break
        moves = _moves_by_cell(game.size)[cell]
        return moves[rng.below(len(moves))]


_MOVES_BY_CELL: dict[int, tuple[tuple[MoveTuple, ...], ...]] = {}


def _moves_by_cell(size: int) -> tuple[tuple[MoveTuple, ...], ...]:
    """For each cell, row-major, its moves in the order up, down, left, right."""
    table = _MOVES_BY_CELL.get(size)
    if table is None:
        table = _MOVES_BY_CELL[size] = tuple(
            tuple(
                (row, col, to_row, to_col)
                for to_row, to_col in (
                    (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)
                )
                if 0 <= to_row < size and 0 <= to_col < size
            )
            for row in range(size)
            for col in range(size)
        )
    return table


POLICIES: dict[str, type[RandomPolicy]] = {"random": RandomPolicy}


def play(game: Game, policy: Policy, *, max_moves: int | None = None) -> Game:
    """Let ``policy`` play ``game`` until it is lost (or ``max_moves`` are made)."""
    made = 0
    while not game.over and (max_moves is None or made < max_moves):
        game.move(*policy.choose(game))
        made += 1
    return game
