"""The player-inspired bot: every candidate move scored by features players use.

Players do not see the groups; they guess them from how numbers lie together
and which of them add up to ten. This bot makes the same guess with the
clustering bot's growth (``grow_clusters``) and scores each move (a number and
a direction) by a weighted sum of features:

- whether the move annihilates a pair (surely, or possibly for two Phis);
- whether it fuses two numbers believed to be in the same group, or merges
  two believed groups (which can only make a group larger);
- the step's gain toward the number's partner (its nearest complement,
  preferring one in the same believed group), how far away that partner is,
  and whether the partner is believed to be in the same group;
- the step's gain toward the believed group's centroid, and the group's size;
- how close the believed group is to spanning (its urgency);
- helpful neighbours: numbers next to the destination that would annihilate
  the moved number's new value on the next move;
- leaving the border, where groups touch the edges they must not span.

The features are those of ``games.engine.strategy.move_features`` (one
definition for the bot and for the fitted model of what players do); the
bot's hand-set weights are ``WEIGHTS``, one per feature, zero for the features
it does not use. The best score wins; ties are broken by the seeded generator.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rng import SplitMix64
from ..strategy.features import FEATURE_NAMES, INDEX, move_features
from .base import Bot, Scored
from .board import Geometry

# Removing two numbers at once is the only move that surely undoes noise, so
# it outweighs every combination of the positional features below.
W_ANNIHILATE = 100.0
# Two Phis may annihilate (a Phi's complement is always a Phi): worth trying,
# but after every sure annihilation.
W_ANNIHILATE_PHIS = 40.0
# Fusing two numbers of one believed group leaves one number fewer without
# growing any group.
W_FUSE_SAME_GROUP = 6.0
# Landing on a number of another believed group merges the two real groups if
# the guess is right: the merged group is larger and nearer to spanning.
W_MERGE_GROUPS = -8.0
# Each step toward the partner is a step toward an annihilation.
W_PARTNER_GAIN = 4.0
# Nearer pairs are finished within fewer moves, before the next noise round.
W_PARTNER_DISTANCE = -0.5
# A partner in the same believed group is more likely the true partner.
W_PARTNER_SAME_GROUP = 2.0
# Stepping toward the group's centroid shrinks the group's extent.
W_CENTROID_GAIN = 1.5
# Larger groups hold more of the board and are more likely to span.
W_GROUP_SIZE = 0.3
# Progress on a group near spanning matters most; scaled by urgency in [0, 1].
W_URGENCY = 5.0
# A neighbour that would annihilate the moved number sets up the next move.
W_HELPFUL_NEIGHBOUR = 2.0
# Each cell away from the border, for a number that sits on it.
W_LEAVE_BORDER = 1.0

_HAND_SET = {
    "group_size": W_GROUP_SIZE,
    "sure_annihilation": W_ANNIHILATE,
    "possible_annihilation": W_ANNIHILATE_PHIS,
    "fuse_same_group": W_FUSE_SAME_GROUP,
    "merge_groups": W_MERGE_GROUPS,
    "partner_gain": W_PARTNER_GAIN,
    "partner_distance": W_PARTNER_DISTANCE,
    "partner_same_group": W_PARTNER_SAME_GROUP,
    "centroid_gain": W_CENTROID_GAIN,
    "urgency": W_URGENCY,
    "leave_border": W_LEAVE_BORDER,
    "helpful_neighbours": W_HELPFUL_NEIGHBOUR,
}
WEIGHTS: tuple[float, ...] = tuple(_HAND_SET.get(name, 0.0) for name in FEATURE_NAMES)
"""The bot's weight of every feature of ``FEATURE_NAMES``, in that order."""

_GAIN, _DISTANCE = INDEX["partner_gain"], INDEX["partner_distance"]


def player_score(row: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    """``weights . row``, added up term by term in the order of the features.

    Floating-point addition depends on its order, and ties between moves are
    broken by the generator, so a score must equal version 1's to the bit for
    its games to replay. Version 1 added the partner's two terms as one sum:
    so does this. (A zero weight adds a zero, which changes no sum: skipped.)
    """
    if weights is WEIGHTS:
        before, after = _BEFORE, _AFTER
    else:
        before, after = _terms(weights)
    score = 0.0
    for k, w in before:
        score += w * row[k]
    score += weights[_GAIN] * row[_GAIN] + weights[_DISTANCE] * row[_DISTANCE]
    for k, w in after:
        score += w * row[k]
    return score


def weighted_scorer(weights: tuple[float, ...]) -> Callable[[tuple[float, ...]], float]:
    """``player_score`` with ``weights`` fixed, its terms worked out once for every row."""
    before, after = _terms(weights)
    w_gain, w_distance = weights[_GAIN], weights[_DISTANCE]

    def score(row: tuple[float, ...]) -> float:
        total = 0.0
        for k, w in before:
            total += w * row[k]
        total += w_gain * row[_GAIN] + w_distance * row[_DISTANCE]
        for k, w in after:
            total += w * row[k]
        return total

    return score


def _terms(weights: tuple[float, ...]) -> tuple[tuple[tuple[int, float], ...], ...]:
    """The nonzero weights before the partner's terms and after them, with their columns."""
    before = tuple((k, w) for k, w in enumerate(weights[:_GAIN]) if w)
    after = tuple((k, w) for k, w in enumerate(weights) if k > _DISTANCE and w)
    return before, after


_BEFORE, _AFTER = _terms(WEIGHTS)


class PlayerBot(Bot):
    name = "player"
    version = 1

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        features = move_features(seen, geo)
        tiebreak = rng.next64
        return [((-player_score(row),), tiebreak(), move)
                for move, row in zip(features.moves, features.rows, strict=True)]
