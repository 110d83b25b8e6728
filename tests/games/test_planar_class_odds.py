"""A finished planar game stores the odds of the class it ended in and of the most likely one."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.planar import PlanarGame, get_decoder
from games.engine.planar.odds import class_odds, ended_class
from games.engine.planar.optimal import posterior
from games.engine.rules import Family, RuleSet
from games.models import Game
from games.services import game_abandon, planar_bot_game
from games.services.odds import game_first_board, planar_class_odds_backfill
from tests.factories import PlanarGameFactory, play_planar

pytestmark = pytest.mark.django_db


def _played(rules: RuleSet, seed: int, decoder: str) -> PlanarGame:
    game = PlanarGame(rules, seed, record=False)
    for move in get_decoder(decoder).plan(game.values, size=game.size, modulus=game.modulus,
                                          rate=rules.error_rate):
        game.move(*move)
    return game


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), modulus=st.sampled_from([2, 3, 5]))
def test_the_optimal_decoders_class_is_always_a_most_likely_one(seed: int, modulus: int) -> None:
    rules = RuleSet(size=3, family=Family.PLANAR, modulus=modulus, error_rate=0.2)
    game = _played(rules, seed, "optimal")
    assert game.charge is not None
    odds = class_odds(PlanarGame(rules, seed, record=False), charge=game.charge)
    assert odds is not None
    assert odds.chose_best
    assert odds.odds == pytest.approx(odds.best_odds)


def test_a_game_that_succeeds_ended_in_the_noises_own_class() -> None:
    # The corrections undo the noise's class exactly when the final charge is 0.
    assert ended_class(noise_charge=2, charge=0, modulus=3) == 2
    assert ended_class(noise_charge=2, charge=1, modulus=3) == 1
    assert ended_class(noise_charge=0, charge=1, modulus=3) == 2


def test_a_finished_planar_game_stores_its_class_odds_from_its_first_board() -> None:
    game = play_planar(PlanarGameFactory.create(size=4, modulus=3, error_rate=0.15, seed=17))
    assert game.status == Game.Status.FINISHED
    first = game_first_board(game=game)
    assert first is not None
    probabilities = posterior(first.values, size=4, modulus=3, rate=0.15)
    noise_charge = first.to_state()["crossings"][0]
    chosen = (noise_charge - game.logical_charge) % 3
    game.refresh_from_db()
    assert game.class_odds == pytest.approx(float(probabilities[chosen]))
    assert game.best_class_odds == pytest.approx(float(probabilities.max()))


def test_a_decoder_that_is_not_optimal_can_end_in_a_less_likely_class() -> None:
    # Seed 10 at d = 3, L = 4, p = 0.15: clustering undoes a class of probability 0.137
    # where the most likely has 0.718 (the optimal decoder's game).
    rules = RuleSet(size=4, family=Family.PLANAR, modulus=3, error_rate=0.15)
    clustering = planar_bot_game(rules=rules, bot_name="clustering", seed=10)
    optimal = planar_bot_game(rules=rules, bot_name="optimal", seed=10)
    assert clustering.class_odds is not None
    assert optimal.class_odds is not None
    assert clustering.best_class_odds is not None
    assert clustering.class_odds < clustering.best_class_odds
    assert optimal.class_odds == pytest.approx(optimal.best_class_odds)
    assert clustering.best_class_odds == pytest.approx(optimal.best_class_odds)


def test_an_abandoned_planar_game_has_no_class_odds() -> None:
    game = play_planar(PlanarGameFactory.create(size=4, modulus=2, error_rate=0.2, seed=3), moves=1)
    game = game_abandon(game_id=game.pk, player=game.player)
    assert game.status == Game.Status.ABANDONED
    assert game.class_odds is None
    assert game.best_class_odds is None


def test_a_board_beyond_the_exact_computation_keeps_its_odds_empty() -> None:
    # d = 10, L = 7: 10^7 transfer states, above the exact contraction's 2^20.
    game = play_planar(PlanarGameFactory.create(size=7, modulus=10, error_rate=0.05, seed=8))
    assert game.status == Game.Status.FINISHED
    game.refresh_from_db()
    assert game.class_odds is None
    assert game.best_class_odds is None


def test_the_backfill_fills_finished_planar_games_without_odds() -> None:
    finished = play_planar(PlanarGameFactory.create(size=4, modulus=2, error_rate=0.1, seed=21))
    stored = (finished.class_odds, finished.best_class_odds)
    assert None not in stored
    active = PlanarGameFactory.create(size=4, modulus=2, error_rate=0.1, seed=22)
    Game.objects.filter(pk=finished.pk).update(class_odds=None, best_class_odds=None)

    assert planar_class_odds_backfill() == 1

    finished.refresh_from_db()
    active.refresh_from_db()
    assert (finished.class_odds, finished.best_class_odds) == pytest.approx(stored)
    assert active.class_odds is None
    assert planar_class_odds_backfill() == 0


def test_the_backfill_command_reports_how_many_games_got_odds(capsys) -> None:
    game = play_planar(PlanarGameFactory.create(size=3, modulus=2, error_rate=0.1, seed=5))
    Game.objects.filter(pk=game.pk).update(class_odds=None, best_class_odds=None)
    call_command("backfill_class_odds")
    assert "class odds stored for 1 planar games" in capsys.readouterr().out
    game.refresh_from_db()
    assert game.class_odds is not None


def test_the_admin_game_page_shows_the_class_odds(admin_client) -> None:
    game = play_planar(PlanarGameFactory.create(size=4, modulus=2, error_rate=0.1, seed=21))
    assert game.class_odds is not None
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Best class odds" in page
    assert str(game.class_odds)[:6] in page
