"""What the statistics keep of one shot of a threshold family."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """One shot, as the statistics see it.

    ``failed``: one_shot, a group spanned before the board was clean;
    sustained, the game was lost; planar, a logical error (the board was
    cleaned with a charge across the sides) or the move cap stopped it.
    ``rounds``: noise rounds the decoder faced: 1 for one_shot; for a lost
    sustained game the round in which it was lost, counted from 1 (so
    ``rounds - 1`` rounds were survived); for a censored one ``max_rounds``
    (all survived). Failures over the sum of ``rounds`` is the hazard per
    round's estimate.
    ``moves``: moves the bot made.
    ``censored``: sustained, ``max_rounds`` rounds went by without a loss;
    one_shot and planar, the bot had not finished after ``max_rounds * L * L``
    moves (a safety stop that the shipped bots do not reach; a censored planar
    shot also counts as failed).
    """

    failed: bool
    rounds: int
    moves: int
    censored: bool
