"""The periodic refit of the strategy model: a new fit once enough new moves have arrived."""

from __future__ import annotations

import pytest
from django.conf import settings

from results.models import StrategyCoefficient, StrategyFit, StrategyPrediction
from results.selectors import strategy_new_moves
from results.services.strategy import StrategyFitError, strategy_refit_if_due
from results.tasks import STRATEGY_REFIT_HARD_LIMIT, STRATEGY_REFIT_SOFT_LIMIT, strategy_refit
from tests.factories import GameFactory, PlayerFactory
from tests.results.test_strategy_fits import play_randomly

pytestmark = pytest.mark.django_db


def _play(players: int, *, moves: int = 8, first_seed: int = 600) -> int:
    """``players`` people play ``moves`` moves each; returns the moves made."""
    made = 0
    for n in range(players):
        game = GameFactory.create(size=5, noise_budget=3.0, seed=first_seed + n)
        made += len(play_randomly(game, moves, seed=first_seed + n))
    return made


def test_below_the_threshold_the_check_stores_no_fit(settings) -> None:
    made = _play(3)
    settings.DECODOKU_STRATEGY_REFIT_MOVES = made + 1
    assert strategy_refit.delay().get() is None
    assert not StrategyFit.objects.exists()


def test_at_the_threshold_the_task_stores_a_fit_of_every_move_so_far(settings) -> None:
    made = _play(5, moves=5)  # the task fits with five folds
    settings.DECODOKU_STRATEGY_REFIT_MOVES = made
    fit_id = strategy_refit.delay().get()
    assert fit_id is not None
    fit = StrategyFit.objects.get(pk=fit_id)
    assert fit.cohort == ""
    assert strategy_new_moves(after_event_id=fit.data_cutoff) == 0
    assert StrategyCoefficient.objects.filter(fit=fit).count() == len(fit.features)
    assert StrategyPrediction.objects.filter(fit=fit).count() == fit.n_moves


def test_a_refit_adds_a_fit_and_never_changes_the_earlier_one() -> None:
    _play(3)
    first = strategy_refit_if_due(min_new_moves=1, folds=3)
    assert first is not None
    before = StrategyFit.objects.filter(pk=first.pk).values().get()
    coefficients = list(StrategyCoefficient.objects.filter(fit=first).values())
    predictions = list(StrategyPrediction.objects.filter(fit=first).values())
    # Nothing new: a second check (a redelivered message, say) stores nothing.
    assert strategy_refit_if_due(min_new_moves=1, folds=3) is None
    new_moves = _play(1, first_seed=700)
    assert strategy_refit_if_due(min_new_moves=new_moves + 1, folds=3) is None
    second = strategy_refit_if_due(min_new_moves=new_moves, folds=3)
    assert second is not None
    assert second.pk != first.pk
    assert second.data_cutoff > first.data_cutoff
    assert second.n_players == first.n_players + 1
    assert StrategyFit.objects.filter(pk=first.pk).values().get() == before
    assert list(StrategyCoefficient.objects.filter(fit=first).values()) == coefficients
    assert list(StrategyPrediction.objects.filter(fit=first).values()) == predictions
    assert StrategyFit.objects.count() == 2


def test_moves_that_are_not_research_data_do_not_count_toward_a_refit() -> None:
    unconsented = GameFactory.create(size=5, noise_budget=3.0, seed=650,
                                     player=PlayerFactory.create(consent_version=None))
    assert play_randomly(unconsented, 8, seed=1)
    assert strategy_new_moves(after_event_id=0) == 0
    assert strategy_refit_if_due(min_new_moves=1) is None
    assert not StrategyFit.objects.exists()


def test_a_refit_that_finds_a_newer_fit_stored_meanwhile_stores_nothing(monkeypatch) -> None:
    _play(3)
    assert strategy_refit_if_due(min_new_moves=1, folds=3) is not None
    # An overlapping run that read "no fit yet" before the other stored its fit: by the
    # time its own fit is ready, a fit of newer data exists, and it stores nothing.
    monkeypatch.setattr("results.services.strategy.strategy_fit_latest",
                        lambda *, cohort: None)
    assert strategy_refit_if_due(min_new_moves=1, folds=3) is None
    assert StrategyFit.objects.count() == 1


def test_too_few_players_for_the_folds_is_logged_not_raised(settings, caplog) -> None:
    _play(2)  # two players cannot fill the task's five folds
    settings.DECODOKU_STRATEGY_REFIT_MOVES = 1
    assert strategy_refit.delay().get() is None
    assert "no fit" in caplog.text
    assert not StrategyFit.objects.exists()


def test_a_threshold_below_one_or_an_unknown_cohort_is_refused() -> None:
    with pytest.raises(StrategyFitError, match="at least 1"):
        strategy_refit_if_due(min_new_moves=0)
    with pytest.raises(StrategyFitError, match="unknown cohort"):
        strategy_refit_if_due(min_new_moves=1, cohort="colors")


def test_beat_checks_the_refit_and_the_task_is_acknowledged_late_within_the_visibility(
) -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE["results-strategy-refit"]
    assert schedule["task"] == strategy_refit.name == "results.strategy_refit"
    assert strategy_refit.acks_late is True
    assert strategy_refit.time_limit == STRATEGY_REFIT_HARD_LIMIT
    assert strategy_refit.soft_time_limit == STRATEGY_REFIT_SOFT_LIMIT < STRATEGY_REFIT_HARD_LIMIT
    assert STRATEGY_REFIT_HARD_LIMIT < 3600  # CELERY_REDIS_VISIBILITY_TIMEOUT's default
    assert settings.DECODOKU_STRATEGY_REFIT_MOVES == 5000
