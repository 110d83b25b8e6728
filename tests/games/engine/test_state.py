"""Storing a game's state and continuing play from it."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import (
    ENGINE_VERSION,
    Game,
    IllegalMove,
    InvalidState,
    Loss,
    MergeLabel,
    RandomPolicy,
    RuleSet,
    Variant,
)
from games.engine.rng import MASK64

from .engine_testkit import position, state_dict

RULE_SETS = [
    RuleSet(),
    RuleSet(size=5, variant=Variant.PHI_LAMBDA, noise_budget=3.5, moves_per_round=3),
    RuleSet(size=9, noise_budget=4, moves_per_round=1, merge_label=MergeLabel.MOVED),
]


def through_json(state: dict) -> dict:
    return json.loads(json.dumps(state))


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
@pytest.mark.parametrize("stop_after", [0, 1, 4, 5, 9])
def test_play_continues_from_a_stored_state_exactly_as_it_would_have(
    rules: RuleSet, stop_after: int
) -> None:
    original = Game(rules, 4242)
    policy = RandomPolicy(17)
    moves: list[tuple[int, int, int, int]] = []
    while not original.over and len(moves) < 60:
        moves.append(policy.choose(original))
        original.move(*moves[-1])
    assert len(moves) > stop_after
    # replay up to the snapshot, store, restore, and play the rest on both
    first = Game(rules, 4242)
    for move in moves[:stop_after]:
        first.move(*move)
    mark = len(first.events)
    state = through_json(first.to_state())
    restored = Game.from_state(state)
    assert restored.to_state() == state
    assert restored.board() == first.board()
    assert restored.events == []
    for move in moves[stop_after:]:
        restored.move(*move)
    assert restored.events == original.events[mark:]
    assert restored.to_state() == original.to_state()
    assert restored.loss == original.loss


def test_the_state_is_json_safe_and_round_trips() -> None:
    game = Game(RuleSet(size=6), 9)
    state = game.to_state()
    # plain JSON types only: a stored and reloaded state compares equal to a fresh one
    assert through_json(state) == state
    assert Game.from_state(through_json(state)).to_state() == state
    assert state["engine_version"] == ENGINE_VERSION
    assert state["seed"] == "9"
    assert int(state["rng"]) == game._rng.state
    assert len(state["values"]) == 36


def test_a_lost_game_is_restored_as_lost() -> None:
    game = Game(RuleSet(size=4, noise_budget=3), 5)
    policy = RandomPolicy(1)
    while not game.over:
        game.move(*policy.choose(game))
    restored = Game.from_state(through_json(game.to_state()))
    assert restored.over
    assert restored.loss == game.loss
    with pytest.raises(IllegalMove) as info:
        restored.move(*next(iter(Game(RuleSet(size=4, noise_budget=3), 5).legal_moves())))
    assert info.value.code == "game_over"


def test_a_state_restored_without_recording_plays_the_same() -> None:
    game = Game(RuleSet(size=6), 31)
    quiet = Game.from_state(game.to_state(), record=False)
    policy_a, policy_b = RandomPolicy(3), RandomPolicy(3)
    for _ in range(12):
        if game.over:
            break
        game.move(*policy_a.choose(game))
        quiet.move(*policy_b.choose(quiet))
    assert quiet.events == []
    assert quiet.to_state() == game.to_state()


def test_a_span_is_a_valid_state_just_after_a_noise_round() -> None:
    game = position(["300", "300", "400"], t=5, round_=2)
    assert game.spanning_labels() == [1]
    assert not game.over


def test_a_restored_position_rebuilds_groups_and_edges() -> None:
    rows = ["30000", "70000", "00000", "00055", "00000"]
    labels = [[2, 0, 0, 0, 0], [2, 0, 0, 0, 0], [0] * 5, [0, 0, 0, 7, 7], [0] * 5]
    game = position(rows, labels, t=5, round_=2, next_label=9)
    assert game.numbers == 4
    assert game.spanning_labels() == []
    game.move(1, 0, 2, 0)
    game.move(2, 0, 3, 0)
    game.move(3, 0, 4, 0)  # t = 8: no noise round on the way (the next is at t = 10)
    assert game.loss == Loss(t=8, round=2, group=2, axis="top_bottom", spanning_groups=1)


def _good() -> dict:
    return state_dict(["37000", "00000", "00000", "00000", "00000"], t=1)


def _set(key: str, value: object):
    def change(state: dict) -> None:
        state[key] = value
    return change


def _drop(key: str):
    def change(state: dict) -> None:
        del state[key]
    return change


CORRUPTIONS = {
    **{f"no {key}": _drop(key) for key in
       ["engine_version", "rules", "seed", "rng", "t", "round", "moves", "next_label",
        "values", "labels"]},
    "an engine version not made yet": _set("engine_version", ENGINE_VERSION + 1),
    "engine version 0": _set("engine_version", 0),
    "engine version as text": _set("engine_version", "1"),
    "rules not an object": _set("rules", "z10"),
    "rules with a bad size": _set("rules", {"size": 2}),
    "rules of another size": _set("rules", RuleSet(size=6).to_dict()),
    "rules with an unknown field": _set("rules", {"size": 5, "speed": 3}),
    "seed not a number": _set("seed", "lots"),
    "negative seed": _set("seed", "-1"),
    "seed above 64 bits": _set("seed", str(2**64)),
    "generator state not a number": _set("rng", "x1"),
    "negative generator state": _set("rng", "-1"),
    "generator state above 64 bits": _set("rng", str(MASK64 + 1)),
    "t not a number": _set("t", "soon"),
    "negative t": _set("t", -1),
    "more moves than t": _set("moves", 2),
    "negative round": _set("round", -1),
    "next group id 0": _set("next_label", 0),
    "values too short": _set("values", "37"),
    "values too long": _set("values", "37" + "0" * 24),
    "a value that is not a digit": _set("values", "3x" + "0" * 23),
    "a value above 9": _set("values", [3, 17] + [0] * 23),
    "a negative value": _set("values", [3, -7] + [0] * 23),
    "labels too short": _set("labels", [1, 1]),
    "a number without a group": _set("labels", [1, 0] + [0] * 23),
    "a group on an empty cell": _set("labels", [1, 1, 1] + [0] * 22),
    "a group id not handed out yet": _set("labels", [1, 2] + [0] * 23),
    "a negative group id": _set("labels", [1, -1] + [0] * 23),
    "labels not a list": _set("labels", 5),
    "a loss that is not an object": _set("loss", "lost"),
    "a loss that is a number": _set("loss", 3),
    "a loss missing fields": _set("loss", {"kind": "loss", "t": 1}),
    "a loss with unknown fields": _set(
        "loss", {**Loss(1, 1, 1, "both", 1).to_dict(), "colour": "red"}
    ),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_a_corrupt_state_is_refused(name: str) -> None:
    state = _good()
    Game.from_state(copy.deepcopy(state))  # the uncorrupted state is fine
    CORRUPTIONS[name](state)
    with pytest.raises(InvalidState) as info:
        Game.from_state(state)
    assert info.value.code == "invalid_state"


@pytest.mark.parametrize("state", [None, [], "state", 7])
def test_a_state_that_is_not_an_object_is_refused(state: object) -> None:
    with pytest.raises(InvalidState):
        Game.from_state(state)  # type: ignore[arg-type]


@pytest.mark.parametrize("t", [1, 4, 6])
def test_a_span_between_noise_rounds_without_a_loss_is_refused(t: int) -> None:
    with pytest.raises(InvalidState, match="spans"):
        position(["300", "300", "400"], t=t)
