"""Writes of strategy fits: fit the model to people's moves and store the fit.

A fit is computed outside any transaction and stored as a new row: nothing
is overwritten, and a fit names the data it saw (the last event id), the
feature set and the model version (see ``StrategyFit``).
"""

from __future__ import annotations

import logging
import math
from typing import Any

import numpy as np
from django.db import transaction

from core.stats.choice import (
    MODEL_VERSION,
    ChoiceData,
    CohortComparison,
    Scores,
    cap_weights,
    choice_data,
    chosen_probabilities,
    compare_cohorts,
    cross_validate,
    fit_choice,
    grouped_folds,
    independent_features,
    only_features,
)
from games.engine.strategy import FEATURE_NAMES, FEATURE_SET_VERSION
from results.analysis.strategy import REFERENCE_BOTS
from results.models import StrategyCoefficient, StrategyFit, StrategyPrediction
from results.selectors import (
    STRATEGY_SPLITS,
    StrategyMoves,
    strategy_cohorts,
    strategy_fit_latest,
    strategy_moves,
    strategy_new_moves,
)

logger = logging.getLogger(__name__)

DEFAULT_PLAYER_CAP = 500
"""No player counts for more than this many moves (``cap_weights``)."""

PRIOR_SD = 10.0
"""The standard deviation of the normal prior on each weight (``fit_choice``).

Wide enough to leave every weight the moves pin down as it is (the fitted
weights on real data are within about 10 of 0), it keeps finite the weight
of a feature that separates the chosen moves perfectly in a small sample.
"""


class StrategyFitError(ValueError):
    """The moves cannot be fitted (too few players for the folds, say)."""


def _finite(value: float) -> float | None:
    """JSON (and PostgreSQL's jsonb) has no NaN or infinity: such a value is stored as null."""
    return value if math.isfinite(value) else None


def _number(value: Any) -> float | None:
    return None if value is None else _finite(float(value))


def _scores(scores: Scores) -> dict[str, Any]:
    return {
        "top1": _finite(scores.top1.value), "top3": _finite(scores.top3.value),
        "loglik": _finite(scores.loglik.value),
        "intervals": {
            name: [_finite(estimate.lower), _finite(estimate.upper)]
            for name, estimate in (("top1", scores.top1), ("top3", scores.top3),
                                   ("loglik", scores.loglik))
        },
    }


def strategy_fit_create(*, cohort: str = "all", folds: int = 5, seed: int = 0,
                        player_cap: int = DEFAULT_PLAYER_CAP,
                        permutations: int = 0) -> StrategyFit:
    """Fit the strategy model to every human move of research data in ``cohort`` and store it.

    A ``cohort`` that splits the games (``STRATEGY_SPLITS``: skill, variant,
    source) fits every game, and each cohort apart, and tests whether the
    cohorts weigh the features differently (``compare_cohorts``, with
    ``permutations`` arrangements of the players for the permutation test;
    0 makes none). Raises ``StrategyFitError`` when the moves cannot be fitted.
    """
    if permutations < 0:
        raise StrategyFitError("the number of permutations cannot be negative")
    stored = _fit_and_store(cohort=cohort, folds=folds, seed=seed, player_cap=player_cap,
                            unless_fitted_after=None, permutations=permutations)
    if stored is None:  # only a refit compares with other fits: never here
        raise StrategyFitError("the fit was not stored")
    return stored


def strategy_refit_if_due(*, min_new_moves: int, cohort: str = "all", folds: int = 5,
                          seed: int = 0,
                          player_cap: int = DEFAULT_PLAYER_CAP) -> StrategyFit | None:
    """Store a new fit of ``cohort`` when ``min_new_moves`` moves have arrived since its last.

    Returns the new fit, or None when too few moves have arrived, when another
    run stored a fit of newer data meanwhile (so a redelivered or overlapping
    run stores nothing twice), or when the moves cannot be fitted (too few
    players for the folds: logged; the next check tries again with more).
    Earlier fits are never changed.
    """
    if min_new_moves < 1:
        raise StrategyFitError("the number of new moves must be at least 1")
    latest = strategy_fit_latest(cohort=cohort)
    after = latest.data_cutoff if latest is not None else 0
    try:
        arrived = strategy_new_moves(cohort=cohort, after_event_id=after)
    except ValueError as exc:  # an unknown cohort
        raise StrategyFitError(str(exc)) from None
    if arrived < min_new_moves:
        logger.info("strategy refit of %s: %d new moves since event %d, below %d",
                    cohort, arrived, after, min_new_moves)
        return None
    try:
        return _fit_and_store(cohort=cohort, folds=folds, seed=seed, player_cap=player_cap,
                              unless_fitted_after=after)
    except StrategyFitError as exc:
        logger.warning("strategy refit of %s: %d new moves, but no fit: %s", cohort, arrived, exc)
        return None


