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

Events (``record=True``; ``docs/engine.md``, "Planar games"): the engine's
own kinds, so that a planar game is stored, exported and checked like any
other. The noise round is ``round_start``, one ``noise`` per error in edge
order and ``round_end``, all at t = 0 and round 1. A noise error's first cell
is the edge's upper or left end and gets ``a``; the second gets
``aa = d - a``. The outside end of a side edge is written as column -1 (left
side) or L (right side) of the same row, with values 0 before and after (it
is not tracked); its ``case`` is ``side``, else the game's cases by the
values before (``new_pair``, ``one_new``, ``both_occupied``). Planar noise
has no budget: every error weighs 1, so a round's weight counts its
errors. A ``move`` off the board has ``to_col`` -1 or L and destination
values 0 before and after. The clock ``t`` counts the moves (the only round
is round 1). A planar game has no groups: every group id is 0 and there is
no ``merge``. When the board is clean (after the noise or after a move),
``logical_outcome`` records the charge and whether the game failed; no
event follows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalMove, InvalidRuleSet, InvalidState, UnknownEngineVersion
from ..events import Event, LogicalOutcome, Move, NoiseError, NoiseRoundEnded, NoiseRoundStarted
from ..game import Board
from ..rng import MASK64
from ..rules import RuleSet
from ..version import ENGINE_VERSION, PLANAR_SINCE, SUPPORTED_ENGINE_VERSIONS
from .lattice import OUTSIDE, apply_noise, draw_noise, lattice

# The only noise round of a planar game, and the clock at which it runs.
ROUND = 1
SIDE_CASE = "side"


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


def _checked_version(version: object) -> int:
    if (isinstance(version, bool) or not isinstance(version, int)
            or version not in SUPPORTED_ENGINE_VERSIONS or version < PLANAR_SINCE):
        raise UnknownEngineVersion(f"no engine plays planar games of version {version!r}")
    return version


