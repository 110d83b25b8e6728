"""Reading a game out of a legacy save: the moves between boards, and every rule check.

A save holds only boards. Between two consecutive steps ``t-1`` and ``t``:

* when ``t`` is not a multiple of the round length (5), exactly one legal move
  must turn the first board into the second, group ids included;
* when it is, the move was followed by a noise round, which is not recorded:
  the move is inferred as the legal move that leaves the fewest cells for the
  noise to have changed, among the moves whose outcome is consistent with the
  next board (the board after the move must not span, since the loss check
  runs before the noise, and no group id it removed may come back). That is
  a best guess, reported as ambiguous whenever another move would also fit;
* the last step is the end of the game: one move whose board spans;
* a gap in ``t`` is either the clock jumping to the next round after the
  board emptied (checked: the board before could be emptied by one move, or
  by the noise of a round, and every group after is new), or steps missing
  from the record (reported; the record is then only partially observed).

Moves are replayed with the engine itself (``Game.from_state`` + ``move``),
so group bookkeeping, merges and the loss check are the engine's. Only the
clock is left to this module, because the save says what followed the move.

Group ids are checked as far as a board sequence allows: every group sums
to 0 mod 10 (for Phi-Lambda, what can be seen of that: a group cannot hold a
single Phi and otherwise only Lambdas, nor an odd number of Lambdas alone),
a move never creates an id, an id that has disappeared never comes back,
ids made by noise are larger than every id seen before, and the ids one
round makes lie within ceil(budget) consecutive numbers (only an error of
weight 1 on two empty cells makes a group).

Which id survives a merge by a move is only a label (the iOS app kept the
destination's, the later apps the moved number's). The first merge that
shows it fixes the convention of the file; every later merge must agree.

Phi-Lambda saves hide the values (Phi is any number but 5, Lambda is 5), so
they are checked as far as symbols allow and reported as partially observed.

The parts: ``report`` (reason codes, ``Violation``, ``InferredMove``,
``Analysis``), ``boards`` (a step's board, a move played on it by the
engine), ``checks`` (the checks on one board and on the ids that appear on
it), ``inference`` (which move turned one board into the next) and ``walk``
(the steps in order, each change told apart and recorded). This module
holds the entry point, ``analyse``, and the rules a save's header declares.
"""

from __future__ import annotations

import re

from ...errors import EngineError
from ..errors import Deadline
from ..model import PHI_LAMBDA, Z10, LegacySave
from .report import REASONS, Analysis, InferredMove, Violation
from .walk import Analyser

MOVES_PER_ROUND = 5
NOISE_BUDGET = 6.0


def declared_rules(save: LegacySave) -> tuple[int | None, float | None]:
    """(moves per round, noise budget) named in the header ``game_to_save`` writes, if any."""
    for raw in save.header:
        match = _DECLARED.match(raw.text)
        if match:
            return int(match.group(2)), float(match.group(1))
    return None, None


_DECLARED = re.compile(
    r",,,,Decodoku Lab engine \d+,[a-z0-9_]+-L\d+-b([0-9.e+]+)-m\d+-[a-z]+,"
    r"seed \d+,moves per round (\d+),"
)


def analyse(
    save: LegacySave,
    *,
    moves_per_round: int | None = None,
    noise_budget: float | None = None,
    stop_at_first: bool = False,
    deadline: float | Deadline | None = None,
) -> Analysis:
    """Infer the moves of a save and check it against the rules (see the module doc).

    ``moves_per_round`` and ``noise_budget`` default to those declared in a
    header written by ``game_to_save``, else to the original game's 5 and 6.
    With ``stop_at_first`` the walk ends at the first violation (``moves``
    then stops there too); otherwise every step gets an inferred move.
    ``deadline`` (a ``Deadline``, or a ``time.monotonic()`` value): past it,
    ``LegacyTimeout``.
    """
    declared_moves, declared_budget = declared_rules(save)
    if moves_per_round is None:
        moves_per_round = declared_moves or MOVES_PER_ROUND
    if noise_budget is None:
        noise_budget = declared_budget or NOISE_BUDGET
    if not save.steps:
        raise EngineError("the save holds no step", code="legacy_empty")
    if moves_per_round < 1:
        raise EngineError("moves_per_round must be at least 1", code="invalid_rule_set")
    if not noise_budget > 0:
        raise EngineError("noise_budget must be positive", code="invalid_rule_set")
    return Analyser(save, moves_per_round, noise_budget, stop_at_first, deadline).run()


__all__ = [
    "MOVES_PER_ROUND",
    "PHI_LAMBDA",
    "REASONS",
    "Z10",
    "Analysis",
    "InferredMove",
    "Violation",
    "analyse",
    "declared_rules",
]

