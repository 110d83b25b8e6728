"""The decoder people make: moves scored with the weights of a fitted strategy model.

The ``learned`` bot scores every legal move with the features of
``games.engine.strategy.move_features``, as the ``player`` bot does, but its
weights are not set by hand: they are the coefficients of a fit of the
strategy model to people's moves (``core.stats.choice``, stored as a
``StrategyFit``). A feature the fit left out (one the moves could not tell
apart) weighs 0. The highest score wins; ties go to the seeded generator, in
the order of the legal moves, as for every bot.

The bot's version is the fit's id: a game recorded with version N replays
with the weights of fit N. The weights come from outside the engine (the
engine knows no database): ``LearnedWeights`` carries them with the fit id,
and ``learned_bot(weights)`` is the bot class playing with them.

An annihilation is two legal moves (either number onto the other) that leave
the same board. Their positional features differ, so their scores usually
do too; either way the choice is a pure function of (fit, seed, board).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..rng import SplitMix64
from ..strategy.features import FEATURE_NAMES, FEATURE_SET_VERSION, move_features
from .base import Bot, Scored
from .board import Geometry
from .player import weighted_scorer

MAX_FIT_ID = 32767
"""The largest fit id a version can carry (sweep points store versions as small integers)."""


class LearnedWeightsError(ValueError):
    """Weights the learned bot cannot play with; the message says why."""


@dataclass(frozen=True, slots=True)
class LearnedWeights:
    """The weights of one stored fit: one per feature of ``FEATURE_NAMES``, 0 where unfitted."""

    fit_id: int
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        fit_id = self.fit_id
        if isinstance(fit_id, bool) or not isinstance(fit_id, int) or not 1 <= fit_id <= MAX_FIT_ID:
            raise LearnedWeightsError(
                f"a fit id must be an integer from 1 to {MAX_FIT_ID}, got {fit_id!r}"
            )
        if len(self.values) != len(FEATURE_NAMES):
            raise LearnedWeightsError(
                f"{len(self.values)} weights for {len(FEATURE_NAMES)} features"
            )
        for name, value in zip(FEATURE_NAMES, self.values, strict=True):
            if isinstance(value, bool) or not isinstance(value, float) or not math.isfinite(value):
                raise LearnedWeightsError(f"the weight of {name} is not a finite number: {value!r}")

    @classmethod
    def of(cls, *, fit_id: int, coefficients: Mapping[str, float],
           feature_set_version: int) -> LearnedWeights:
        """The weights of fit ``fit_id`` from its coefficients by feature name.

        The fit must be of this engine's feature set: a fit of features
        computed otherwise would not play the moves its games recorded.
        """
        if feature_set_version != FEATURE_SET_VERSION:
            raise LearnedWeightsError(
                f"fit {fit_id} is of feature set {feature_set_version}; this engine computes "
                f"feature set {FEATURE_SET_VERSION}"
            )
        unknown = sorted(set(coefficients) - set(FEATURE_NAMES))
        if unknown:
            raise LearnedWeightsError(f"fit {fit_id} weighs unknown features: {', '.join(unknown)}")
        values = []
        for name in FEATURE_NAMES:
            value = coefficients.get(name, 0.0)
            if isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            values.append(value)
        return cls(fit_id=fit_id, values=tuple(values))


class LearnedBot(Bot):
    """The base of every ``learned_bot(weights)`` class; it has no weights of its own."""

    name = "learned"
    version = 0
    weights: LearnedWeights | None = None

    def score(self, seen: tuple[int, ...], geo: Geometry, rng: SplitMix64) -> Scored:
        if self.weights is None:
            raise LearnedWeightsError("the learned bot needs the weights of a stored fit")
        score = _scorer(self.weights)
        features = move_features(seen, geo)
        tiebreak = rng.next64
        return [((-score(row),), tiebreak(), move)
                for move, row in zip(features.moves, features.rows, strict=True)]


@lru_cache(maxsize=64)
def _scorer(weights: LearnedWeights) -> Callable[[tuple[float, ...]], float]:
    # The same arithmetic as the player bot's score, term for term: with the
    # player's weights, the learned bot plays the player's moves to the bit.
    return weighted_scorer(weights.values)


@lru_cache(maxsize=64)
def learned_bot(weights: LearnedWeights) -> type[LearnedBot]:
    """The learned bot playing with ``weights``: its version is their fit id."""
    return type(f"LearnedBot{weights.fit_id}", (LearnedBot,),
                {"version": weights.fit_id, "weights": weights})
