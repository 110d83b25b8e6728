"""The clock: moves, noise rounds, the loss check, jumping ahead, the first board."""

from __future__ import annotations

import pytest

import games.engine.game as game_module
from games.engine import (
    EngineError,
    Game,
    JumpAhead,
    Loss,
    NoiseRoundStarted,
    RandomPolicy,
    Regenerated,
    RuleSet,
)

from .engine_testkit import EventChecker, ScriptedRng, error_draws, grid, position, script


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# -- noise rounds follow every moves_per_round-th move --------------------------------


@pytest.mark.parametrize(("per_round", "seed"), [(5, 3), (3, 8), (1, 2)])
def test_a_noise_round_follows_every_round_of_moves(per_round: int, seed: int) -> None:
    game = Game(RuleSet(size=12, noise_budget=1, moves_per_round=per_round), seed)
    policy = RandomPolicy(seed)
    for expected_t in range(1, 16):
        before = len(game.events)
        events = game.move(*policy.choose(game))
        assert game.events[before:] == events
        assert events[0].kind == "move"
        assert events[0].t == game.t == expected_t
        assert game.moves_made == expected_t
        starts = [e for e in events if isinstance(e, NoiseRoundStarted)]
        if expected_t % per_round == 0:
            assert starts == [NoiseRoundStarted(expected_t, expected_t // per_round + 1)]
            assert kinds(events)[-1] == "round_end"
        else:
            assert starts == []
    assert not game.over
    assert game.round == 15 // per_round + 1


def test_no_random_draw_happens_between_rounds() -> None:
    rows = ["37000", "00000", "00000", "00000", "00000"]
    game = position(rows, rules=RuleSet(size=5, noise_budget=1))
    rng = script(game, error_draws(5, (3, 3), (3, 4), 6))
    for move in [(0, 0, 1, 0), (1, 0, 2, 0), (2, 0, 2, 1), (2, 1, 2, 2)]:
        game.move(*move)
        assert rng.position == 0
    events = game.move(0, 1, 1, 1)  # the fifth move
    assert rng.exhausted
    assert kinds(events) == ["move", "round_start", "noise", "round_end"]
    assert all(e.t == 5 for e in events)
    assert grid(game)[3] == "00064"


# -- the loss check runs after moves, not after noise -----------------------------------

# L = 3. Group 1 is the 3 over the 7 in column 0; group 2 the 2 over the 8 in column 2.
SPAN_ROWS = ["300", "702", "008"]
SPAN_LABELS = [[1, 0, 0], [1, 0, 2], [0, 0, 2]]


def span_by_noise() -> Game:
    """Move 5 annihilates group 2; the noise round then makes group 1 span."""
    game = position(SPAN_ROWS, SPAN_LABELS, rules=RuleSet(size=3, noise_budget=1), t=4)
    script(game, error_draws(3, (2, 0), (1, 0), 4))
    events = game.move(1, 2, 2, 2)
    assert kinds(events) == ["move", "round_start", "noise", "round_end"]
    assert grid(game) == ["300", "300", "400"]
    assert game.spanning_labels() == [1]
    return game


def test_a_span_made_by_noise_does_not_end_the_game() -> None:
    game = span_by_noise()
    assert not game.over
    assert game.loss is None
    assert game.t == 5


def test_breaking_a_noise_made_span_with_the_next_move_continues_the_game() -> None:
    game = span_by_noise()
    events = game.move(2, 0, 1, 0)
    assert kinds(events) == ["move"]
    assert not game.over
    assert game.spanning_labels() == []
    assert game.t == 6


def test_not_breaking_a_noise_made_span_loses_at_the_next_move() -> None:
    game = span_by_noise()
    events = game.move(0, 0, 0, 1)
    assert kinds(events) == ["move", "loss"]
    assert game.loss == Loss(t=6, round=2, group=1, axis="top_bottom", spanning_groups=1)
    assert game.over


def test_the_loss_check_comes_before_the_noise_round() -> None:
    game = position(["500", "500", "000"], rules=RuleSet(size=3, noise_budget=1), t=4)
    rng = script(game, [])  # any draw would fail
    events = game.move(1, 0, 2, 0)
    assert kinds(events) == ["move", "loss"]
    assert game.loss == Loss(t=5, round=1, group=1, axis="top_bottom", spanning_groups=1)
    assert rng.position == 0
    assert game.round == 1


# -- the loss event -------------------------------------------------------------------


def test_a_loss_names_a_left_right_span() -> None:
    game = position(["000", "550", "000"], t=1)
    game.move(1, 1, 1, 2)
    assert game.loss == Loss(t=2, round=1, group=1, axis="left_right", spanning_groups=1)


def test_a_loss_names_a_span_in_both_directions() -> None:
    rows = ["300", "070", "064"]
    labels = [[1, 0, 0], [0, 1, 0], [0, 2, 2]]
    game = position(rows, labels, t=1)
    game.move(1, 1, 2, 1)  # group 1 onto group 2: the merged group touches all four edges
    assert grid(game) == ["300", "000", "034"]
    assert game.loss == Loss(t=2, round=1, group=2, axis="both", spanning_groups=1)


def test_a_loss_counts_every_spanning_group_and_names_the_lowest_id() -> None:
    # Just after a noise round (t = 5) group 3 spans; the move makes group 4 span too.
    rows = ["305", "305", "400"]
    labels = [[3, 0, 4], [3, 0, 4], [3, 0, 0]]
    game = position(rows, labels, rules=RuleSet(size=3), t=5, round_=2)
    game.move(1, 2, 2, 2)
    assert game.loss == Loss(t=6, round=2, group=3, axis="top_bottom", spanning_groups=2)


# -- jumping ahead on an empty board -----------------------------------------------------


def test_an_empty_board_after_a_move_jumps_to_the_next_round() -> None:
    game = position(["37000"] + ["00000"] * 4, rules=RuleSet(size=5, noise_budget=1), t=2)
    script(game, error_draws(5, (2, 2), (3, 2), 1))
    events = game.move(0, 1, 0, 0)
    assert kinds(events) == ["move", "jump", "round_start", "noise", "round_end"]
    assert events[0].t == 3
    assert events[1] == JumpAhead(t=5, round=1, from_t=3, reason="empty_after_move")
    assert all(e.t == 5 for e in events[2:])
    # the two skipped moves count in the score
    assert game.t == 5
    assert game.moves_made == 3
    (move,) = game.move(2, 2, 2, 1)
    assert move.t == 6
    assert move.index == 4


def test_jumping_ahead_follows_moves_per_round() -> None:
    rules = RuleSet(size=5, noise_budget=1, moves_per_round=3)
    game = position(["37000"] + ["00000"] * 4, rules=rules, t=4)
    script(game, error_draws(5, (2, 2), (3, 2), 1))
    events = game.move(0, 1, 0, 0)
    assert events[1] == JumpAhead(t=6, round=1, from_t=5, reason="empty_after_move")
    assert game.t == 6


def test_an_empty_board_at_a_round_boundary_runs_the_round_without_a_jump() -> None:
    game = position(["37000"] + ["00000"] * 4, rules=RuleSet(size=5, noise_budget=1), t=4)
    script(game, error_draws(5, (2, 2), (3, 2), 1))
    events = game.move(0, 1, 0, 0)
    assert kinds(events) == ["move", "round_start", "noise", "round_end"]
    assert game.t == 5


def test_a_round_that_empties_the_board_skips_a_round_of_moves() -> None:
    rows = ["550", "000", "370"]
    labels = [[1, 1, 0], [0, 0, 0], [2, 2, 0]]
    game = position(rows, labels, rules=RuleSet(size=3, noise_budget=0.1), t=4)
    script(
        game,
        error_draws(3, (2, 0), (2, 1), 7)  # both occupied, weight 0.1: the board is empty
        + error_draws(3, (1, 1), (2, 1), 3),  # the next round, five moves later
    )
    events = game.move(0, 0, 0, 1)
    assert kinds(events) == [
        "move", "round_start", "noise", "round_end", "jump", "round_start", "noise", "round_end"
    ]
    assert events[4] == JumpAhead(t=10, round=2, from_t=5, reason="empty_after_noise")
    assert (events[5].t, events[5].round) == (10, 3)
    assert game.t == 10
    assert game.round == 3
    assert game.moves_made == 5
    assert grid(game) == ["000", "030", "070"]
    assert game.label(1, 1) == 3  # ids go on counting


# -- the first board --------------------------------------------------------------------


@pytest.mark.parametrize("engine_version", [1, 2])
def test_a_spanning_first_board_is_drawn_again(engine_version: int) -> None:
    # Seed 2 on a 4x4 board spans twice before giving a playable board.
    rules = RuleSet(size=4)
    game = Game(rules, 2, engine_version=engine_version)
    regenerated = [e for e in game.events if isinstance(e, Regenerated)]
    assert regenerated == [Regenerated(0, 0, 1, "spanning"), Regenerated(0, 0, 2, "spanning")]
    last = game.events.index(regenerated[-1])
    before, after = game.events[:last], game.events[last + 1:]
    assert after[0] == NoiseRoundStarted(0, 1)
    first_new = next(e for e in after if e.kind == "noise" and e.case == "new_pair")
    made_before = [e.group1_after for e in before if e.kind == "noise" and e.case == "new_pair"]
    if engine_version == 1:
        assert first_new.group1_after == 1  # version 1 started the ids again
    else:
        # The ids go on from the discarded boards': one id names one group.
        assert first_new.group1_after == max(made_before) + 1
    assert game.round == 1
    assert game.t == 0
    assert not game.over
    assert game.spanning_labels() == []
    assert game.numbers > 0
    checker = EventChecker(rules, engine_version=engine_version)
    checker.feed_all(game.events)
    checker.finish()
    assert checker.board() == (game.values, game.labels())


def test_an_empty_or_spanning_first_board_is_drawn_again(monkeypatch) -> None:
    draws = (
        # attempt 1: a pair, then an error that empties it: the board is empty
        error_draws(3, (0, 0), (0, 1), 3) + error_draws(3, (0, 0), (0, 1), 7)
        # attempt 2: a pair, then a number below it: column 0 spans
        + error_draws(3, (0, 0), (1, 0), 3) + error_draws(3, (2, 0), (1, 0), 4)
        # attempt 3: a pair in the middle row, then a 0.1 error on it
        + error_draws(3, (1, 1), (1, 2), 2) + error_draws(3, (1, 1), (1, 2), 1)
    )
    rng = ScriptedRng(draws)
    monkeypatch.setattr(game_module, "SplitMix64", lambda seed: rng)
    game = Game(RuleSet(size=3, noise_budget=1.05), 0)
    assert rng.exhausted
    assert [e for e in game.events if isinstance(e, Regenerated)] == [
        Regenerated(0, 0, 1, "empty"), Regenerated(0, 0, 2, "spanning")
    ]
    assert grid(game) == ["000", "037", "000"]
    # Attempts 1 and 2 made groups 1 and 2; the kept board's pair is group 3.
    assert game.label(1, 1) == game.label(1, 2) == 3
    assert game.to_state()["next_label"] == 4


def test_a_rule_set_whose_first_board_always_spans_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(game_module, "MAX_REGENERATIONS", 3)
    with pytest.raises(EngineError) as info:
        Game(RuleSet(size=3, noise_budget=20), 1)
    assert info.value.code == "unplayable_rule_set"


def test_a_new_game_starts_at_t_0_after_one_noise_round() -> None:
    game = Game(RuleSet(), 11)
    assert game.t == 0
    assert game.moves_made == 0
    assert game.round == 1
    assert kinds(game.events)[0] == "round_start"
    assert kinds(game.events)[-1] == "round_end"
    assert kinds(game.events).count("round_start") == 1
    assert game.numbers > 0
    assert not game.over


def test_not_recording_changes_nothing_but_the_events() -> None:
    rules = RuleSet(size=6, noise_budget=4, moves_per_round=3)
    recorded, silent = Game(rules, 77), Game(rules, 77, record=False)
    policy_a, policy_b = RandomPolicy(5), RandomPolicy(5)
    while not recorded.over:
        recorded.move(*policy_a.choose(recorded))
        assert silent.move(*policy_b.choose(silent)) == []
        assert silent.to_state() == recorded.to_state()
    assert silent.over
    assert silent.loss == recorded.loss
    assert silent.events == []
