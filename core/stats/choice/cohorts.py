"""Whether cohorts of boards weigh the features differently (``compare_cohorts``).

A likelihood-ratio test that counts every board as independent, with two
that count players as the units: a Wald test of the differences with
covariances clustered by player, and a permutation test that moves whole
players between cohorts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.stats import chi2

from .data import BoolArray, ChoiceData, IntArray
from .likelihood import (
    ChoiceFit,
    _loglik,
    _pieces,
    fit_choice,
    independent_features,
    only_features,
    probabilities,
)


@dataclass(frozen=True)
class CohortComparison:
    """Whether cohorts of boards weigh the features differently (``compare_cohorts``).

    ``fits`` holds one fit per cohort over the ``features`` it can tell apart
    (a feature that never varies in a cohort's boards, such as two Phis
    meeting in Z10 games, has no weight there and no effect on its
    likelihood); ``pooled_loglik`` is one fit of every feature the boards can
    tell apart to all of them. The likelihood-ratio test counts every board as
    independent; the Wald test of the differences uses covariances clustered
    by player, and the permutation test moves whole players (``cells``)
    between cohorts. A test that cannot be made has ``None`` and a ``note``.
    """

    cohorts: tuple[str, ...]
    kept: BoolArray  # the features every cohort fits (those the Wald test compares)
    features: tuple[BoolArray, ...]  # per cohort: the features its fit has
    fits: tuple[ChoiceFit, ...]
    pooled_loglik: float
    lr: float
    df: int
    lr_p: float
    wald: float | None
    wald_p: float | None
    wald_note: str
    permutations: int  # arrangements tried (0: none)
    permutation_exact: bool  # every distinct arrangement was tried
    permutation_p: float | None
    permutation_note: str


def _cohort_loglik(data: ChoiceData, boards: IntArray, prior_sd: float | None) -> float:
    """The log-likelihood of a fit to the boards ``boards`` alone.

    A relabelled cohort may not tell some weights apart: those stay at 0.
    """
    sub = data.subset(boards)
    fitted = independent_features(sub)
    if not np.any(fitted):
        return _loglik(sub, probabilities(sub, np.zeros(sub.features.shape[1])))
    return fit_choice(only_features(sub, fitted), prior_sd=prior_sd).loglik


def _arrangements(labels: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct order of the multiset ``labels``."""
    counts: dict[int, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    found: list[tuple[int, ...]] = []

    def extend(prefix: list[int], left: int) -> None:
        if left == 0:
            found.append(tuple(prefix))
            return
        for label in sorted(counts):
            if counts[label]:
                counts[label] -= 1
                prefix.append(label)
                extend(prefix, left - 1)
                prefix.pop()
                counts[label] += 1

    extend([], len(labels))
    return found


def _arrangement_count(labels: Sequence[int]) -> int:
    total = math.factorial(len(labels))
    for label in set(labels):
        total //= math.factorial(sum(1 for x in labels if x == label))
    return total


def compare_cohorts(data: ChoiceData, cohort_of_board: Sequence[int] | IntArray, *,
                    cohorts: Sequence[str], prior_sd: float | None = None,
                    cells: Sequence[Hashable] | None = None,
                    strata: Sequence[Hashable] | None = None, permutations: int = 0,
                    seed: int = 0) -> CohortComparison:
    """Fit each cohort apart and test whether they weigh the features differently.

    ``cohort_of_board[b]`` is the index (into ``cohorts``) of board ``b``'s
    cohort. The likelihood ratio is 2 (sum of the cohorts' log-likelihoods -
    the pooled log-likelihood), against a chi-square whose degrees of freedom
    are the weights the cohorts' fits have together less the pooled fit's:
    (cohorts - 1) x features when every cohort fits every feature. It takes
    every move as independent,
    and moves of one player are not, so it overstates the evidence. Two tests
    that count players as the units go with it:

    - a Wald test of every difference from the first cohort (of the features
      every cohort fits), with the
      covariance of all cohorts' weights clustered by player (a player with
      boards in several cohorts is one cluster); it needs more players than
      differences;
    - with ``permutations``, a permutation test: the cohort labels of the
      ``cells`` (per board; by default its player, and a cell's boards must
      share a cohort) are shuffled within their ``strata`` (per board;
      constant within a cell) and the likelihood ratio recomputed. When the
      distinct arrangements number at most ``permutations`` each is tried
      once (an exact test); otherwise ``permutations`` random ones, drawn
      with ``seed``.
    """
    labels = np.asarray(cohort_of_board, dtype=np.int64)
    k = len(cohorts)
    if labels.shape != (data.n_boards,):
        raise ValueError("one cohort per board is needed")
    if np.any((labels < 0) | (labels >= k)):
        raise ValueError("a board's cohort is not among the cohorts")
    if k < 2 or any(not np.any(labels == c) for c in range(k)):
        raise ValueError("at least two cohorts, each with boards, are needed")
    pooled_keep = independent_features(data)
    if not np.any(pooled_keep):
        raise ValueError("no feature can be fitted")
    pooled_data = only_features(data, pooled_keep)
    pooled = fit_choice(pooled_data, prior_sd=prior_sd)
    own: list[BoolArray] = []  # per cohort: the pooled features it can tell apart
    fits = []
    for c in range(k):
        sub = pooled_data.subset(np.flatnonzero(labels == c))
        fitted = independent_features(sub)
        if not np.any(fitted):
            raise ValueError(f"no feature varies within the boards of cohort {cohorts[c]}")
        own.append(fitted)
        fits.append(fit_choice(only_features(sub, fitted), prior_sd=prior_sd))
    common = np.logical_and.reduce(own)
    lr = 2.0 * (sum(fit.loglik for fit in fits) - pooled.loglik)
    df = sum(int(fitted.sum()) for fitted in own) - int(pooled_keep.sum())
    lr_p = float(chi2.sf(max(lr, 0.0), df)) if df > 0 else math.nan
    wald, wald_p, wald_note = _wald_differences(pooled_data, labels, fits, own, prior_sd)
    if wald is not None:
        wald_p = float(chi2.sf(wald, (k - 1) * int(common.sum())))
    restricted = pooled_data
    keep = pooled_keep.copy()
    keep[np.flatnonzero(pooled_keep)[~common]] = False
    own_features = []
    for fitted in own:
        mask = np.zeros_like(pooled_keep)
        mask[np.flatnonzero(pooled_keep)[fitted]] = True
        own_features.append(mask)

    tried, exact, permutation_p, permutation_note = 0, False, None, ""
    if permutations > 0:
        cell_keys: list[Hashable] = list(data.players) if cells is None else list(cells)
        stratum_keys: list[Hashable] = [0] * data.n_boards if strata is None else list(strata)
        cell_label: dict[Hashable, int] = {}
        cell_stratum: dict[Hashable, Hashable] = {}
        consistent = True
        for b, cell in enumerate(cell_keys):
            if cell_label.setdefault(cell, int(labels[b])) != labels[b] \
                    or cell_stratum.setdefault(cell, stratum_keys[b]) != stratum_keys[b]:
                consistent = False
                break
        if not consistent:
            permutation_note = "a player's boards are in more than one cohort"
        else:
            order = list(cell_label)
            groups: dict[Hashable, list[int]] = {}
            for position, cell in enumerate(order):
                groups.setdefault(cell_stratum[cell], []).append(position)
            per_stratum = [[cell_label[order[i]] for i in members] for members in groups.values()]
            total = math.prod(_arrangement_count(ls) for ls in per_stratum)
            if total < 2:
                permutation_note = "the cohorts can be arranged among the players in one way only"
            else:
                index_of_cell = {cell: i for i, cell in enumerate(order)}
                board_cell = np.array([index_of_cell[cell] for cell in cell_keys])
                members_list = list(groups.values())

                def ratio(cell_labels: NDArray[np.int64]) -> float:
                    relabelled = cell_labels[board_cell]
                    total_ll = 0.0
                    for c in range(k):
                        boards = np.flatnonzero(relabelled == c)
                        total_ll += _cohort_loglik(restricted, boards, prior_sd)
                    return 2.0 * (total_ll - pooled.loglik)

                def assigned(choice: Sequence[Sequence[int]]) -> NDArray[np.int64]:
                    out = np.empty(len(order), dtype=np.int64)
                    for members, chosen in zip(members_list, choice, strict=True):
                        out[members] = chosen
                    return out

                slack = 1e-9 * max(1.0, abs(lr))
                if total <= permutations:
                    options = [_arrangements(ls) for ls in per_stratum]
                    ratios = [ratio(assigned(choice)) for choice in itertools.product(*options)]
                    tried, exact = len(ratios), True
                    permutation_p = sum(r >= lr - slack for r in ratios) / len(ratios)
                else:
                    rng = np.random.default_rng(seed)
                    above = 0
                    for _ in range(permutations):
                        choice = [list(rng.permutation(ls)) for ls in per_stratum]
                        above += ratio(assigned(choice)) >= lr - slack
                    tried = permutations
                    permutation_p = (1 + above) / (1 + permutations)
    return CohortComparison(tuple(cohorts), keep, tuple(own_features), tuple(fits),
                            pooled.loglik, lr, df, lr_p, wald, wald_p, wald_note, tried, exact,
                            permutation_p, permutation_note)


def _wald_differences(data: ChoiceData, labels: IntArray, fits: Sequence[ChoiceFit],
                      own: Sequence[BoolArray],
                      prior_sd: float | None) -> tuple[float | None, float | None, str]:
    """The Wald statistic of every cohort's weights minus the first's, clustered by player.

    Only the features every cohort fits are compared. The cohorts' fits are
    one model with a weight vector per cohort, so their joint covariance is
    the sandwich of that model: the bread block-diagonal (each cohort's
    information), the meat summed per player over all cohorts.
    """
    k = len(fits)
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2
    sizes = [int(mask.sum()) for mask in own]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    width = int(starts[-1])
    scores = np.zeros((data.n_boards, width))
    bread = np.zeros((width, width))
    for c, fit in enumerate(fits):
        boards = np.flatnonzero(labels == c)
        block = np.arange(starts[c], starts[c + 1])
        sub = only_features(data.subset(boards), own[c])
        pieces = _pieces(sub, fit.coefficients, precision=precision)
        scores[np.ix_(boards, block)] = pieces.per_board_score * data.weights[boards, None]
        bread[np.ix_(block, block)] = np.linalg.pinv(-pieces.hessian)
    common = np.flatnonzero(np.logical_and.reduce(own))
    p = len(common)
    groups = data.n_players
    q = (k - 1) * p
    if q == 0:
        return None, None, "no feature is fitted in every cohort"
    if groups - 1 < q:
        return None, None, (f"{groups} players cannot support a cluster-robust test of "
                            f"{q} differences")
    per_player = np.zeros((groups, width))
    np.add.at(per_player, data.players, scores)
    meat = per_player.T @ per_player * groups / (groups - 1)
    covariance = bread @ meat @ bread
    # The position of each common feature within each cohort's block.
    position = [starts[c] + np.searchsorted(np.flatnonzero(own[c]), common) for c in range(k)]
    contrast = np.zeros((q, width))
    for c in range(1, k):
        for j in range(p):
            contrast[(c - 1) * p + j, position[c][j]] = 1.0
            contrast[(c - 1) * p + j, position[0][j]] = -1.0
    theta = np.concatenate([fit.coefficients for fit in fits])
    difference = contrast @ theta
    middle = contrast @ covariance @ contrast.T
    scale = np.sqrt(np.clip(np.diag(middle), 1e-300, None))
    if np.linalg.matrix_rank(middle / np.outer(scale, scale), tol=1e-10) < q:
        return None, None, "the clustered covariance of the differences is singular"
    return float(difference @ np.linalg.solve(middle, difference)), None, ""