def _fit_and_store(*, cohort: str, folds: int, seed: int, player_cap: int,
                   unless_fitted_after: int | None,
                   permutations: int = 0) -> StrategyFit | None:
    """Fit and store; with ``unless_fitted_after``, store nothing if a fit of ``cohort`` has
    seen data after that event id by the time this one is ready."""
    if folds < 2:
        raise StrategyFitError("folds must be at least 2")
    if player_cap < 1:
        raise StrategyFitError("the player cap must be at least 1")
    try:
        found = strategy_moves(cohort=cohort)
    except ValueError as exc:
        raise StrategyFitError(str(exc)) from None
    if not found.boards:
        raise StrategyFitError("there are no moves of people in this cohort")
    try:
        data = choice_data(
            boards=[(board.rows, board.chosen, unit)
                    for board, unit in zip(found.boards, found.units, strict=True)],
            weights=cap_weights(found.units, player_cap),
        )
        # A feature whose weight the moves cannot tell apart (one that never varies
        # within a board, such as a Phi pair in Z10 games, or one that adds up from
        # others there) is left out; the stored features name the fitted ones.
        keep = independent_features(data)
        names = [name for name, kept in zip(FEATURE_NAMES, keep, strict=True) if kept]
        fit = fit_choice(only_features(data, keep), names=names, prior_sd=PRIOR_SD)
        bots = {name: np.concatenate([board.bot_scores[name] for board in found.boards])
                for name in REFERENCE_BOTS}
        held = cross_validate(data, folds=folds, seed=seed, bot_scores=bots, prior_sd=PRIOR_SD)
        by_cohort = (_by_cohort(by=cohort, found=found, data=data, seed=seed,
                                permutations=permutations)
                     if cohort in STRATEGY_SPLITS else None)
    except ValueError as exc:
        raise StrategyFitError(str(exc)) from None
    heldout = {
        "model": _scores(held.model),
        "bots": {name: _scores(scores) for name, scores in held.bots.items()},
        "per_fold_loglik": [{name: _finite(value) for name, value in fold.items()}
                            for fold in held.per_fold],
        "calibration": [
            {"low": row.low, "high": row.high, "moves": row.alternatives,
             "predicted": row.predicted, "observed": row.observed}
            for row in held.calibration
        ],
    }
    # The fold each move was held out in (the same grouping cross_validate dealt).
    folds_of_boards = grouped_folds(data.players, folds=folds, seed=seed)
    chosen = {name: chosen_probabilities(data, p)
              for name, p in held.held_out_probabilities.items()}
    stored_cohort = "" if cohort == "all" else cohort
    with transaction.atomic():
        if unless_fitted_after is not None:
            # Concurrent refits of a cohort queue here on its stored fits, so the second
            # sees the first's fit (before the cohort's first fit there is nothing to
            # lock: two first fits at once may both be stored, of the same data).
            fits = StrategyFit.objects.select_for_update().filter(cohort=stored_cohort)
            if any(cutoff > unless_fitted_after
                   for cutoff in fits.values_list("data_cutoff", flat=True)):
                return None
        stored = StrategyFit.objects.create(
            data_cutoff=found.data_cutoff, feature_set_version=FEATURE_SET_VERSION,
            model_version=MODEL_VERSION, features=names,
            cohort=stored_cohort, folds=folds, seed=seed,
            player_cap=player_cap, n_moves=data.n_boards, n_players=data.n_players,
            n_games=found.games, loglik=fit.loglik, coefficients=fit.table(), heldout=heldout,
            by_cohort=by_cohort,
        )
        tables = [("", fit.table())]
        if by_cohort is not None:
            tables += [(str(entry["name"]), entry["features"]) for entry in by_cohort["cohorts"]]
        StrategyCoefficient.objects.bulk_create(
            StrategyCoefficient(
                fit=stored, cohort=name, position=position, feature=str(row["name"]),
                coef=_number(row["coef"]), se=_number(row["se"]),
                lower=_number(row["lower"]), upper=_number(row["upper"]),
            )
            for name, table in tables
            for position, row in enumerate(table)
        )
        StrategyPrediction.objects.bulk_create(
            (
                StrategyPrediction(
                    fit=stored, game_id=game_id, move_seq=move_seq,
                    fold=int(folds_of_boards[k]), legal_moves=len(board.moves),
                    explanations=len(board.chosen), weight=float(data.weights[k]),
                    p_model=float(chosen["model"][k]), p_random=float(chosen["random"][k]),
                    p_greedy=float(chosen["greedy"][k]),
                    p_clustering=float(chosen["clustering"][k]),
                    p_player=float(chosen["player"][k]),
                )
                for k, (board, (game_id, move_seq)) in enumerate(
                    zip(found.boards, found.sources, strict=True))
            ),
            batch_size=2000,
        )
    return stored


