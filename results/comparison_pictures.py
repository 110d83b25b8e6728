"""Pictures of two corrections of one planar board: the person's and a decoder's.

A read for the page ``/compare/<game>/``: for each decoder that played the
person's board, the board's first charges and the two net corrections
(``results.analysis.corrections.net_chain``), laid out as line segments in
the coordinates of an SVG picture that the template draws. Cell (row, col)
sits at ((col + 1) u, (row + 1) u) with u = ``UNIT``; the board's left and
right sides (where charge may leave) are the lines x = u/2 and x = (L + 1/2) u,
and an edge through a side runs from the cell to just beyond it. The
person's edges are drawn a little above or left of the edge's line, the
decoder's a little below or right, so that an edge both used shows both.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from games.engine.planar import OUTSIDE, lattice
from games.models import Game
from games.services.odds import game_first_board
from results.comparison import GameRow
from results.services.comparison import game_chain

UNIT = 10
OFFSET = 1.6  # how far each correction's line sits from the edge's line


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    value: int  # the net charge carried along the edge (mod d), first end to second


@dataclass(frozen=True, slots=True)
class Charge:
    x: float
    y: float
    value: int


@dataclass
class CorrectionPicture:
    """The person's and one decoder's corrections of one board."""

    decoder: str
    bot_game_id: uuid.UUID
    size: int
    modulus: int
    charges: list[Charge] = field(default_factory=list)
    person: list[Segment] = field(default_factory=list)
    bot: list[Segment] = field(default_factory=list)
    differing: int = 0  # edges where the two net corrections differ

    @property
    def extent(self) -> int:
        """The width and height of the picture, in its own units."""
        return UNIT * (self.size + 1)

    @property
    def span(self) -> int:
        """The board's width and height: its sides run from u/2 to (L + 1/2) u."""
        return UNIT * self.size

    @property
    def side_right(self) -> int:
        return UNIT * self.size + UNIT // 2

    @property
    def side_bottom(self) -> int:
        return UNIT * self.size + UNIT // 2

    @property
    def cells(self) -> list[tuple[int, int]]:
        return [(UNIT * (col + 1), UNIT * (row + 1))
                for row in range(self.size) for col in range(self.size)]

    @property
    def description(self) -> str:
        def count(edges: list[Segment]) -> str:
            return f"{len(edges)} edge{'s' if len(edges) != 1 else ''}"

        same = "the same edges" if not self.differing else (
            f"they differ on {self.differing} edge{'s' if self.differing != 1 else ''}")
        return (f"The {self.size} by {self.size} board with its {len(self.charges)} charged "
                f"cell{'s' if len(self.charges) != 1 else ''} at the start; the person's "
                f"correction, {count(self.person)} (solid blue), and {self.decoder}'s, "
                f"{count(self.bot)} (dashed orange): {same}.")


def _centre(size: int, cell: int) -> tuple[float, float]:
    row, col = divmod(cell, size)
    return float(UNIT * (col + 1)), float(UNIT * (row + 1))


def _segments(size: int, chain: tuple[int, ...], shift: float) -> list[Segment]:
    geometry = lattice(size)
    segments = []
    for edge, value in enumerate(chain):
        if not value:
            continue
        first, second = geometry.first[edge], geometry.second[edge]
        if first == OUTSIDE:  # through the left side
            x2, y2 = _centre(size, second)
            x1, y1 = 0.0, y2
        elif second == OUTSIDE:  # through the right side
            x1, y1 = _centre(size, first)
            x2, y2 = float(UNIT * (size + 1)), y1
        else:
            x1, y1 = _centre(size, first)
            x2, y2 = _centre(size, second)
        if y1 == y2:  # a horizontal edge: shift up or down
            y1 += shift
            y2 += shift
        else:  # a vertical edge: shift left or right
            x1 += shift
            x2 += shift
        segments.append(Segment(x1, y1, x2, y2, value))
    return segments


def correction_pictures(*, row: GameRow) -> list[CorrectionPicture]:
    """One picture per decoder that played ``row``'s board: its correction beside the person's.

    Empty while the seed is withheld (the picture would show that day's noise).
    """
    if row.seed is None:
        return []
    game = Game.objects.get(pk=row.game_id)
    first = game_first_board(game=game)
    if first is None:
        return []
    size, modulus = game.size, game.modulus or 0
    charges = [Charge(*_centre(size, cell), value)
               for cell, value in enumerate(first.values) if value]
    person_chain = game_chain(game=game)
    bots = {bot.pk: bot for bot in Game.objects.filter(pk__in=[b.bot_game_id for b in row.bots])}
    pictures = []
    for outcome in row.bots:
        bot_chain = game_chain(game=bots[outcome.bot_game_id])
        pictures.append(CorrectionPicture(
            decoder=outcome.decoder,
            bot_game_id=outcome.bot_game_id,
            size=size,
            modulus=modulus,
            charges=charges,
            person=_segments(size, person_chain, -OFFSET),
            bot=_segments(size, bot_chain, OFFSET),
            differing=sum(a != b for a, b in zip(person_chain, bot_chain, strict=True)),
        ))
    return pictures
