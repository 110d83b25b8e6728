"""Which move a player makes: a conditional logit over the legal moves of each board.

McFadden's choice model. Each board ``b`` offers alternatives ``a`` (its
legal moves) with feature vectors ``x_a``; the model gives

    P(a | b) = exp(w . x_a) / sum over the alternatives c of b of exp(w . x_c).

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
``grouped_folds`` splits players (never moves) into folds; ``cross_validate``
fits on the other folds and scores the held-out ones, for the model and for
bots whose scores become probabilities by a softmax with a temperature
fitted on the training folds. Pure: numpy only, no Django.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.stats import chi2

from ..intervals import Z95

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

MODEL_VERSION = 1
"""Bump whenever a change to the fit or the scores could change a stored result."""


@dataclass(frozen=True)
class ChoiceData:
    """Boards, their alternatives and the chosen ones, in flat arrays.

    The alternatives of board ``b`` are rows ``offsets[b]:offsets[b + 1]`` of
    ``features`` and ``chosen``; ``players[b]`` is the board's player (the
    unit of independence) and ``weights[b]`` its weight.
    """

    features: FloatArray  # (alternatives, features)
    chosen: BoolArray  # (alternatives,)
    offsets: IntArray  # (boards + 1,)
    players: IntArray  # (boards,) player index, 0 .. n_players - 1
    weights: FloatArray  # (boards,)
    player_keys: tuple[Hashable, ...] = ()

    @property
    def n_boards(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_players(self) -> int:
        return int(self.players.max()) + 1 if self.n_boards else 0

    def board_of_alternative(self) -> IntArray:
        return np.repeat(np.arange(self.n_boards), np.diff(self.offsets))

    def subset(self, boards: IntArray) -> ChoiceData:
        """The data of the boards ``boards`` (players renumbered, keys kept)."""
        boards = np.asarray(boards, dtype=np.int64)
        starts, stops = self.offsets[boards], self.offsets[boards + 1]
        rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, stops, strict=True)]) \
            if len(boards) else np.zeros(0, dtype=np.int64)
        used, players = np.unique(self.players[boards], return_inverse=True)
        keys = tuple(self.player_keys[p] for p in used) if self.player_keys else ()
        return ChoiceData(
            features=self.features[rows], chosen=self.chosen[rows],
            offsets=np.concatenate([[0], np.cumsum(stops - starts)]).astype(np.int64),
            players=players.astype(np.int64), weights=self.weights[boards], player_keys=keys,
        )


def choice_data(*, boards: Sequence[tuple[Sequence[Sequence[float]], Sequence[int], Hashable]],
                weights: Sequence[float] | FloatArray | None = None) -> ChoiceData:
    """``ChoiceData`` from boards given as ``(feature rows, chosen rows, player)``.

    Every board needs at least two alternatives and at least one chosen
    (a board with one legal move says nothing about what the player weighed).
    """
    if not boards:
        raise ValueError("there are no boards")
    keys: dict[Hashable, int] = {}
    rows: list[Sequence[float]] = []
    chosen: list[bool] = []
    offsets = [0]
    players = []
    width: int | None = None
    for number, (features, picked, player) in enumerate(boards):
        n = len(features)
        if n < 2:
            raise ValueError(f"board {number} has fewer than two alternatives")
        picked_set = set(picked)
        if not picked_set or not all(0 <= k < n for k in picked_set):
            raise ValueError(f"board {number} needs chosen rows among its {n} alternatives")
        for row in features:
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ValueError(f"board {number} has rows of different lengths")
        rows.extend(features)
        chosen.extend(k in picked_set for k in range(n))
        offsets.append(offsets[-1] + n)
        players.append(keys.setdefault(player, len(keys)))
    board_weights = np.ones(len(boards)) if weights is None else np.asarray(weights, dtype=float)
    if board_weights.shape != (len(boards),) or not np.all(np.isfinite(board_weights)) \
            or np.any(board_weights < 0):
        raise ValueError("weights must be one finite, non-negative number per board")
    matrix = np.asarray(rows, dtype=float)
    if not np.all(np.isfinite(matrix)):
        raise ValueError("features must be finite")
    return ChoiceData(matrix, np.asarray(chosen), np.asarray(offsets, dtype=np.int64),
                      np.asarray(players, dtype=np.int64), board_weights, tuple(keys))


def cap_weights(players: Sequence[Hashable] | IntArray, cap: float) -> FloatArray:
    """Per-board weights so that no player counts for more than ``cap`` boards.

    A player with n boards gives each of them ``min(1, cap / n)``: everyone's
    boards count fully up to ``cap``, and a prolific player's total is ``cap``.
    """
    if not cap > 0:
        raise ValueError("cap must be positive")
    _, inverse, counts = np.unique(np.asarray(players), return_inverse=True, return_counts=True)
    return np.minimum(1.0, cap / counts[inverse]).astype(float)


# -- the likelihood -------------------------------------------------------------------


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


# -- held-out players -----------------------------------------------------------------


def grouped_folds(players: Sequence[Hashable] | IntArray, *, folds: int, seed: int) -> IntArray:
    """The fold (0 .. folds - 1) of every board; a player's boards share one fold.

    Players are shuffled by ``seed`` (numpy's PCG64, the same on every
    platform) and dealt round-robin, so folds hold nearly equal numbers of
    players, and the same seed gives the same folds.
    """
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise ValueError("folds must be an integer of at least 2")
    keys, inverse = np.unique(np.asarray(players), return_inverse=True)
    if len(keys) < folds:
        raise ValueError(f"{len(keys)} players cannot fill {folds} folds")
    order = np.random.default_rng(seed).permutation(len(keys))
    fold_of_player = np.empty(len(keys), dtype=np.int64)
    fold_of_player[order] = np.arange(len(keys)) % folds
    return fold_of_player[inverse]


@dataclass(frozen=True)
class Estimate:
    value: float
    lower: float
    upper: float


@dataclass(frozen=True)
class Scores:
    """How well probabilities predict the chosen moves (95% intervals clustered by player)."""

    top1: Estimate
    top3: Estimate
    loglik: Estimate  # mean natural log-likelihood per move
    n_boards: int


@dataclass(frozen=True)
class CalibrationRow:
    low: float
    high: float
    alternatives: int
    predicted: float  # mean predicted probability in the bin
    observed: float  # mean observed frequency (a chosen move's share of its explanations)


def _top_k_hits(data: ChoiceData, p: FloatArray, k: int) -> FloatArray:
    """Per board: the chance that a chosen alternative is among the k most probable.

    Ties are counted as a fair random order would: with ``g`` alternatives
    more probable than the best chosen one and ``t`` tied with it (``c`` of
    them chosen), the hit chance is 1 - C(t - c, s) / C(t, s) for s = k - g.
    """
    hits = np.zeros(data.n_boards)
    for b in range(data.n_boards):
        lo, hi = data.offsets[b], data.offsets[b + 1]
        probs, picked = p[lo:hi], data.chosen[lo:hi]
        best = probs[picked].max()
        above = int(np.sum(probs > best))
        slots = k - above
        if slots <= 0:
            continue
        tied = probs == best
        t, c = int(np.sum(tied)), int(np.sum(tied & picked))
        hits[b] = 1.0 if slots > t - c else 1.0 - math.comb(t - c, slots) / math.comb(t, slots)
    return hits


def _clustered_mean(values: FloatArray, data: ChoiceData, *, clip: bool) -> Estimate:
    """The weighted mean per board, with a 95% interval that treats players as the units."""
    w = data.weights
    total = float(w.sum())
    mean = float(np.dot(w, values) / total)
    groups = data.n_players
    if groups < 2:
        return Estimate(mean, math.nan, math.nan)
    residual = np.zeros(groups)
    np.add.at(residual, data.players, w * (values - mean))
    se = math.sqrt(groups / (groups - 1) * float(residual @ residual)) / total
    lower, upper = mean - Z95 * se, mean + Z95 * se
    if clip:
        lower, upper = max(0.0, lower), min(1.0, upper)
    return Estimate(mean, lower, upper)


def score_predictions(data: ChoiceData, p: FloatArray) -> Scores:
    """Top-1, top-3 and mean log-likelihood per move of the probabilities ``p``."""
    chosen_p = np.add.reduceat(np.where(data.chosen, p, 0.0), data.offsets[:-1])
    with np.errstate(divide="ignore"):
        loglik = np.log(chosen_p)
    return Scores(
        top1=_clustered_mean(_top_k_hits(data, p, 1), data, clip=True),
        top3=_clustered_mean(_top_k_hits(data, p, 3), data, clip=True),
        loglik=_clustered_mean(loglik, data, clip=False),
        n_boards=data.n_boards,
    )


def calibration(data: ChoiceData, p: FloatArray, *, bins: int = 10) -> list[CalibrationRow]:
    """Predicted probability against observed frequency, in ``bins`` equal bins of [0, 1].

    A chosen alternative's observation is its share of the board's chosen
    probability (1 when the move has one explanation), so each board adds up
    to one observed move, as it adds up to one predicted.
    """
    counts = np.diff(data.offsets)
    chosen_p = np.add.reduceat(np.where(data.chosen, p, 0.0), data.offsets[:-1])
    observed = np.where(data.chosen, p / np.repeat(chosen_p, counts), 0.0)
    weight = np.repeat(data.weights, counts)
    index = np.minimum((p * bins).astype(np.int64), bins - 1)
    rows = []
    for b in range(bins):
        inside = index == b
        if not np.any(inside) or not weight[inside].sum() > 0:
            continue
        rows.append(CalibrationRow(
            b / bins, (b + 1) / bins, int(inside.sum()),
            float(np.average(p[inside], weights=weight[inside])),
            float(np.average(observed[inside], weights=weight[inside])),
        ))
    return rows


def fit_temperature(data: ChoiceData, scores: FloatArray) -> float:
    """The inverse temperature ``beta`` of the softmax P(a) proportional to exp(beta * score).

    Fitted by maximum likelihood; 0 (uniform) when the scores never differ
    within a board.
    """
    one = ChoiceData(np.asarray(scores, dtype=float)[:, None], data.chosen, data.offsets,
                     data.players, data.weights, data.player_keys)
    try:
        return float(fit_choice(one).coefficients[0])
    except ValueError:
        return 0.0


@dataclass(frozen=True)
class CrossValidation:
    """Held-out scores of the model and of each bot, pooled over the folds."""

    folds: int
    seed: int
    model: Scores
    bots: dict[str, Scores]
    per_fold: list[dict[str, float]]  # per fold: held-out mean log-likelihood per name
    calibration: list[CalibrationRow]
    held_out_probabilities: dict[str, FloatArray] = field(repr=False)


def cross_validate(data: ChoiceData, *, folds: int = 5, seed: int = 0,
                   bot_scores: Mapping[str, FloatArray] | None = None,
                   prior_sd: float | None = None) -> CrossValidation:
    """K-fold cross-validation grouped by player, of the model and of scored bots.

    ``bot_scores[name]`` holds a bot's score of every alternative (higher is
    better); its probabilities are a softmax whose temperature is fitted on
    the training folds. A bot with the fixed probability of its own (such as
    the random bot) can be given scores of ``log P``: the fitted inverse
    temperature is then near 1. ``prior_sd`` is passed to the model's fits.
    """
    bot_scores = dict(bot_scores or {})
    fold_of_board = grouped_folds(data.players, folds=folds, seed=seed)
    fold_of_alt = np.repeat(fold_of_board, np.diff(data.offsets))
    held: dict[str, FloatArray] = {name: np.zeros(len(data.chosen))
                                   for name in ["model", *bot_scores]}
    per_fold = []
    for fold in range(folds):
        train = data.subset(np.flatnonzero(fold_of_board != fold))
        test_boards = np.flatnonzero(fold_of_board == fold)
        test = data.subset(test_boards)
        test_rows = fold_of_alt == fold
        # A feature whose weight the training folds cannot tell apart gets none.
        keep = independent_features(train)
        coefficients = np.zeros(len(keep))
        coefficients[keep] = fit_choice(only_features(train, keep),
                                        prior_sd=prior_sd).coefficients
        held["model"][test_rows] = probabilities(test, coefficients)
        for name, scores in bot_scores.items():
            scores = np.asarray(scores, dtype=float)
            beta = fit_temperature(train, scores[fold_of_alt != fold])
            held[name][test_rows] = _probabilities_of_scores(beta * scores[test_rows],
                                                             test.offsets)
        per_fold.append({name: score_predictions(test, p[test_rows]).loglik.value
                         for name, p in held.items()})
    return CrossValidation(
        folds=folds, seed=seed,
        model=score_predictions(data, held["model"]),
        bots={name: score_predictions(data, held[name]) for name in bot_scores},
        per_fold=per_fold,
        calibration=calibration(data, held["model"]),
        held_out_probabilities=held,
    )


# -- cohorts --------------------------------------------------------------------------


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
