"""What every puzzle kind shares: a generated puzzle, an action refused, and what an action did.

Each kind's generator (the ``generate`` its registry entry names) returns a
:class:`Generated`; each kind's play module (``latin_play``, ``twomino_play``,
``decodoku.play``) raises :class:`ActionRejected` for an action that does not
fit the current state and returns an :class:`Outcome`. The services store and
record them the same way whatever the kind (``puzzles.services``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from puzzles.engines.latin import PuzzleError

PuzzleT = TypeVar("PuzzleT")
RatingT = TypeVar("RatingT")


@dataclass
class Generated(Generic[PuzzleT, RatingT]):
    """A puzzle made from a seed, with what is needed to check it and to store it.

    ``difficulty`` is the kind's own rating of it, made while generating: the
    solver's :class:`~puzzles.engines.solver.Difficulty` for the Latin-square
    kinds, the noise rate per link for Decodoku (its level is that rate), None
    for 2mino (rated when stored, ``PuzzleKind.rate``). ``describe`` is the
    kind's JSON of it (:meth:`to_dict`): what ``manage.py puzzle generate``
    prints and what the services store, whose keys and their order differ by
    kind.
    """

    puzzle: PuzzleT
    seed: int
    solution: Any
    difficulty: RatingT
    engine_version: int
    describe: Callable[[Generated[PuzzleT, RatingT]], dict[str, Any]] = field(
        repr=False, compare=False
    )

    def to_dict(self) -> dict[str, Any]:
        return self.describe(self)


class ActionRejected(PuzzleError):
    """The action cannot be applied to the current state (a given cell, a locked bar, a
    link drawn twice, an answer too early): the player's mistake, not a malformed request."""


@dataclass
class Outcome:
    """What an action did: the new state, what the player is told, the entry's technique
    tag (kinds that tag entries), and whether an answer was correct (None: no answer)."""

    state: dict[str, Any]
    result: dict[str, Any] = field(default_factory=dict)
    technique: str = ""
    correct: bool | None = None
