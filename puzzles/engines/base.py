"""What every puzzle kind's play module shares: an action refused, and what an action did.

Each kind's play module (``latin_play``, ``twomino_play``, ``decodoku.play``)
raises :class:`ActionRejected` for an action that does not fit the current
state and returns an :class:`Outcome`; the services record both the same way
whatever the kind (``puzzles.services``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from puzzles.engines.latin import PuzzleError


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
