"""The learned bot: the features weighed by a fit's coefficients, the fit's id its version."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, RuleSet, Variant, play
from games.engine.bots import (
    BOT_NAMES,
    BOTS,
    UNKNOWN,
    WEIGHTED_BOTS,
    LearnedWeights,
    LearnedWeightsError,
    PlayerBot,
    get_bot,
    learned_bot,
    same_effect,
)
from games.engine.bots.board import geometry, tie_breaker, tie_state
from games.engine.bots.player import WEIGHTS
from games.engine.families import Family, bot_seed, decode, play_shot, threshold_rules
from games.engine.strategy import FEATURE_NAMES, FEATURE_SET_VERSION, move_features

PLAYER_AS_FIT = dict(zip(FEATURE_NAMES, WEIGHTS, strict=True))

boards = st.integers(min_value=3, max_value=10).flatmap(
    lambda size: st.tuples(
        st.just(size),
        st.lists(
            st.one_of(st.just(0), st.just(0), st.integers(min_value=1, max_value=9)),
            min_size=size * size, max_size=size * size,
        ),
        st.booleans(),
        st.integers(min_value=0, max_value=2**64 - 1),
    )
)
weight_vectors = st.lists(
    st.floats(min_value=-20, max_value=20, allow_nan=False, allow_subnormal=False),
    min_size=len(FEATURE_NAMES), max_size=len(FEATURE_NAMES),
)


def weights_of(coefficients: dict[str, float], fit_id: int = 7) -> LearnedWeights:
    return LearnedWeights.of(fit_id=fit_id, coefficients=coefficients,
                             feature_set_version=FEATURE_SET_VERSION)


def seen_of(board: tuple[int, list[int], bool, int]) -> tuple[tuple[int, ...], int, int]:
    size, values, phi_lambda, seed = board
    if phi_lambda:
        values = [v if v in (0, 5) else UNKNOWN for v in values]
    return tuple(values), size, seed


def test_the_learned_bot_is_registered_apart_from_the_bots_made_from_a_seed_alone() -> None:
    assert set(WEIGHTED_BOTS) == {"learned"}
    assert "learned" not in BOTS
    assert tuple(sorted({*BOTS, "learned"})) == BOT_NAMES


def test_the_version_is_the_fit_id_and_the_name_is_learned() -> None:
    bot = get_bot("learned", seed=3, weights=weights_of(PLAYER_AS_FIT, fit_id=42))
    assert (bot.name, bot.version, bot.seed) == ("learned", 42, 3)
    other = get_bot("learned", seed=3, weights=weights_of(PLAYER_AS_FIT, fit_id=43))
    assert other.version == 43
    assert bot.version == 42  # a second fit does not change the first bot's version


def test_the_learned_bot_needs_weights_and_no_other_bot_takes_any() -> None:
    with pytest.raises(LearnedWeightsError, match="weights of a stored fit"):
        get_bot("learned", seed=0)
    with pytest.raises(ValueError, match="plays without weights"):
        get_bot("greedy", seed=0, weights=weights_of({}))
    with pytest.raises(ValueError, match="the planar decoders play without weights"):
        play_shot(rules=threshold_rules(family=Family.PLANAR, size=3, rate=0.1, modulus=10),
                  bot="matching", seed=1, weights=weights_of({}))


def test_unfitted_features_weigh_zero() -> None:
    weights = weights_of({"sure_annihilation": 3.5, "partner_gain": 1})
    expected = [3.5 if n == "sure_annihilation" else 1.0 if n == "partner_gain" else 0.0
                for n in FEATURE_NAMES]
    assert list(weights.values) == expected
    assert all(isinstance(v, float) for v in weights.values)


@pytest.mark.parametrize(("coefficients", "version", "fit_id", "message"), [
    ({"no_such_feature": 1.0}, FEATURE_SET_VERSION, 1, "unknown features: no_such_feature"),
    ({"urgency": math.nan}, FEATURE_SET_VERSION, 1, "weight of urgency is not a finite"),
    ({"urgency": math.inf}, FEATURE_SET_VERSION, 1, "weight of urgency is not a finite"),
    ({"urgency": "1"}, FEATURE_SET_VERSION, 1, "weight of urgency is not a finite"),
    ({}, FEATURE_SET_VERSION + 1, 1, "this engine computes feature set"),
    ({}, FEATURE_SET_VERSION, 0, "fit id must be an integer from 1"),
    ({}, FEATURE_SET_VERSION, 40000, "fit id must be an integer from 1"),
    ({}, FEATURE_SET_VERSION, True, "fit id must be an integer from 1"),
])
def test_weights_that_cannot_be_played_are_refused(coefficients, version, fit_id, message) -> None:
    with pytest.raises(LearnedWeightsError, match=message):
        LearnedWeights.of(fit_id=fit_id, coefficients=coefficients, feature_set_version=version)


@given(board=boards)
@settings(max_examples=150, deadline=None)
def test_with_the_player_weights_it_scores_every_move_as_the_player_bot(
    board: tuple[int, list[int], bool, int],
) -> None:
    seen, size, seed = seen_of(board)
    geo = geometry(size)
    learned = learned_bot(weights_of(PLAYER_AS_FIT))(seed)
    assert (learned.score(seen, geo, tie_breaker(seed, seen))
            == PlayerBot(seed).score(seen, geo, tie_breaker(seed, seen)))


@pytest.mark.parametrize(("rules", "seed"), [
    (RuleSet(), 20160328),
    (RuleSet(size=9, variant=Variant.PHI_LAMBDA, noise_budget=4.5), 99),
])
def test_with_the_player_weights_it_plays_the_player_bots_games(rules: RuleSet, seed: int) -> None:
    learned = play(Game(rules, seed), get_bot("learned", seed=3, weights=weights_of(PLAYER_AS_FIT)),
                   max_moves=300)
    player = play(Game(rules, seed), get_bot("player", seed=3), max_moves=300)
    assert learned.events == player.events
    assert learned.moves_made > 50


@given(board=boards, weights=weight_vectors)
@settings(max_examples=150, deadline=None)
def test_its_choice_has_the_highest_weighted_sum_of_features(
    board: tuple[int, list[int], bool, int], weights: list[float],
) -> None:
    seen, size, seed = seen_of(board)
    geo = geometry(size)
    features = move_features(seen, geo)
    coefficients = dict(zip(FEATURE_NAMES, weights, strict=True))
    bot = learned_bot(weights_of(coefficients))(seed)
    best = bot.best(seen, geo, tie_state(seed, seen))
    if not features.moves:
        assert best is None
        return
    scores = features.matrix() @ np.array(weights)
    chosen = scores[features.moves.index(best)]
    assert chosen >= scores.max() - 1e-9 * (1 + np.abs(scores).max())


def test_a_shot_replays_from_its_seed_with_the_same_weights() -> None:
    weights = weights_of({"sure_annihilation": 4.0, "partner_gain": 0.5, "number_neighbours": -1.5,
                          "helpful_neighbours": 0.9})
    rules = threshold_rules(family=Family.ONE_SHOT, size=7, rate=0.15)
    for seed in (1, 2, 3):
        shot = play_shot(rules=rules, bot="learned", seed=seed, weights=weights)
        game = Game(rules, seed)
        decode(game, get_bot("learned", seed=bot_seed(seed), weights=weights), max_moves=3 * 49)
        assert (shot.failed, shot.moves) == (game.loss is not None, game.moves_made)
        assert shot.moves > 0


def test_its_ranking_counts_the_two_directions_of_an_annihilation_once() -> None:
    rules = RuleSet(size=3)
    values = (0, 0, 0,
              0, 3, 7,
              0, 0, 0)
    bot = get_bot("learned", seed=5, weights=weights_of({"sure_annihilation": 10.0}))
    ranked = bot.rank(values, 3, rules, k=3)
    assert same_effect(values, 3, rules, ranked[0], (1, 1, 1, 2))
    assert not any(same_effect(values, 3, rules, ranked[0], other) for other in ranked[1:])
    again = get_bot("learned", seed=5, weights=weights_of({"sure_annihilation": 10.0}))
    assert again.rank(values, 3, rules, k=3) == ranked