class PlanarGame:
    """A planar code-capacity game: one noise round, then moves until the board is clean.

    ``record=False`` keeps no events and no list of moves (the shots of a
    sweep). ``noise`` gives the board's errors as ``(edge, a)`` pairs instead
    of drawing them from ``seed`` (a board chosen by hand: tests, puzzles).
    ``engine_version`` is the version the game is recorded with (planar games
    play the same in every version that has them, see ``version.py``).
    """

    def __init__(self, rules: RuleSet, seed: int, *, record: bool = True,
                 noise: list[tuple[int, int]] | None = None,
                 engine_version: int = ENGINE_VERSION) -> None:
        if not isinstance(rules, RuleSet) or rules.kind.grouped:
            raise InvalidRuleSet("PlanarGame plays rule sets of the planar family")
        if rules.modulus is None or rules.error_rate is None:  # pragma: no cover - validated
            raise InvalidRuleSet("a planar rule set needs its modulus and error rate")
        self.engine_version = _checked_version(engine_version)
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
        self._noise: list[tuple[int, int]] | None = noise
        self._values = [0] * (rules.size * rules.size)
        # _crossings[k]: net charge carried rightwards across cut k, mod d.
        self._crossings = [0] * (rules.size + 1)
        self._record = record
        self.events: list[Event] = []
        self.moves: list[PlanarMove] = []
        self.moves_made = 0
        if record:
            self._recorded_noise(noise)
        else:
            apply_noise(self._values, self._crossings, noise, size=rules.size,
                        modulus=rules.modulus)
        self._numbers = sum(1 for v in self._values if v)
        if record:
            self.events.append(NoiseRoundEnded(0, ROUND, len(noise), float(len(noise)),
                                               self._numbers))
            self._record_outcome()

    def _recorded_noise(self, noise: list[tuple[int, int]]) -> None:
        """Apply the errors one at a time, as ``apply_noise`` does, recording each."""
        size, modulus, values, crossings = self.size, self.modulus, self._values, self._crossings
        geometry = lattice(size)
        first, second, cut = geometry.first, geometry.second, geometry.cut
        events = self.events
        events.append(NoiseRoundStarted(0, ROUND))
        for index, (edge, a) in enumerate(noise, start=1):
            upper, lower = first[edge], second[edge]
            if upper == OUTSIDE:
                row1, col1 = lower // size, -1
                v1 = n1 = 0
            else:
                row1, col1 = divmod(upper, size)
                v1 = values[upper]
                n1 = values[upper] = (v1 + a) % modulus
            if lower == OUTSIDE:
                row2, col2 = row1, size
                v2 = n2 = 0
            else:
                row2, col2 = divmod(lower, size)
                v2 = values[lower]
                n2 = values[lower] = (v2 - a) % modulus
            k = cut[edge]
            if k >= 0:
                crossings[k] = (crossings[k] - a) % modulus
            if OUTSIDE in (upper, lower):
                case = SIDE_CASE
            elif not v1 and not v2:
                case = "new_pair"
            elif not v1 or not v2:
                case = "one_new"
            else:
                case = "both_occupied"
            events.append(NoiseError(0, ROUND, index, row1, col1, row2, col2, a, modulus - a,
                                     case, 1.0, float(index), v1, v2, n1, n2, 0, 0, 0, 0))

    def _record_outcome(self) -> None:
        outcome = self.outcome
        if outcome is not None:
            self.events.append(outcome)

    # -- what the player sees ---------------------------------------------------

    @property
    def noise(self) -> list[tuple[int, int]]:
        """The board's errors, ``(edge, a)`` in edge order (drawn again from the seed after
        ``from_state``)."""
        if self._noise is None:
            rate = self.rules.error_rate if self.rules.error_rate is not None else 0.0
            self._noise = draw_noise(size=self.size, modulus=self.modulus, rate=rate,
                                     seed=self.seed)
        return self._noise

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(self._values)

    def value(self, row: int, col: int) -> int:
        return self._values[row * self.size + col]

    def board(self) -> Board:
        """The board as the engine's ``Board``: the values, and group id 0 everywhere."""
        return Board(self.size, tuple(self._values), (0,) * len(self._values))

    @property
    def numbers(self) -> int:
        return self._numbers

    @property
    def t(self) -> int:
        """The clock: the moves made (a planar game has no jumps and no later rounds)."""
        return self.moves_made

    @property
    def round(self) -> int:
        return ROUND

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

    @property
    def outcome(self) -> LogicalOutcome | None:
        """The ``logical_outcome`` event once the board is clean; else ``None``."""
        charge = self.charge
        if charge is None:
            return None
        return LogicalOutcome(self.moves_made, ROUND, charge, charge != 0)

    def cut_charges(self) -> tuple[int, ...] | None:
        """The charge across every cut 0 .. L once the board is clean (all equal)."""
        return tuple(self._crossings) if self._numbers == 0 else None

    def legal_moves(self) -> Iterator[tuple[int, int, int, int]]:
        """Every legal move, numbers in cell order: up, down, left, right (off the board
        through a side from the first or last column)."""
        if self.over:
            return
        size = self.size
        for cell, v in enumerate(self._values):
            if not v:
                continue
            row, col = divmod(cell, size)
            if row > 0:
                yield (row, col, row - 1, col)
            if row < size - 1:
                yield (row, col, row + 1, col)
            # Left and right are always open: a cell, or off the board through a side.
            yield (row, col, row, col - 1)
            yield (row, col, row, col + 1)

    # -- moves --------------------------------------------------------------------

    def check_move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> None:
        """Raise ``IllegalMove`` unless the move is legal now.

        Codes: ``off_grid`` (a cell that is not on the board, or a destination
        that is neither a cell nor a side), ``closed_side`` (off the board
        through the top or the bottom), ``not_adjacent``, ``empty_source`` and
        ``game_over`` (the board is clean).
        """
        size = self.size
        for name, value in (("from_row", from_row), ("from_col", from_col),
                            ("to_row", to_row), ("to_col", to_col)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove(f"{name} must be an integer", code="off_grid")
        if self.over:
            raise IllegalMove("the game is over: the board is clean", code="game_over")
        if not (0 <= from_row < size and 0 <= from_col < size):
            raise IllegalMove(f"({from_row}, {from_col}) is not on the {size} x {size} board",
                              code="off_grid")
        adjacent = abs(from_row - to_row) + abs(from_col - to_col) == 1
        if not (0 <= to_row < size and -1 <= to_col <= size):
            if adjacent and to_row in (-1, size):
                raise IllegalMove(
                    f"({to_row}, {to_col}) is neither a cell nor a side of the board: numbers "
                    "leave only through the left and right sides (top and bottom are closed)",
                    code="closed_side",
                )
            raise IllegalMove(f"({to_row}, {to_col}) is neither a cell nor a side of the board",
                              code="off_grid")
        if not adjacent:
            raise IllegalMove("a number moves to a neighbouring cell or off through a side",
                              code="not_adjacent")
        if not self._values[from_row * size + from_col]:
            raise IllegalMove(f"cell ({from_row}, {from_col}) holds no number",
                              code="empty_source")

    def move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> PlanarMove:
        """Move the number at (from_row, from_col); ``to_col`` -1 or L moves it off the board.

        With ``record``, the move's events are appended to ``events`` (its
        ``move``, and ``logical_outcome`` when it cleans the board).
        """
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
            index = self.moves_made
            self.events.append(Move(index, ROUND, index, from_row, from_col, to_row, to_col,
                                    moved, before, after, 0, 0, 0, before != 0 and after == 0))
            self._record_outcome()
        return played

    # -- storing and restoring ------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """A compact, JSON-safe snapshot from which play can continue exactly.

        It holds the cuts' charges, which tell the logical outcome: it is the
        server's, never shown to the player.
        """
        return {
            "engine_version": self.engine_version,
            "rules": self.rules.to_dict(),
            "seed": str(self.seed),
            "t": self.moves_made,
            "round": ROUND,
            "moves": self.moves_made,
            "values": "".join(map(str, self._values)),
            "crossings": list(self._crossings),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], *, record: bool = True) -> PlanarGame:
        try:
            return cls._from_state(state, record=record)
        except (KeyError, TypeError, ValueError, AttributeError, InvalidRuleSet) as exc:
            raise InvalidState(f"the stored game state is unreadable: {exc}") from exc

    @classmethod
    def _from_state(cls, state: dict[str, Any], *, record: bool) -> PlanarGame:
        game = cls.__new__(cls)
        try:
            game.engine_version = _checked_version(state["engine_version"])
        except UnknownEngineVersion as exc:
            raise InvalidState(f"state from engine version {state['engine_version']!r}") from exc
        rules = RuleSet.from_dict(state["rules"])
        if rules.kind.grouped or rules.modulus is None:
            raise InvalidState("the state is not a planar game's")
        game.rules, game.size, game.modulus = rules, rules.size, rules.modulus
        game.seed = int(state["seed"])
        if not 0 <= game.seed <= MASK64:
            raise InvalidState("seed out of range")
        game.moves_made = int(state["moves"])
        if game.moves_made < 0 or int(state["t"]) != game.moves_made or state["round"] != ROUND:
            raise InvalidState("the clock, round or move count is out of range")
        text = state["values"]
        crossings = [int(c) for c in state["crossings"]]
        if len(text) != rules.size * rules.size or len(crossings) != rules.size + 1:
            raise InvalidState("board size does not match the rule set")
        values = [int(char) for char in text]
        if not all(0 <= v < rules.modulus for v in values + crossings):
            raise InvalidState(f"values and charges must be 0 to {rules.modulus - 1}")
        game._values, game._crossings = values, crossings
        game._numbers = sum(1 for v in values if v)
        game._noise = None
        game._record = record
        game.events = []
        game.moves = []
        return game


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