def _by_cohort(*, by: str, found: StrategyMoves, data: ChoiceData, seed: int,
               permutations: int) -> dict[str, Any]:
    """Each cohort of the split ``by`` fitted apart, and the tests of their differences."""
    split = strategy_cohorts(by=by, moves=found)
    if len(split.cohorts) < 2:
        raise ValueError(f"only one cohort of {by} has moves ({', '.join(split.cohorts)}): "
                         "there is nothing to compare")
    names = np.asarray(FEATURE_NAMES)
    compared = compare_cohorts(
        data, split.of_board, cohorts=split.cohorts, prior_sd=PRIOR_SD, cells=split.cells,
        strata=split.strata, permutations=permutations, seed=seed,
    )
    labels = np.asarray(split.of_board)
    cohorts = []
    for index, (name, fitted) in enumerate(zip(compared.cohorts, compared.fits, strict=True)):
        boards = np.flatnonzero(labels == index)
        own = [str(feature) for feature in names[compared.features[index]]]
        players = len(set(data.players[boards].tolist()))
        rows: list[dict[str, Any]] = [{**row, "name": own[k]}
                                      for k, row in enumerate(fitted.table())]
        if players < 2:  # one cluster: its sandwich says nothing about the spread
            rows = [{**row, "se": None, "lower": None, "upper": None} for row in rows]
        cohorts.append({
            "name": name, "n_moves": len(boards), "n_players": players,
            "loglik": _finite(fitted.loglik), "features": rows,
        })
    test = {
        "compared_features": [str(feature) for feature in names[compared.kept]],
        "pooled_loglik": _finite(compared.pooled_loglik),
        "lr": _finite(compared.lr), "df": compared.df, "lr_p": _finite(compared.lr_p),
        "wald": compared.wald, "wald_p": compared.wald_p, "wald_note": compared.wald_note,
        "permutations": compared.permutations,
        "permutation_exact": compared.permutation_exact,
        "permutation_p": compared.permutation_p,
        "permutation_note": compared.permutation_note,
    }
    return {"by": by, "cohorts": cohorts, "test": test,
            "verdict": cohort_verdict(by=by, comparison=compared)}


_SPLIT_WORDS = {"skill": "skill tertiles", "variant": "variants", "source": "sources"}
_NUMBERS = {2: "two", 3: "three"}


def _p(value: float) -> str:
    return "p < 0.0001" if value < 1e-4 else f"p = {value:.2g}"


def cohort_verdict(*, by: str, comparison: CohortComparison) -> str:
    """The tests of a split in words: the answer first, then each test's figures.

    The answer rests on a test that counts players as the units (the
    permutation test when made, else the clustered Wald test); with neither,
    on the likelihood-ratio test, said to overstate.
    """
    c = comparison
    who = (f"the {_NUMBERS.get(len(c.cohorts), len(c.cohorts))} {_SPLIT_WORDS[by]} "
           f"({', '.join(c.cohorts)})")
    lr = (f"likelihood ratio LR = {c.lr:.1f} on {c.df} degrees of freedom, {_p(c.lr_p)}, "
          "counting every move as independent, which moves of one player are not, so it "
          "overstates the evidence")
    if c.permutation_p is not None:
        robust, basis = c.permutation_p, (
            f"permuting the cohorts among the players: {_p(c.permutation_p)} over "
            f"{'all ' if c.permutation_exact else ''}{c.permutations}"
            f"{'' if c.permutation_exact else ' random'} arrangements")
    elif c.wald_p is not None:
        robust, basis = c.wald_p, (
            f"a Wald test of the differences with covariances clustered by player: "
            f"W = {c.wald:.1f}, {_p(c.wald_p)}")
    else:
        robust, basis = None, ""
    if robust is None:
        why = "; ".join(note for note in (c.wald_note, c.permutation_note) if note) or \
            "no permutation test was asked for"
        answer = (f"{who} weigh the features differently" if c.lr_p < 0.05
                  else f"there is no evidence that {who} weigh the features differently")
        return (f"By the likelihood ratio alone, {answer} ({lr}); no test counting players "
                f"as the units was made ({why}).")
    if robust < 0.05:
        head = f"{who[0].upper()}{who[1:]} weigh the features differently ({basis})."
    else:
        head = f"No evidence that {who} weigh the features differently ({basis})."
    extra = ""
    if c.wald_p is not None and c.permutation_p is not None:
        extra = (f" The clustered Wald test of the differences: W = {c.wald:.1f}, "
                 f"{_p(c.wald_p)}.")
    elif c.wald_p is None and c.wald_note:
        extra = f" No clustered Wald test: {c.wald_note}."
    return f"{head}{extra} The {lr}."


def strategy_fit_summary(*, fit: StrategyFit) -> dict[str, Any]:
    """A stored fit as the ``strategy`` command writes it (JSON-ready)."""
    return {
        "fit_id": fit.pk,
        "cohort": fit.cohort or "all",
        "data_cutoff": fit.data_cutoff,
        "feature_set_version": fit.feature_set_version,
        "model_version": fit.model_version,
        "folds": fit.folds,
        "seed": fit.seed,
        "player_cap": fit.player_cap,
        "n_moves": fit.n_moves,
        "n_players": fit.n_players,
        "n_games": fit.n_games,
        "loglik": fit.loglik,
        "not_fitted": [name for name in FEATURE_NAMES if name not in fit.features],
        "features": fit.coefficients,
        "heldout": fit.heldout,
        "by_cohort": fit.by_cohort,
    }
