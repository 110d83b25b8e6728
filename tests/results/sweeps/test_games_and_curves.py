"""Sweep games are replayable from their seed; point curves against hand values and lifelines."""

from __future__ import annotations

import numpy as np
import pytest
from lifelines import KaplanMeierFitter

from games.engine import Game, RuleSet, play_shot, replay
from games.engine.bots import get_bot
from results.analysis.sweeps import curve, game_seed, point_stats


def test_game_seeds_are_stable_distinct_and_fit_the_seed_column():
    seeds = {
        game_seed(sweep_seed=1, bot_name=bot, size=size, noise_budget=budget, index=i)
        for bot in ("greedy", "clustering")
        for size in (5, 7)
        for budget in (4.0, 6.0)
        for i in range(50)
    }
    assert len(seeds) == 2 * 2 * 2 * 50
    assert all(0 <= s < 2**63 for s in seeds)
    one = game_seed(sweep_seed=1, bot_name="greedy", size=5, noise_budget=4, index=3)
    assert one == game_seed(sweep_seed=1, bot_name="greedy", size=5, noise_budget=4.0, index=3)
    assert one != game_seed(sweep_seed=2, bot_name="greedy", size=5, noise_budget=4.0, index=3)


@pytest.mark.parametrize("bot", ["random", "greedy", "clustering", "player"])
def test_a_sweep_game_replays_exactly_from_bot_rules_and_seed(bot):
    rules = RuleSet(size=6, noise_budget=6.0)
    seed = game_seed(sweep_seed=9, bot_name=bot, size=6, noise_budget=6.0, index=0)
    outcome = play_shot(rules=rules, bot=bot, seed=seed, max_rounds=1000)
    # Play it again move by move with a recording engine and replay those moves.
    game = Game(rules, seed, record=True)
    player = get_bot(bot, seed=seed)
    moves = []
    while not game.over:
        moves.append(player.choose(game))
        game.move(*moves[-1])
    again = replay(rules, seed, moves, engine_version=game.engine_version)
    assert outcome.failed
    assert not outcome.censored
    assert outcome.seed == seed
    assert (outcome.rounds, outcome.moves, outcome.score) == (again.round, len(moves), again.t)
    assert again.loss is not None
    assert again.loss.round == outcome.rounds


def test_a_game_alive_after_max_rounds_is_censored_there():
    rules = RuleSet(size=9, noise_budget=3.0)
    outcome = play_shot(rules=rules, bot="clustering", seed=1, max_rounds=20)
    assert not outcome.failed
    assert outcome.censored
    assert outcome.rounds == 20
    assert outcome.score >= 19 * rules.moves_per_round


def test_the_curve_by_hand():
    # Games lost in rounds 1, 2, 2 and one censored after round 3.
    rows = curve([1, 2, 2, 3], [True, True, True, False])
    assert [(r.round, r.at_risk, r.events, r.censored) for r in rows] == [
        (1, 4, 1, 0), (2, 3, 2, 0), (3, 1, 0, 1),
    ]
    # S(1) = 3/4; S(2) = 3/4 * 1/3 = 1/4; no loss in round 3, so S(3) = 1/4.
    assert [r.survival for r in rows] == pytest.approx([0.75, 0.25, 0.25])
    assert [r.hazard for r in rows] == pytest.approx([0.25, 2 / 3, 0.0])
    # Wilson interval of 0 successes in 1 trial: (0, z^2 / (1 + z^2)),
    # z^2 / (1 + z^2) = 3.841459 / 4.841459 = 0.793451.
    assert rows[2].hazard_ci_low == 0.0
    assert rows[2].hazard_ci_high == pytest.approx(0.793451, abs=1e-6)


def test_the_curve_fills_rounds_without_a_loss_and_matches_lifelines():
    rng = np.random.default_rng(5)
    durations = [int(d) for d in rng.geometric(0.08, size=300)]
    observed = [bool(o) for o in rng.random(300) < 0.85]
    rows = curve(durations, observed)
    assert [r.round for r in rows] == list(range(1, max(durations) + 1))
    kmf = KaplanMeierFitter().fit(durations, observed)
    expected = kmf.survival_function_at_times([r.round for r in rows]).to_numpy()
    assert [r.survival for r in rows] == pytest.approx(list(expected), abs=1e-12)
    band = kmf.confidence_interval_survival_function_
    for r in rows:
        if r.events:
            low, high = band.loc[float(r.round)]
            assert (r.ci_low, r.ci_high) == pytest.approx((low, high), abs=1e-6)
    at_risk = kmf.event_table["at_risk"]
    for r in rows:
        if float(r.round) in at_risk.index:
            assert r.at_risk == at_risk.loc[float(r.round)]


def test_point_stats_mean_and_median_match_numpy_without_censoring():
    rng = np.random.default_rng(8)
    durations = [int(d) for d in rng.geometric(0.1, size=201)]
    stats = point_stats(durations, [True] * len(durations), n_resamples=300)
    assert stats.summary.mean == pytest.approx(float(np.mean(durations)))
    # The Kaplan-Meier median is the first time S drops to 0.5 or below.
    ordered = sorted(durations)
    assert stats.summary.median == ordered[(len(ordered) - 1) // 2]
    assert stats.summary.mean_lower < stats.summary.mean < stats.summary.mean_upper
    assert stats.plateau is not None
    # A geometric lifetime has a constant hazard: the plateau finds p = 0.1.
    assert stats.plateau.lower95 < 0.1 < stats.plateau.upper95
