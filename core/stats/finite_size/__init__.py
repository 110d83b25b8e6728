"""The threshold from failure probabilities, by two methods side by side (numpy only).

The data are points ``(L, p, failures, trials)``: for a one-shot family the
shots that failed out of the shots that finished; for a sustained family the
losses out of the game-rounds at risk of the hazard plateau (each game-round
a Bernoulli trial, as in the plateau's Wilson interval). Below the threshold
a bigger board fails less often, above it more often, so the curves of
failure against ``p`` for different L cross at the threshold ``p_th``.

- ``crossing``: method 1, the crossings of adjacent-L curves (a weighted
  parabola through each pair's bracket), combined with inverse-variance
  weights.
- ``scaling``: method 2, a finite-size-scaling fit of all points, with a
  correction-to-scaling term from four sizes on.
- ``bootstrap``: the empirical logits and percentile intervals that both
  methods' parametric bootstraps share.
- ``records``: the points (``RatePoint``) and the results
  (``ThresholdReport`` and its parts).
- ``report``: ``threshold_from_rates``, which runs both methods on the same
  resamples, picks the headline and words the message.
"""

from .bootstrap import empirical_logit, logit_variance
from .crossing import COMBINE, LOCAL_FITS, pair_weights, pairs_drift
from .records import (
    CrossingEstimate,
    ExcludedPoint,
    Headline,
    PairCrossing,
    RatePoint,
    ScalingFit,
    ThresholdReport,
)
from .report import threshold_from_rates
from .scaling import CORRECTION_OMEGA, CORRECTION_SIZES, GRID, MU_RANGE, REFINE, REFINEMENTS

__all__ = [
    "COMBINE",
    "CORRECTION_OMEGA",
    "CORRECTION_SIZES",
    "GRID",
    "LOCAL_FITS",
    "MU_RANGE",
    "REFINE",
    "REFINEMENTS",
    "CrossingEstimate",
    "ExcludedPoint",
    "Headline",
    "PairCrossing",
    "RatePoint",
    "ScalingFit",
    "ThresholdReport",
    "empirical_logit",
    "logit_variance",
    "pair_weights",
    "pairs_drift",
    "threshold_from_rates",
]
