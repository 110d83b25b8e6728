"""Which move a player makes: a conditional logit over the legal moves of each board.

McFadden's choice model. Each board ``b`` offers alternatives ``a`` (its
legal moves) with feature vectors ``x_a``; the model gives

    P(a | b) = exp(w . x_a) / sum over the alternatives c of b of exp(w . x_c).

- ``data``: the boards, their alternatives and the chosen ones
  (``ChoiceData``), and the weights that cap a player's total.
- ``likelihood``: the likelihood, its fit by Newton's method and the
  cluster-robust intervals of the weights.
- ``prediction``: held-out players: grouped folds, cross-validated scores of
  the model and of bots, calibration.
- ``cohorts``: whether cohorts of boards weigh the features differently
  (likelihood ratio, clustered Wald and permutation tests).

Pure: numpy and scipy, no Django.
"""

from .cohorts import CohortComparison, compare_cohorts
from .data import ChoiceData, cap_weights, choice_data
from .likelihood import (
    ChoiceFit,
    chosen_probabilities,
    fit_choice,
    independent_features,
    only_features,
    probabilities,
    varying_features,
)
from .prediction import (
    CalibrationRow,
    CrossValidation,
    Estimate,
    Scores,
    calibration,
    cross_validate,
    fit_temperature,
    grouped_folds,
    score_predictions,
)

MODEL_VERSION = 1
"""Bump whenever a change to the fit or the scores could change a stored result."""

__all__ = [
    "MODEL_VERSION",
    "CalibrationRow",
    "ChoiceData",
    "ChoiceFit",
    "CohortComparison",
    "CrossValidation",
    "Estimate",
    "Scores",
    "calibration",
    "cap_weights",
    "choice_data",
    "chosen_probabilities",
    "compare_cohorts",
    "cross_validate",
    "fit_choice",
    "fit_temperature",
    "grouped_folds",
    "independent_features",
    "only_features",
    "probabilities",
    "score_predictions",
    "varying_features",
]
