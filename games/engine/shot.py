"""What the statistics keep of one shot: a sweep's game, of any family, played by a bot."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotOutcome:
    """One shot, as the statistics (and a sweep's ``SweepGame`` row) see it.

    A shot of the original game is a budget game played until it is lost or
    has survived ``max_rounds`` rounds; a shot of a threshold family is one
    game of that family (``families.play_shot`` plays both).

    ``seed``: the seed it was played with (it replays from it).
    ``failed``: the original game and sustained, the game was lost; one_shot,
    a group spanned before the board was clean; planar, a logical error (the
    board was cleaned with a charge across the sides) or the move cap stopped
    it. Stored as ``SweepGame.lost``.
    ``rounds``: noise rounds the player faced: 1 for one_shot and planar; for
    a lost game the round in which it was lost, counted from 1 (so
    ``rounds - 1`` rounds were survived); for a censored one ``max_rounds``
    (all survived). Failures over the sum of ``rounds`` is the hazard per
    round's estimate.
    ``moves``: moves the player made.
    ``score``: the original game's score (its clock ``t``, which counts the
    moves skipped on an empty board too); a threshold family's shot has no
    score of its own and keeps its ``moves`` there.
    ``censored``: the original game and sustained, ``max_rounds`` rounds went
    by without a loss; one_shot and planar, the player had not finished after
    ``max_rounds * L * L`` moves (a safety stop that the shipped bots do not
    reach; a censored planar shot also counts as failed).
    """

    seed: int
    failed: bool
    rounds: int
    moves: int
    score: int
    censored: bool
