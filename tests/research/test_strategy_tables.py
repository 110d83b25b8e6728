"""The strategy model's research tables: fits, coefficients and held-out predictions."""

from __future__ import annotations

import math

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from core.pseudonyms import pseudonym
from games.models import Game
from research.services import games_set_excluded
from results.models import StrategyCoefficient, StrategyFit, StrategyPrediction
from results.services.strategy import strategy_fit_create
from tests.factories import GameFactory, PlayerFactory
from tests.research.conftest import body_of, csv_rows, finish
from tests.results.test_strategy_fits import play_randomly

pytestmark = pytest.mark.django_db


def _export(client: Client, table: str, **params: str) -> list[dict[str, str]]:
    response = client.get(f"/research/export/{table}.csv", params)
    assert response.status_code == 200, response.content
    return csv_rows(body_of(response))


def _people(count: int, *, moves: int = 10) -> list[Game]:
    games = []
    for n in range(count):
        game = GameFactory.create(size=5, noise_budget=3.0, seed=400 + n)
        play_randomly(game, moves, seed=n)
        games.append(Game.objects.get(pk=game.pk))
    finish(*games)
    return games


def test_a_fit_stores_a_row_per_coefficient_and_per_held_out_move() -> None:
    games = _people(3)
    fit = strategy_fit_create(folds=3, seed=1)
    rows = list(StrategyCoefficient.objects.filter(fit=fit).order_by("position"))
    assert [row.feature for row in rows] == fit.features
    assert [row.coef for row in rows] == [entry["coef"] for entry in fit.coefficients]
    assert all(row.lower <= row.coef <= row.upper for row in rows)  # type: ignore[operator]
    predictions = list(StrategyPrediction.objects.filter(fit=fit))
    assert len(predictions) == fit.n_moves
    assert {p.game_id for p in predictions} == {g.pk for g in games}
    for game in games:
        made = set(game.events.filter(kind="move").values_list("seq", flat=True))
        assert {p.move_seq for p in predictions if p.game_id == game.pk} <= made
    # Each player is held out in one fold, and every probability is one of a move made.
    assert len({(p.game_id, p.fold) for p in predictions}) == len(games)
    for p in predictions:
        for value in (p.p_model, p.p_random, p.p_greedy, p.p_clustering, p.p_player):
            assert 0 < value <= 1
    # The stored probabilities are those the held-out scores were computed from.
    mean_loglik = sum(math.log(p.p_model) * p.weight for p in predictions) / sum(
        p.weight for p in predictions)
    assert mean_loglik == pytest.approx(fit.heldout["model"]["loglik"], rel=1e-9)


def test_a_refit_adds_rows_and_leaves_the_earlier_fits_rows_as_they_were() -> None:
    _people(3)
    first = strategy_fit_create(folds=3, seed=1)
    before = list(StrategyPrediction.objects.filter(fit=first).values())
    second = strategy_fit_create(folds=3, seed=2)
    assert list(StrategyPrediction.objects.filter(fit=first).values()) == before
    assert StrategyPrediction.objects.filter(fit=second).count() == second.n_moves
    assert StrategyCoefficient.objects.filter(fit=second).count() == len(second.features)


def test_the_strategy_tables_export_the_fit_with_its_scores(researcher_client: Client) -> None:
    _people(3)
    fit = strategy_fit_create(folds=3, seed=1)
    [fit_row] = _export(researcher_client, "strategy_fits")
    assert fit_row["fit_id"] == str(fit.pk)
    assert fit_row["cohort"] == "all"
    assert int(fit_row["moves"]) == fit.n_moves
    assert float(fit_row["model_top1"]) == pytest.approx(fit.heldout["model"]["top1"])
    assert float(fit_row["player_loglik"]) == pytest.approx(
        fit.heldout["bots"]["player"]["loglik"])
    coefficients = _export(researcher_client, "strategy_coefficients")
    assert [row["feature"] for row in coefficients] == fit.features
    assert {row["cohort"] for row in coefficients} == {"all"}
    assert {row["split_cohort"] for row in coefficients} == {""}
    assert fit_row["cohort_lr"] == fit_row["cohort_lr_p"] == ""


