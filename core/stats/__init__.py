"""Statistics for the analysis of recorded games (pure: no Django).

- ``intervals``: Wilson intervals for proportions, the percentile bootstrap.
- ``survival``: Kaplan-Meier curves, the hazard per round and its late
  plateau (the game's loss rate per round), lifetime summaries.
- ``threshold``: the noise budget at which a decoder's lifetime stops
  growing with the board size (budget sweeps of the original game).
- ``finite_size``: the threshold error rate from failure probabilities per
  (L, p), by crossings of adjacent-L curves and a finite-size-scaling fit,
  with bootstrap intervals (numpy).
- ``choice``: the conditional logit of which move a player makes among a
  board's legal moves, cluster-robust intervals by player, grouped K-fold
  scores of the model and of bots (numpy).
- ``means``: the mean of a few bounded values (one per board) with its
  Student t 95% interval (scipy).
"""

from .finite_size import (
    CrossingEstimate,
    ExcludedPoint,
    Headline,
    PairCrossing,
    RatePoint,
    ScalingFit,
    ThresholdReport,
    threshold_from_rates,
)
from .intervals import BootstrapCI, bootstrap_ci, bootstrap_many, quantile, wilson_interval, z_for
from .survival import (
    HazardPlateau,
    HazardRow,
    KMRow,
    LifetimeSummary,
    hazard_per_round,
    hazard_plateau,
    kaplan_meier,
    lifetime_summary,
)
from .threshold import SlopeFit, ThresholdEstimate, ThresholdPoint, estimate_threshold

__all__ = [
    "BootstrapCI",
    "CrossingEstimate",
    "ExcludedPoint",
    "HazardPlateau",
    "HazardRow",
    "Headline",
    "KMRow",
    "LifetimeSummary",
    "PairCrossing",
    "RatePoint",
    "ScalingFit",
    "SlopeFit",
    "ThresholdEstimate",
    "ThresholdPoint",
    "ThresholdReport",
    "bootstrap_ci",
    "bootstrap_many",
    "estimate_threshold",
    "hazard_per_round",
    "hazard_plateau",
    "kaplan_meier",
    "lifetime_summary",
    "quantile",
    "threshold_from_rates",
    "wilson_interval",
    "z_for",
]
