"""The conditional logit's likelihood and its fit, with intervals clustered by player.

The move a player made may have more than one explanation (an annihilation
is the same board either way round), so a board's *chosen* alternatives are
a set and its likelihood is the sum of their probabilities. Each board has a
weight (``cap_weights`` caps a player's total), and the fit maximises the
weighted log-likelihood by Newton's method with step halving. Where the
likelihood is not concave (a board with several explanations) the step uses
the all-alternatives covariance instead of the Hessian, which bounds the
curvature and keeps every step an ascent.

Intervals for the coefficients are cluster-robust (sandwich) by player, so
that moves of one player, which are not independent, count as one unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

from ..intervals import Z95
from .data import BoolArray, ChoiceData, FloatArray, IntArray


def _segment_max(values: FloatArray, offsets: IntArray) -> FloatArray:
    return np.maximum.reduceat(values, offsets[:-1])


def probabilities(data: ChoiceData, coefficients: FloatArray) -> FloatArray:
    """P(a | b) of every alternative (each board's sum to 1)."""
    return _probabilities_of_scores(data.features @ np.asarray(coefficients, dtype=float),
                                    data.offsets)


def _probabilities_of_scores(scores: FloatArray, offsets: IntArray) -> FloatArray:
    counts = np.diff(offsets)
    shifted = scores - np.repeat(_segment_max(scores, offsets), counts)
    exp = np.exp(shifted)
    result: FloatArray = exp / np.repeat(np.add.reduceat(exp, offsets[:-1]), counts)
    return result


def _per_board(data: ChoiceData, values: FloatArray) -> FloatArray:
    """Sum over each board's alternatives of ``values[a] * features[a]`` (boards x features).

    A sparse product: numpy's ``add.reduceat`` over the rows of a matrix is
    several times slower, and this makes no (alternatives x features) copy.
    """
    n = len(values)
    membership = csr_matrix((values, np.arange(n), data.offsets), shape=(data.n_boards, n))
    return np.asarray(membership @ data.features)


def _chosen_probability(data: ChoiceData, p: FloatArray) -> FloatArray:
    return np.add.reduceat(np.where(data.chosen, p, 0.0), data.offsets[:-1])


def chosen_probabilities(data: ChoiceData, p: FloatArray) -> FloatArray:
    """Per board: the probability ``p`` gives the move made (summed over its explanations)."""
    return _chosen_probability(data, np.asarray(p, dtype=float))


def _loglik(data: ChoiceData, p: FloatArray) -> float:
    with np.errstate(divide="ignore"):
        return float(np.dot(data.weights, np.log(_chosen_probability(data, p))))


@dataclass(frozen=True)
class _Pieces:
    loglik: float
    p: FloatArray  # P(a | b)
    mean_all: FloatArray  # (boards, features): E[x] over each board's alternatives
    per_board_score: FloatArray  # (boards, features): d loglik_b / dw, unweighted
    hessian: FloatArray  # weighted


def _pieces(data: ChoiceData, w: FloatArray, p: FloatArray | None = None, *,
            precision: float = 0.0) -> _Pieces:
    """The log-likelihood at ``w`` and its first and second derivatives.

    Per board the gradient is E[x | chosen set] - E[x], and the Hessian is
    Cov[x | chosen set] - Cov[x]; summed with the boards' weights, the two
    second moments come from one weighted product of the features. The
    Hessian includes the prior's ``-precision`` on its diagonal (the scores
    per board do not).
    """
    x, counts = data.features, np.diff(data.offsets)
    if p is None:
        p = _probabilities_of_scores(x @ w, data.offsets)
    chosen_p = _chosen_probability(data, p)
    q = np.where(data.chosen, p / np.repeat(chosen_p, counts), 0.0)  # P(a | b, chosen set)
    mean_all, mean_chosen = _per_board(data, p), _per_board(data, q)
    alt_weight = np.repeat(data.weights, counts)
    weights = data.weights[:, None]
    hessian = (x.T @ (x * (alt_weight * (q - p))[:, None])
               - (mean_chosen * weights).T @ mean_chosen + (mean_all * weights).T @ mean_all
               - precision * np.eye(x.shape[1]))
    with np.errstate(divide="ignore"):
        loglik = float(np.dot(data.weights, np.log(chosen_p)))
    return _Pieces(loglik, p, mean_all, mean_chosen - mean_all, hessian)


def _bound(data: ChoiceData, pieces: _Pieces) -> FloatArray:
    """Minus the weighted covariance of the features over all alternatives.

    The Hessian is this plus a positive semi-definite term (the covariance
    within the chosen sets), so a step taken with it never overshoots.
    """
    x, mean_all = data.features, pieces.mean_all
    alt_weight = np.repeat(data.weights, np.diff(data.offsets))
    covariance = (x.T @ (x * (alt_weight * pieces.p)[:, None])
                  - (mean_all * data.weights[:, None]).T @ mean_all)
    return np.asarray(-covariance)


@dataclass(frozen=True)
class ChoiceFit:
    """A fitted conditional logit with cluster-robust 95% intervals."""

    coefficients: FloatArray
    standard_errors: FloatArray
    lower: FloatArray
    upper: FloatArray
    loglik: float
    n_boards: int
    n_players: int
    iterations: int
    names: tuple[str, ...] = ()

    def table(self) -> list[dict[str, float | str]]:
        names = self.names or tuple(f"x{k}" for k in range(len(self.coefficients)))
        return [{"name": name, "coef": float(c), "se": float(s), "lower": float(lo),
                 "upper": float(hi)}
                for name, c, s, lo, hi in zip(names, self.coefficients, self.standard_errors,
                                              self.lower, self.upper, strict=True)]


def fit_choice(data: ChoiceData, *, names: Sequence[str] = (), tolerance: float = 1e-10,
               max_iterations: int = 100, start: FloatArray | None = None,
               prior_sd: float | None = None) -> ChoiceFit:
    """The maximum-likelihood coefficients, with intervals clustered by player.

    With ``prior_sd`` the weights are the most probable ones under a normal
    prior of mean 0 and that standard deviation on each (a ridge penalty):
    a weight the data pin down moves by a negligible amount, and a feature
    that separates chosen moves from the others perfectly (its maximum
    likelihood weight is infinite, as happens in small samples) gets a finite
    one. ``loglik`` is always the plain log-likelihood.

    Raises ``ValueError`` when a feature does not vary within any board, when
    some weights cannot be told apart, or when the fit does not converge.
    """
    k = data.features.shape[1]
    if names and len(names) != k:
        raise ValueError(f"{len(names)} names for {k} features")
    if prior_sd is not None and not prior_sd > 0:
        raise ValueError("prior_sd must be positive")
    _check_identified(data, names)
    precision = 0.0 if prior_sd is None else 1.0 / prior_sd**2

    def objective(loglik: float, weights: FloatArray) -> float:
        return loglik - 0.5 * precision * float(weights @ weights)

    w = np.zeros(k) if start is None else np.asarray(start, dtype=float).copy()
    current = _pieces(data, w, precision=precision)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - reported below
        gradient = current.per_board_score.T @ data.weights - precision * w
        step = _ascent_step(data, current, gradient, precision)
        before = objective(current.loglik, w)
        t = 1.0
        while True:  # halve the step until the objective does not fall
            p = probabilities(data, w + t * step)
            after = objective(_loglik(data, p), w + t * step)
            if after >= before - 1e-12 * abs(before) or t < 1e-10:
                break
            t /= 2
        w = w + t * step
        change = abs(after - before)
        current = _pieces(data, w, p, precision=precision)
        if float(np.max(np.abs(t * step))) < tolerance or change < tolerance * 1e-3:
            break
    else:
        raise ValueError("the fit did not converge")
    if not np.isfinite(current.loglik):
        raise ValueError("some chosen move has probability 0 under every weight tried")
    # Features that are linear combinations of others within every board leave
    # some weights undetermined (the likelihood is flat along those directions);
    # so does perfect separation, where the likelihood flattens toward infinity.
    information = -current.hessian
    scale = np.sqrt(np.clip(np.diag(information), 1e-300, None))
    if np.linalg.matrix_rank(information / np.outer(scale, scale), tol=1e-10) < k:
        raise ValueError("some weights cannot be told apart: features linearly dependent "
                         "within boards, or one that separates the chosen moves perfectly "
                         "(a prior_sd keeps such weights finite)")
    covariance = _cluster_covariance(data, current)
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return ChoiceFit(w, se, w - Z95 * se, w + Z95 * se, current.loglik, data.n_boards,
                     data.n_players, iterations, tuple(names))


def varying_features(data: ChoiceData) -> BoolArray:
    """Which features vary within at least one board (only those can be fitted)."""
    x, offsets = data.features, data.offsets
    spread = np.maximum.reduceat(x, offsets[:-1]) - np.minimum.reduceat(x, offsets[:-1])
    return np.asarray(np.any(spread > 0, axis=0))


def independent_features(data: ChoiceData) -> BoolArray:
    """A largest set of features whose weights the data can tell apart, earliest first.

    A weight is undetermined when some combination of features is constant
    within every board: adding it to the weights changes no probability. Such
    combinations are the null space of the within-board covariance of the
    features (the same for every weight, so it is taken with all moves equally
    likely); going through the features in order, each is kept when it adds a
    direction the kept ones do not span.
    """
    counts = np.diff(data.offsets)
    uniform = 1.0 / np.repeat(counts, counts).astype(float)
    centred = data.features - np.repeat(_per_board(data, uniform), counts, axis=0)
    weight = np.repeat(data.weights, counts) * uniform
    covariance = centred.T @ (centred * weight[:, None])
    scale = np.sqrt(np.diag(covariance))
    # Centring leaves rounding errors: a spread within boards below 1e-7 of the
    # feature's own size is none.
    size = np.sqrt((data.features**2 * weight[:, None]).sum(axis=0))
    keep = np.zeros(len(scale), dtype=bool)
    for k in range(len(scale)):
        if not scale[k] > 1e-7 * size[k]:
            continue
        trial = keep.copy()
        trial[k] = True
        block = covariance[np.ix_(trial, trial)] / np.outer(scale[trial], scale[trial])
        if np.linalg.matrix_rank(block, tol=1e-9) == int(trial.sum()):
            keep = trial
    return keep


def only_features(data: ChoiceData, keep: BoolArray) -> ChoiceData:
    """The same boards with the features ``keep`` selects."""
    return ChoiceData(data.features[:, keep], data.chosen, data.offsets, data.players,
                      data.weights, data.player_keys)


def _check_identified(data: ChoiceData, names: Sequence[str]) -> None:
    varying = varying_features(data)
    flat = [k for k in range(len(varying)) if not varying[k]]
    if flat:
        labels = [names[k] if names else f"x{k}" for k in flat]
        raise ValueError(f"these features never vary within a board: {', '.join(labels)}")


def _ascent_step(data: ChoiceData, pieces: _Pieces, gradient: FloatArray,
                 precision: float) -> FloatArray:
    try:
        np.linalg.cholesky(-pieces.hessian)
        curvature = pieces.hessian
    except np.linalg.LinAlgError:
        curvature = _bound(data, pieces) - precision * np.eye(len(gradient))
    try:
        return np.asarray(np.linalg.solve(-curvature, gradient))
    except np.linalg.LinAlgError:
        return np.asarray(np.linalg.lstsq(-curvature, gradient, rcond=None)[0])


def _cluster_covariance(data: ChoiceData, pieces: _Pieces) -> FloatArray:
    """H^-1 (sum over players of their summed scores squared) H^-1, times G / (G - 1)."""
    weighted = pieces.per_board_score * data.weights[:, None]
    per_player = np.zeros((data.n_players, weighted.shape[1]))
    np.add.at(per_player, data.players, weighted)
    meat = per_player.T @ per_player
    groups = data.n_players
    if groups > 1:
        meat *= groups / (groups - 1)
    bread = np.linalg.pinv(-pieces.hessian)
    return np.asarray(bread @ meat @ bread)
