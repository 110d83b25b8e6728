"""One game of the planar code-capacity family.

The board gets its single noise round when the game starts (``lattice.py``
says which edges and values). The player then moves numbers as in the game
(a whole number to a neighbouring cell, adding mod d) and may also move a
number off the board through the left or the right side from a cell of the
first or last column. The game is over when the board is clean.

The *logical outcome* is the net charge carried rightwards across the left
side, by the noise on the left side's edges and by moves through it, mod d.
On a clean board it is the same across every vertical cut (charge is
conserved), so it does not matter which cut one reads. The game has
*failed* when the board is clean and the charge is not 0: the noise and the
corrections together carry a charge from one side to the other, a logical
error of the planar code. Neither is shown before the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalMove, InvalidRuleSet
from ..rules import Family, RuleSet
from .lattice import OUTSIDE, apply_noise, draw_noise, lattice


@dataclass(frozen=True, slots=True)
class PlanarMove:
    """A move: ``to_col`` is ``-1`` or ``L`` for a move off the board through a side."""

    from_row: int
    from_col: int
    to_row: int
    to_col: int
    value: int  # the number moved
    before: int  # the destination's value before (0 off the board)
    after: int  # the destination's value after (0 off the board)
    off_board: bool  # through the left (to_col -1) or right (to_col L) side


class PlanarGame:
    """A planar code-capacity game: one noise round, then moves until the board is clean.

    ``record=False`` keeps no list of moves (the shots of a sweep). ``noise``
    gives the board's errors as ``(edge, a)`` pairs instead of drawing them
    from ``seed`` (a board chosen by hand: tests, puzzles).
    """

    def __init__(self, rules: RuleSet, seed: int, *, record: bool = True,
                 noise: list[tuple[int, int]] | None = None) -> None:
        if not isinstance(rules, RuleSet) or rules.family is not Family.PLANAR:
            raise InvalidRuleSet("PlanarGame plays rule sets of the planar family")
        if rules.modulus is None or rules.error_rate is None:  # pragma: no cover - validated
            raise InvalidRuleSet("a planar rule set needs its modulus and error rate")
        self.rules = rules
        self.seed = seed
        self.size = rules.size
        self.modulus = rules.modulus
        if noise is None:
            noise = draw_noise(size=rules.size, modulus=rules.modulus,
                               rate=rules.error_rate, seed=seed)
        else:
            noise = _checked_noise(noise, edges=lattice(rules.size).edges,
                                   modulus=rules.modulus)
        self.noise = noise
        self._values = [0] * (rules.size * rules.size)
        # _crossings[k]: net charge carried rightwards across cut k, mod d.
        self._crossings = [0] * (rules.size + 1)
        apply_noise(self._values, self._crossings, self.noise, size=rules.size,
                    modulus=rules.modulus)
        self._numbers = sum(1 for v in self._values if v)
        self.moves_made = 0
        self._record = record
        self.moves: list[PlanarMove] = []

    # -- what the player sees ---------------------------------------------------

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(self._values)

    def value(self, row: int, col: int) -> int:
        return self._values[row * self.size + col]

    @property
    def numbers(self) -> int:
        return self._numbers

    @property
    def over(self) -> bool:
        return self._numbers == 0

    @property
    def charge(self) -> int | None:
        """The charge carried across the left side, mod d, once the board is clean."""
        return self._crossings[0] if self._numbers == 0 else None

    @property
    def failed(self) -> bool | None:
        """A logical error (the charge is not 0), once the board is clean; else ``None``."""
        charge = self.charge
        return None if charge is None else charge != 0

    def cut_charges(self) -> tuple[int, ...] | None:
        """The charge across every cut 0 .. L once the board is clean (all equal)."""
        return tuple(self._crossings) if self._numbers == 0 else None

    # -- moves --------------------------------------------------------------------

    def check_move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> None:
        size = self.size
        for name, value in (("from_row", from_row), ("from_col", from_col),
                            ("to_row", to_row), ("to_col", to_col)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove(f"{name} must be an integer")
        if self.over:
            raise IllegalMove("the game is over: the board is clean")
        if not (0 <= from_row < size and 0 <= from_col < size):
            raise IllegalMove(f"({from_row}, {from_col}) is not on the {size} x {size} board")
        if not (0 <= to_row < size and -1 <= to_col <= size):
            raise IllegalMove(f"({to_row}, {to_col}) is neither a cell nor a side of the board")
        if abs(from_row - to_row) + abs(from_col - to_col) != 1:
            raise IllegalMove("a number moves to a neighbouring cell or off through a side")
        if not self._values[from_row * size + from_col]:
            raise IllegalMove(f"cell ({from_row}, {from_col}) holds no number")

    def move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> PlanarMove:
        """Move the number at (from_row, from_col); ``to_col`` -1 or L moves it off the board."""
        self.check_move(from_row, from_col, to_row, to_col)
        size, modulus, values = self.size, self.modulus, self._values
        src = from_row * size + from_col
        moved = values[src]
        values[src] = 0
        if 0 <= to_col < size:
            dst = to_row * size + to_col
            before = values[dst]
            after = (before + moved) % modulus
            values[dst] = after
            if before:  # two numbers became one, or annihilated
                self._numbers -= 1 if after else 2
            off_board = False
        else:
            before = after = 0
            self._numbers -= 1
            off_board = True
        if to_row == from_row:
            # Rightwards across the cut left of the destination's column, or leftwards
            # across the cut left of the source's.
            if to_col > from_col:
                self._crossings[to_col] = (self._crossings[to_col] + moved) % modulus
            else:
                self._crossings[from_col] = (self._crossings[from_col] - moved) % modulus
        self.moves_made += 1
        played = PlanarMove(from_row, from_col, to_row, to_col, moved, before, after, off_board)
        if self._record:
            self.moves.append(played)
        return played


def edge_move(size: int, edge: int, source: int) -> tuple[int, int, int, int]:
    """The move along ``edge`` carrying the number at cell ``source`` to the edge's other end."""
    geometry = lattice(size)
    a, b = geometry.first[edge], geometry.second[edge]
    target = b if a == source else a
    row, col = divmod(source, size)
    if target == OUTSIDE:
        return (row, col, row, -1 if geometry.cut[edge] == 0 else size)
    return (row, col, *divmod(target, size))


def _checked_noise(noise: list[tuple[int, int]], *, edges: int,
                   modulus: int) -> list[tuple[int, int]]:
    checked = []
    for item in noise:
        edge, a = item
        if (isinstance(edge, bool) or not isinstance(edge, int) or not 0 <= edge < edges
                or isinstance(a, bool) or not isinstance(a, int) or not 0 < a < modulus):
            raise InvalidRuleSet(f"noise {item!r}: an edge 0..{edges - 1} and a value "
                                 f"1..{modulus - 1}")
        checked.append((edge, a))
    return checked
