"""Statistics for the analysis of recorded games (standard library only).

- ``intervals``: Wilson intervals for proportions, the percentile bootstrap.
- ``survival``: Kaplan-Meier curves, the hazard per round and its late
  plateau (the logical error rate per round), lifetime summaries.
- ``threshold``: the noise budget at which a decoder's lifetime stops
  growing with the board size.
"""

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
    "HazardPlateau",
    "HazardRow",
    "KMRow",
    "LifetimeSummary",
    "SlopeFit",
    "ThresholdEstimate",
    "ThresholdPoint",
    "bootstrap_ci",
    "bootstrap_many",
    "estimate_threshold",
    "hazard_per_round",
    "hazard_plateau",
    "kaplan_meier",
    "lifetime_summary",
    "quantile",
    "wilson_interval",
    "z_for",
]
