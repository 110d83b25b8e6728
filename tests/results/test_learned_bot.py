"""The learned bot through the services: weights of a stored fit, the fit's id its version."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.engine import Game as EngineGame
from games.engine import RuleSet, Variant
from games.engine.bots import get_bot
from games.engine.bots.player import WEIGHTS
from games.engine.families import play_shot, shot_seed, threshold_rules
from games.engine.strategy import FEATURE_NAMES, FEATURE_SET_VERSION
from games.models import Event, Game
from games.recording import event_dicts
from games.selectors import game_events
from results.models import StrategyFit, Sweep, SweepGame, SweepPoint
from results.selectors import bot_weights, learned_weights
from results.services import (
    SweepError,
    bot_play_game,
    sweep_create,
    sweep_start,
    threshold_sweep_create,
)

pytestmark = pytest.mark.django_db

# Weights of the kind a fit to people's moves gives (landing on numbers, a
# step toward the partner, crowded numbers moved less); one feature left out.
PEOPLE = {"sure_annihilation": 5.4, "possible_annihilation": 7.7, "fuse_same_group": 3.2,
          "merge_groups": 2.7, "partner_gain": 0.3, "partner_distance": -0.065,
          "urgency": 0.72, "helpful_neighbours": 0.92, "number_neighbours": -1.5,
          "destination_neighbours": -0.39}
# Weights that play differently: the player bot's.
CAUTIOUS = {name: w for name, w in zip(FEATURE_NAMES, WEIGHTS, strict=True) if w}


def stored_fit(coefficients: dict[str, float], *, cohort: str = "", data_cutoff: int = 100,
               feature_set_version: int = FEATURE_SET_VERSION) -> StrategyFit:
    """A stored fit with these coefficients (its other figures do not matter to the bot)."""
    return StrategyFit.objects.create(
        data_cutoff=data_cutoff, feature_set_version=feature_set_version, model_version=1,
        features=list(coefficients), cohort=cohort, folds=3, seed=0, player_cap=500,
        n_moves=100, n_players=3, n_games=3, loglik=-200.0,
        coefficients=[{"name": name, "coef": coef, "se": 0.1, "lower": coef - 0.2,
                       "upper": coef + 0.2} for name, coef in coefficients.items()],
        heldout={},
    )


def recorded_moves(game: Game) -> list[tuple[int, int, int, int]]:
    return [
        (int(a), int(b), int(c), int(d))  # type: ignore[arg-type]
        for a, b, c, d in Event.objects.filter(game=game, kind="move").order_by("seq")
        .values_list("from_row", "from_col", "to_row", "to_col")
    ]


def replayed(game: Game) -> EngineGame:
    """The recorded game played again by the bot and version it names, from its seed."""
    assert game.seed is not None
    weights = bot_weights(bot_name=game.bot_name, fit_id=int(game.bot_version))
    bot = get_bot(game.bot_name, seed=game.seed, weights=weights)
    engine = EngineGame(game.rules, game.seed)
    while not engine.over and engine.moves_made < game.moves_count:
        engine.move(*bot.choose(engine))
    return engine


def test_the_weights_are_the_fits_coefficients_and_unfitted_features_weigh_zero() -> None:
    fit = stored_fit(PEOPLE)
    weights = learned_weights(fit_id=fit.pk)
    assert weights.fit_id == fit.pk
    assert dict(zip(FEATURE_NAMES, weights.values, strict=True)) == {
        name: PEOPLE.get(name, 0.0) for name in FEATURE_NAMES
    }


def test_by_default_the_latest_fit_of_all_games_plays() -> None:
    older = stored_fit(PEOPLE, data_cutoff=100)
    newer = stored_fit(CAUTIOUS, data_cutoff=200)
    stored_fit(PEOPLE, cohort="z10", data_cutoff=300)  # another cohort's fit is not taken
    assert learned_weights().fit_id == newer.pk
    assert learned_weights(fit_id=older.pk).fit_id == older.pk


@pytest.mark.parametrize(("rules", "seed"), [
    (RuleSet(size=6, noise_budget=4.0), 11),
    (RuleSet(size=6, variant=Variant.PHI_LAMBDA, noise_budget=4.0), 12),
])
def test_a_learned_game_records_its_fit_and_replays_bit_for_bit(rules: RuleSet, seed: int) -> None:
    fit = stored_fit(PEOPLE)
    stored_fit(CAUTIOUS, data_cutoff=50)  # an older fit: not the default
    game = bot_play_game(bot_name="learned", rules=rules, seed=seed, max_moves=150)
    assert (game.source, game.bot_name, game.bot_version) == (Game.Source.BOT, "learned",
                                                              str(fit.pk))
    assert game.moves_count > 20
    again = replayed(game)
    assert again.moves_made == game.moves_count
    assert again.t == game.score
    stored = json.loads(json.dumps(event_dicts(game_events(game=game))))
    played = json.loads(json.dumps([event.to_dict() for event in again.events]))
    # Every event the engine regenerates is stored as it was (the stored game ends
    # with the abandonment at the move limit, which is not the bot's).
    assert stored[:len(played)] == played
    assert [e["kind"] for e in stored[len(played):]] in ([], ["abandon"], ["end"])


def test_games_of_two_fits_differ_and_each_replays_with_its_own_weights() -> None:
    people, cautious = stored_fit(PEOPLE), stored_fit(CAUTIOUS)
    rules = RuleSet(size=7, noise_budget=5.0)
    one = bot_play_game(bot_name="learned", rules=rules, seed=3, max_moves=120,
                        fit_id=people.pk)
    other = bot_play_game(bot_name="learned", rules=rules, seed=3, max_moves=120,
                          fit_id=cautious.pk)
    assert (one.bot_version, other.bot_version) == (str(people.pk), str(cautious.pk))
    assert recorded_moves(one) != recorded_moves(other)
    for game in (one, other):
        again = replayed(game)
        assert recorded_moves(game) == [
            (e.from_row, e.from_col, e.to_row, e.to_col)  # type: ignore[attr-defined]
            for e in again.events if e.kind == "move"
        ]


def test_without_a_fit_the_learned_bot_is_refused_and_nothing_is_stored() -> None:
    with pytest.raises(ValueError, match="no strategy fit of cohort 'all' is stored"):
        bot_play_game(bot_name="learned", rules=RuleSet(size=5), seed=1)
    assert not Game.objects.exists()


def test_a_fit_that_does_not_exist_or_cannot_play_is_refused() -> None:
    fit = stored_fit(PEOPLE)
    with pytest.raises(ValueError, match=f"there is no strategy fit {fit.pk + 1}"):
        bot_play_game(bot_name="learned", rules=RuleSet(size=5), seed=1, fit_id=fit.pk + 1)
    old = stored_fit(PEOPLE, feature_set_version=FEATURE_SET_VERSION + 1)
    with pytest.raises(ValueError, match="this engine computes feature set"):
        learned_weights(fit_id=old.pk)
    broken = stored_fit(PEOPLE)
    broken.coefficients[0]["coef"] = None  # a weight stored as null (it was not finite)
    broken.save()
    with pytest.raises(ValueError, match="has no finite weight of 'sure_annihilation'"):
        learned_weights(fit_id=broken.pk)
    with pytest.raises(ValueError, match="the greedy bot plays without a fit"):
        bot_play_game(bot_name="greedy", rules=RuleSet(size=5), seed=1, fit_id=fit.pk)
    assert not Game.objects.exists()


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_bot_play_takes_a_fit_and_says_which_one_played() -> None:
    fit = stored_fit(PEOPLE)
    out = run("bot_play", "--bot", "learned", "--games", "2", "--size", "5", "--seed", "4",
              "--max-moves", "30", "--fit", str(fit.pk))
    assert f"learned (fit {fit.pk}) played 2 games" in out
    assert set(Game.objects.values_list("bot_name", "bot_version")) == {("learned", str(fit.pk))}


@pytest.mark.parametrize(("arguments", "message"), [
    (["--bot", "learned"], "no strategy fit of cohort 'all' is stored"),
    (["--bot", "learned", "--fit", "999"], "there is no strategy fit 999"),
    (["--bot", "greedy", "--fit", "1"], "the greedy bot plays without a fit"),
])
def test_bot_play_refuses_a_missing_fit_in_one_line(arguments: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("bot_play", "--size", "5", "--seed", "1", *arguments)
    assert not Game.objects.exists()


def test_a_one_shot_sweep_of_the_learned_bot_records_the_fit_and_its_shots_replay() -> None:
    stored_fit(CAUTIOUS, data_cutoff=10)
    fit = stored_fit(PEOPLE, data_cutoff=20)
    sweep = threshold_sweep_create(family="one_shot", bots=["learned", "player"], sizes=[5],
                                   rates=[0.15, 0.3], shots_per_point=4, seed=8)
    assert dict(SweepPoint.objects.filter(sweep=sweep).values_list("bot_name", "bot_version")
                ) == {"learned": fit.pk, "player": 1}
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.DONE
    weights = learned_weights(fit_id=fit.pk)
    shots = SweepGame.objects.filter(chunk__point__sweep=sweep, chunk__point__bot_name="learned")
    assert shots.count() == 8
    for shot in shots.select_related("chunk__point"):
        point = shot.chunk.point
        assert point.rate is not None
        seed = shot_seed(seed=8, size=5, rate=point.rate, shot=shot.game_index)
        again = play_shot(rules=threshold_rules(family="one_shot", size=5, rate=point.rate),
                          bot="learned", seed=seed, max_rounds=sweep.max_rounds, weights=weights)
        assert (shot.moves, shot.lost, shot.censored) == (again.moves, again.failed,
                                                           again.censored)


def test_a_sustained_sweep_and_a_budget_sweep_take_an_explicit_fit() -> None:
    fit = stored_fit(PEOPLE, data_cutoff=10)
    stored_fit(CAUTIOUS, data_cutoff=20)
    sustained = sweep_start(sweep=threshold_sweep_create(
        family="sustained", bots=["learned"], sizes=[4], rates=[0.1], shots_per_point=2,
        seed=3, moves_per_cell=0.5, max_rounds=15, fit_id=fit.pk))
    budget = sweep_start(sweep=sweep_create(bots=["learned"], sizes=[4], budgets=[3.0],
                                            games_per_point=2, seed=3, max_rounds=15,
                                            fit_id=fit.pk))
    for sweep in (sustained, budget):
        assert sweep.status == Sweep.Status.DONE, sweep.error
        (point,) = SweepPoint.objects.filter(sweep=sweep)
        assert (point.bot_name, point.bot_version, point.games_done) == ("learned", fit.pk, 2)


@pytest.mark.parametrize(("grid", "message"), [
    ({"family": "one_shot", "bots": ["learned"]}, "no strategy fit of cohort 'all' is stored"),
    ({"family": "one_shot", "bots": ["learned"], "fit_id": 999}, "there is no strategy fit 999"),
    ({"family": "one_shot", "bots": ["greedy"], "fit_id": 1}, "--fit belongs to the learned"),
    ({"family": "planar", "bots": ["learned"], "modulus": 2}, "unknown planar decoder 'learned'"),
])
def test_a_sweep_without_a_fit_to_play_is_refused(grid: dict[str, Any], message: str) -> None:
    with pytest.raises(SweepError, match=message):
        threshold_sweep_create(**grid, sizes=[4], rates=[0.1], shots_per_point=2, seed=1)
    assert not Sweep.objects.exists()


def test_the_threshold_command_takes_fit_and_refuses_a_missing_one() -> None:
    with pytest.raises(CommandError, match="there is no strategy fit 5"):
        run("threshold", "--family", "one-shot", "--bots", "learned", "--sizes", "4",
            "--rates", "0.1", "--shots", "2", "--seed", "1", "--fit", "5", "--no-progress")
    fit = stored_fit(PEOPLE)
    out = run("threshold", "--family", "one-shot", "--bots", "learned,greedy", "--sizes", "4,5",
              "--rates", "0.1,0.3", "--shots", "3", "--seed", "1", "--fit", str(fit.pk),
              "--no-progress")
    assert "learned:" in out
    assert set(SweepPoint.objects.filter(bot_name="learned").values_list("bot_version",
                                                                         flat=True)) == {fit.pk}