def test_a_split_fit_exports_each_cohorts_weights_and_its_test(
    researcher_client: Client,
) -> None:
    for n, variant in enumerate(["z10", "phi_lambda"] * 2):
        game = GameFactory.create(size=5, noise_budget=3.0, seed=450 + n, variant=variant)
        play_randomly(game, 10, seed=n)
    fit = strategy_fit_create(cohort="variant", folds=2, seed=1, permutations=10)
    [fit_row] = _export(researcher_client, "strategy_fits")
    assert fit_row["cohort"] == "variant"
    test = fit.by_cohort["test"]  # type: ignore[index]
    assert float(fit_row["cohort_lr"]) == pytest.approx(test["lr"])
    assert int(fit_row["cohort_lr_df"]) == test["df"]
    assert float(fit_row["cohort_permutation_p"]) == pytest.approx(test["permutation_p"])
    assert test["wald_p"] is None, test  # four players cannot support a clustered test
    assert fit_row["cohort_wald_p"] == ""
    coefficients = _export(researcher_client, "strategy_coefficients")
    assert {row["split_cohort"] for row in coefficients} == {"", "z10", "phi_lambda"}
    for cohort in fit.by_cohort["cohorts"]:  # type: ignore[index]
        assert [row["feature"] for row in coefficients
                if row["split_cohort"] == cohort["name"]] == [
            entry["name"] for entry in cohort["features"]]


def test_predictions_carry_the_pseudonym_and_only_moves_of_research_data(
    researcher_client: Client, settings
) -> None:
    settings.DECODOKU_PSEUDONYM_KEY = "a-test-key-for-pseudonyms"
    games = _people(3)
    unconsented = GameFactory.create(size=5, noise_budget=3.0, seed=499,
                                     player=PlayerFactory.create(consent_version=None))
    play_randomly(unconsented, 10, seed=9)
    finish(unconsented)
    strategy_fit_create(folds=3, seed=1)
    assert not StrategyPrediction.objects.filter(game=unconsented).exists()
    rows = _export(researcher_client, "strategy_predictions")
    assert {row["game_id"] for row in rows} == {str(g.pk) for g in games}
    assert {row["player"] for row in rows} == {pseudonym(g.player_id) for g in games}
    # A game that stops being research data after the fit takes its moves out with it.
    games_set_excluded(game_ids=[games[0].pk], excluded=True, reason="a test")
    rows = _export(researcher_client, "strategy_predictions")
    assert str(games[0].pk) not in {row["game_id"] for row in rows}
    assert StrategyFit.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_a_fit_stored_before_it_its_coefficient_rows() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("results", "0007_strategy_fits")])
        old_fit = executor.loader.project_state(
            [("results", "0007_strategy_fits")]).apps.get_model("results", "StrategyFit")
        coefficients = [{"name": "group_size", "coef": 0.5, "se": 0.1, "lower": 0.3,
                         "upper": 0.7},
                        {"name": "urgency", "coef": -1.0, "se": 0.5, "lower": -2.0,
                         "upper": 0.0}]
        fit = old_fit.objects.create(
            data_cutoff=10, feature_set_version=1, model_version=1,
            features=["group_size", "urgency"], cohort="", folds=2, seed=0, player_cap=500,
            n_moves=4, n_players=2, n_games=2, loglik=-3.0, coefficients=coefficients,
            heldout={},
        )
        executor = MigrationExecutor(connection)
        executor.migrate([("results", "0008_strategy_predictions")])
        # The rows as that migration left them (later migrations add columns).
        rows_then = executor.loader.project_state(
            [("results", "0008_strategy_predictions")]).apps.get_model(
            "results", "StrategyCoefficient")
        rows = rows_then.objects.filter(fit_id=fit.pk).order_by("position")
        assert [(r.feature, r.coef, r.se, r.lower, r.upper) for r in rows] == [
            ("group_size", 0.5, 0.1, 0.3, 0.7), ("urgency", -1.0, 0.5, -2.0, 0.0)]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
