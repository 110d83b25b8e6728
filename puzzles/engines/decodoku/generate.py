"""Generated Decodoku puzzles: the planar family's noise on a closed board, from a seed.

Pure Python, no Django. A generated puzzle is a pure function of (seed, noise
rate, board size, ``GENERATOR_VERSION``), and its true corner values are
known, so a solver's answer (or a player's) can be scored as right or wrong.

The noise is the planar family's (``games.engine.planar.draw_noise`` with
modulus 10, the rules in ``docs/rules.md``, "The planar family"): each edge
of the planar lattice independently has an error with probability ``p``,
with a value ``a`` drawn uniformly from 1 to 9 that adds ``+a`` to the edge's
upper or left cell and ``-a`` to the other, mod 10. The puzzle's board is
closed on all four sides, so only the lattice's inside edges (the puzzle's
links, 2L(L - 1) of them) are kept; the errors drawn on the 2L side edges
are dropped. What is left is independent per-link noise of rate ``p`` with
uniform non-zero values: the same distribution as the one-shot family's
noise round, from a function that draws a whole board at once and needs no
game. Every sum of the board, the corners included, is 0 mod 10 by
construction (each error adds ``a`` and ``-a``).

The corners are the top-left and bottom-right cells, hidden from the player;
their values after the noise are the puzzle's true corners.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.planar import OUTSIDE, draw_noise, lattice
from puzzles.engines.decodoku.board import MODULUS, SIZE, Board, DecodokuError, geometry

GENERATOR_VERSION = 1
STORED_FILE = Path(__file__).resolve().parents[2] / "data" / "decodoku_generated.json"
MIN_GENERATED_SIZE = 3
MAX_GENERATED_SIZE = 16


@dataclass(frozen=True, slots=True)
class NoisyBoard:
    """A board drawn from a seed: its cells (true corners recorded) and the noise that made it.

    Not yet a puzzle of the platform: :func:`puzzles.engines.decodoku.platform.generate`
    solves it and returns the :class:`~puzzles.engines.base.Generated` every kind returns.

    ``noise``: ``(link, a)`` for every link with an error, in link order
    (``+a`` went to the link's upper or left cell). The noise is itself an
    explanation of the board (its links, grouped), so it bounds the minimum.
    """

    seed: int
    rate: float
    size: int
    board: Board
    noise: tuple[tuple[int, int], ...]

    @property
    def noise_links(self) -> frozenset[int]:
        return frozenset(link for link, _ in self.noise)

    @property
    def corners(self) -> tuple[int, int]:
        """The true (top-left, bottom-right) values: what the noise left there."""
        corners = self.board.corners
        if corners is None:  # pragma: no cover - generate() always records them
            raise DecodokuError("a generated board records its corners")
        return corners

    def as_dict(self) -> dict[str, Any]:
        """The command's and the stored file's JSON: the grid hides the corners."""
        return {
            "seed": self.seed,
            "rate": self.rate,
            "size": self.size,
            "generator_version": GENERATOR_VERSION,
            "grid": self.board.grid(),
            "corners": list(self.corners),
            "noise_links": len(self.noise),
        }


def generate(*, seed: int, rate: float, size: int = SIZE) -> NoisyBoard:
    """The puzzle of a seed at noise rate ``rate`` (per link) on a ``size x size`` board."""
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or not (MIN_GENERATED_SIZE <= size <= MAX_GENERATED_SIZE)
    ):
        raise DecodokuError(
            f"generated boards are {MIN_GENERATED_SIZE} to {MAX_GENERATED_SIZE} cells wide"
        )
    if isinstance(rate, bool) or not isinstance(rate, float | int) or not 0 < rate <= 1:
        raise DecodokuError("the noise rate is a probability above 0 and at most 1")
    try:
        drawn = draw_noise(size=size, modulus=MODULUS, rate=float(rate), seed=seed)
    except ValueError as exc:
        raise DecodokuError(str(exc)) from None
    planar = lattice(size)
    geo = geometry(size, size)
    cells = [0] * geo.cells
    noise: list[tuple[int, int]] = []
    for edge, a in drawn:
        upper, lower = planar.first[edge], planar.second[edge]
        if upper == OUTSIDE or lower == OUTSIDE:
            continue  # a side edge of the planar lattice: not a link of the closed board
        cells[upper] = (cells[upper] + a) % MODULUS
        cells[lower] = (cells[lower] - a) % MODULUS
        noise.append((geo.link(upper, lower), a))
    tl, br = geo.corners
    corners = (cells[tl], cells[br])
    cells[tl] = cells[br] = 0
    board = Board(geo, tuple(cells), corners)
    return NoisyBoard(seed, float(rate), size, board, tuple(sorted(noise)))


def stored(path: Path = STORED_FILE) -> list[dict[str, Any]]:
    """The generated puzzles kept in the data file (seed, rate, size, grid, true corners).

    Each entry is what :meth:`NoisyBoard.as_dict` gave when the file was
    written; regenerating it from its seed must give the same entry (the
    tests check this, so a change of the noise or of the generator shows).
    """
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DecodokuError(f"{path}: cannot be read as JSON ({exc})") from None
    entries = document.get("puzzles") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise DecodokuError(f"{path}: no list of puzzles")
    return [dict(e) for e in entries]
