"""How well the choice model and bots predict the moves of players held out.

``grouped_folds`` splits players (never moves) into folds; ``cross_validate``
fits on the other folds and scores the held-out ones, for the model and for
bots whose scores become probabilities by a softmax with a temperature
fitted on the training folds. Intervals treat players as the units.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..intervals import Z95
from .data import ChoiceData, FloatArray, IntArray
from .likelihood import (
    _probabilities_of_scores,
    fit_choice,
    independent_features,
    only_features,
    probabilities,
)


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
