"""The test kit itself: it must catch what it is meant to catch."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import Game, GroupMerge, NoiseError, RandomPolicy, RuleSet, play

from .engine_testkit import (
    EventChecker,
    ReferenceGame,
    ScriptedRng,
    check_board,
    error_draws,
    spanning_scan,
)


def lost_game(seed: int = 2) -> Game:
    game = play(Game(RuleSet(size=5, noise_budget=4), seed), RandomPolicy(seed))
    assert any(isinstance(e, GroupMerge) and e.cause == "noise" for e in game.events)
    return game


def check_stream(rules: RuleSet, events: list) -> None:
    checker = EventChecker(rules)
    checker.feed_all(events)
    checker.finish()


def test_the_checker_accepts_a_real_game() -> None:
    game = lost_game()
    check_stream(game.rules, game.events)


def test_the_checker_catches_a_wrong_value() -> None:
    game = lost_game()
    events = list(game.events)
    i, noise = next((k, e) for k, e in enumerate(events) if isinstance(e, NoiseError))
    events[i] = dataclasses.replace(noise, value1_after=(noise.value1_after + 1) % 10)
    with pytest.raises(AssertionError):
        check_stream(game.rules, events)


def test_the_checker_catches_a_merge_out_of_causal_order() -> None:
    game = lost_game()
    events = list(game.events)
    i = next(
        k for k, e in enumerate(events) if isinstance(e, GroupMerge) and e.cause == "noise"
    )
    events[i - 1], events[i] = events[i], events[i - 1]
    with pytest.raises(AssertionError, match="merge"):
        check_stream(game.rules, events)


def test_the_checker_catches_a_missing_loss() -> None:
    game = lost_game()
    with pytest.raises(AssertionError, match="loss"):
        check_stream(game.rules, game.events[:-1])


def test_the_checker_catches_a_round_stopped_too_early() -> None:
    game = lost_game()
    events = list(game.events)
    i = next(k for k, e in enumerate(events) if e.kind == "round_end")
    del events[i - 1]  # drop the round's last error
    with pytest.raises(AssertionError):
        check_stream(game.rules, events)


def test_check_board_catches_a_group_not_summing_to_zero() -> None:
    check_board([3, 7, 0], [1, 1, 0])
    with pytest.raises(AssertionError, match="0 mod 10"):
        check_board([3, 6, 0], [1, 1, 0])
    with pytest.raises(AssertionError, match="group"):
        check_board([3, 7, 0], [1, 1, 1])


def test_spanning_scan_reads_both_axes() -> None:
    assert spanning_scan(3, [1, 0, 0, 0, 0, 0, 1, 0, 0]) == {1: "top_bottom"}
    assert spanning_scan(3, [0, 0, 0, 2, 0, 2, 0, 0, 0]) == {2: "left_right"}
    assert spanning_scan(3, [3, 0, 0, 0, 0, 0, 0, 0, 3]) == {3: "both"}
    assert spanning_scan(3, [1, 1, 0, 1, 1, 0, 0, 0, 0]) == {}


def test_the_scripted_generator_checks_every_range() -> None:
    rng = ScriptedRng([(25, 3), (2, 1)])
    assert rng.below(25) == 3
    with pytest.raises(AssertionError, match="below"):
        rng.below(9)
    rng = ScriptedRng([])
    with pytest.raises(AssertionError, match="unscripted"):
        rng.below(2)


def test_error_draws_refuses_cells_that_are_not_neighbours() -> None:
    with pytest.raises(AssertionError):
        error_draws(5, (0, 0), (1, 1), 3)


def test_the_reference_game_plays_a_known_game_like_the_engine() -> None:
    rules = RuleSet(size=6, noise_budget=5)
    game = Game(rules, 8)
    reference = ReferenceGame(rules, 8)
    policy = RandomPolicy(8)
    while not game.over:
        move = policy.choose(game)
        game.move(*move)
        reference.move(*move)
        assert game.values == tuple(reference.values)
    assert game.loss is not None
    assert reference.lost_at == game.loss.t
