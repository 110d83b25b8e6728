"""Planar games as recorded games: their events, replay, verification, state and golden games."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ENGINE_VERSION,
    Event,
    Game,
    InvalidState,
    LogicalOutcome,
    Move,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    UnknownEngineVersion,
    board_at,
    boards,
    event_from_dict,
    game_from_state,
    moves_of,
    new_game,
    replay,
    verify_events,
)
from games.engine.errors import IllegalMove
from games.engine.planar import PlanarGame, get_decoder, lattice, play
from games.engine.rules import Family, RuleSet


def planar(size: int = 5, modulus: int = 3, rate: float = 0.15) -> RuleSet:
    return RuleSet(size=size, family=Family.PLANAR, modulus=modulus, error_rate=rate)


def decoded(rules: RuleSet, seed: int, decoder: str = "clustering") -> PlanarGame:
    game = PlanarGame(rules, seed)
    assert play(game, get_decoder(decoder))
    return game


def stream_hash(events: list[Event]) -> str:
    text = json.dumps([e.to_dict() for e in events], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# -- the events of a planar game ------------------------------------------------------


def test_a_recorded_game_is_a_noise_round_its_moves_and_its_logical_outcome():
    game = decoded(planar(), 34)
    kinds = [event.kind for event in game.events]
    errors = len(game.noise)
    assert kinds == (["round_start"] + ["noise"] * errors + ["round_end"]
                     + ["move"] * game.moves_made + ["logical_outcome"])
    assert game.events[0] == NoiseRoundStarted(0, 1)
    assert game.events[errors + 1] == NoiseRoundEnded(0, 1, errors, float(errors), 4)
    assert game.events[-1] == LogicalOutcome(game.moves_made, 1, 1, True)
    assert (game.charge, game.failed, game.t, game.round) == (1, True, 4, 1)
    # A planar game has no groups: every group id is 0 and nothing merges.
    for event in game.events:
        for name in ("group1_before", "group2_before", "group1_after", "group2_after",
                     "from_group", "to_group_before", "to_group_after"):
            assert getattr(event, name, 0) == 0


def test_side_edges_name_the_outside_as_column_minus_one_or_L():
    rules = planar(3, 5)
    left, right = lattice(3).left_edge(1), lattice(3).right_edge(2)
    game = PlanarGame(rules, 0, noise=[(left, 2), (1, 4), (right, 3)])
    first, inner, last = (e for e in game.events if isinstance(e, NoiseError))
    # The left side's edge: its upper or left end is the outside (column -1), which gets a.
    assert (first.row1, first.col1, first.row2, first.col2) == (1, -1, 1, 0)
    assert (first.a, first.aa, first.case, first.weight, first.round_weight) == (
        2, 3, "side", 1.0, 1.0)
    assert (first.value1_before, first.value1_after) == (0, 0)
    assert (first.value2_before, first.value2_after) == (0, 3)
    assert (inner.row1, inner.col1, inner.row2, inner.col2, inner.case) == (0, 0, 0, 1, "new_pair")
    assert (inner.value1_after, inner.value2_after) == (4, 1)
    # The right side's edge: the outside is its second end, column L.
    assert (last.row1, last.col1, last.row2, last.col2) == (2, 2, 2, 3)
    assert (last.a, last.aa, last.value1_after, last.value2_after) == (3, 2, 3, 0)
    assert [e.index for e in (first, inner, last)] == [1, 2, 3]


@settings(max_examples=40, deadline=None)
@given(size=st.integers(3, 7), modulus=st.integers(2, 10), rate=st.floats(0.02, 0.6),
       seed=st.integers(0, 2**64 - 1))
def test_the_noise_events_rebuild_the_first_board(size, modulus, rate, seed):
    game = PlanarGame(planar(size, modulus, rate), seed)
    quiet = PlanarGame(planar(size, modulus, rate), seed, record=False)
    assert quiet.events == []
    assert quiet.values == game.values
    values = [0] * (size * size)
    noise = [e for e in game.events if isinstance(e, NoiseError)]
    assert len(noise) == len(game.noise)
    for event in noise:
        assert event.a + event.aa == modulus
        for row, col, before, after, added in (
            (event.row1, event.col1, event.value1_before, event.value1_after, event.a),
            (event.row2, event.col2, event.value2_before, event.value2_after, event.aa),
        ):
            if 0 <= col < size:
                assert values[row * size + col] == before
                values[row * size + col] = after
                assert after == (before + added) % modulus
            else:
                assert col in (-1, size)
                assert before == after == 0
    assert tuple(values) == game.values
    assert (game.outcome is not None) == game.over == (quiet.outcome is not None)


def test_a_move_off_the_board_is_recorded_with_values_zero_at_the_side():
    game = PlanarGame(planar(3, 10), 0, noise=[(1, 3)])  # cell 0: 3, cell 1: 7
    game.move(0, 0, 0, -1)
    game.move(0, 1, 0, 0)
    game.move(0, 0, 0, -1)
    moves = [e for e in game.events if isinstance(e, Move)]
    assert moves[0] == Move(1, 1, 1, 0, 0, 0, -1, 3, 0, 0, 0, 0, 0, False)
    assert moves[1] == Move(2, 1, 2, 0, 1, 0, 0, 7, 0, 7, 0, 0, 0, False)
    # Both numbers left through the left side, where the noise's pair came from: no chain.
    assert game.events[-1] == LogicalOutcome(3, 1, 0, False)
    assert game.cut_charges() == (0, 0, 0, 0)


def test_an_annihilation_and_a_clean_board_end_the_record():
    game = PlanarGame(planar(3, 5), 0, noise=[(1, 2)])  # cell 0: 2, cell 1: 3
    game.move(0, 0, 0, 1)
    assert game.events[-2:] == [
        Move(1, 1, 1, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, True),
        LogicalOutcome(1, 1, 0, False),
    ]
    with pytest.raises(IllegalMove) as refused:
        game.move(0, 1, 0, 2)
    assert refused.value.code == "game_over"


def test_a_clean_first_board_has_its_outcome_at_once():
    game = PlanarGame(planar(3, 2), 0, noise=[(4, 1), (5, 1), (6, 1), (7, 1)])
    assert game.over
    assert game.events[-1] == LogicalOutcome(0, 1, 1, True)
    empty = PlanarGame(planar(3, 2), 0, noise=[])
    assert [e.kind for e in empty.events] == ["round_start", "round_end", "logical_outcome"]
    assert empty.events[-1] == LogicalOutcome(0, 1, 0, False)


@pytest.mark.parametrize(("move", "code"), [
    ((0, 0, -1, 0), "closed_side"),  # off through the top
    ((2, 1, 3, 1), "closed_side"),  # off through the bottom
    ((2, 1, 4, 1), "off_grid"),
    ((0, 0, 0, -2), "off_grid"),
    ((3, 0, 3, -1), "off_grid"),
    ((1, 1, 1, -1), "not_adjacent"),
    ((1, 0, 1, 1), "empty_source"),
    ((0, True, 0, 1), "off_grid"),
])
def test_illegal_moves_name_what_is_wrong(move, code):
    game = PlanarGame(planar(3, 10), 0, noise=[(0, 3), (8, 2), (13, 4)])
    before = (game.values, list(game.events))
    with pytest.raises(IllegalMove) as refused:
        game.move(*move)
    assert refused.value.code == code
    assert (game.values, game.events) == before


def test_every_legal_move_is_listed_and_leaves_through_the_sides_only():
    game = PlanarGame(planar(3, 10), 0, noise=[(0, 3), (3, 2)])  # cells 0 and 2
    moves = list(game.legal_moves())
    assert (0, 0, 0, -1) in moves
    assert (0, 2, 0, 3) in moves
    assert all(to_row in range(3) for _, _, to_row, _ in moves)
    for move in moves:
        PlanarGame(planar(3, 10), 0, noise=[(0, 3), (3, 2)]).check_move(*move)


# -- replay, verification and state ---------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(size=st.integers(3, 7), modulus=st.integers(2, 10), rate=st.floats(0.02, 0.4),
       seed=st.integers(0, 2**63 - 1), walk=st.lists(st.integers(0, 3), max_size=25))
def test_a_planar_game_replays_from_its_seed_and_moves_to_identical_events(
    size, modulus, rate, seed, walk
):
    rules = planar(size, modulus, rate)
    game = PlanarGame(rules, seed)
    for step in walk:
        legal = list(game.legal_moves())
        if not legal:
            break
        game.move(*legal[step % len(legal)])
    play(game, get_decoder("clustering"))
    moves = moves_of(game.events)
    again = replay(rules, seed, moves, engine_version=ENGINE_VERSION)
    assert isinstance(again, PlanarGame)
    assert again.events == game.events
    stored = [e.to_dict() for e in game.events]
    assert [event_from_dict(data) for data in stored] == game.events
    assert verify_events(rules, seed, stored, engine_version=ENGINE_VERSION).ok
    every = boards(rules, seed, moves, engine_version=ENGINE_VERSION)
    assert every[0].values == PlanarGame(rules, seed).values
    assert every[-1] == game.board()
    assert board_at(rules, seed, moves, 0, engine_version=ENGINE_VERSION) == every[0]


def test_verification_finds_a_tampered_outcome_noise_or_move():
    rules = planar()
    stored = [e.to_dict() for e in decoded(rules, 34).events]
    for index, change in (
        (len(stored) - 1, {"charge": 0, "failed": False}),
        (2, {"a": 1, "aa": 2}),
        (1, {"case": "new_pair"}),
        (len(stored) - 2, {"to_value_after": 1}),
    ):
        tampered = copy.deepcopy(stored)
        tampered[index].update(change)
        verdict = verify_events(rules, 34, tampered, engine_version=ENGINE_VERSION)
        assert not verdict.ok
        assert verdict.first_mismatch == index
    assert not verify_events(rules, 34, stored[:-1], engine_version=ENGINE_VERSION).ok
    assert not verify_events(rules, 35, stored, engine_version=ENGINE_VERSION).ok


def test_planar_games_are_played_from_engine_version_2_on():
    rules = planar()
    with pytest.raises(UnknownEngineVersion):
        PlanarGame(rules, 1, engine_version=1)
    verdict = verify_events(rules, 1, [], engine_version=1)
    assert verdict.reason.startswith("unknown_engine_version")


def test_the_one_place_that_picks_the_engine():
    assert isinstance(new_game(planar(), 3), PlanarGame)
    assert isinstance(new_game(RuleSet(size=5), 3), Game)
    planar_game, game = new_game(planar(), 3), new_game(RuleSet(size=5), 3)
    assert isinstance(game_from_state(planar_game.to_state()), PlanarGame)
    assert isinstance(game_from_state(game.to_state()), Game)
    not_a_state: Any = ["values"]
    with pytest.raises(InvalidState):
        game_from_state(not_a_state)


def test_a_game_goes_on_from_its_state_exactly():
    rules = planar(6, 4, 0.2)
    whole = decoded(rules, 8)
    moves = moves_of(whole.events)
    half = PlanarGame(rules, 8)
    for move in moves[: len(moves) // 2]:
        half.move(*move)
    state = json.loads(json.dumps(half.to_state()))
    resumed = PlanarGame.from_state(state)
    assert resumed.to_state() == state
    assert resumed.noise == whole.noise  # drawn again from the seed
    first = len(half.events)
    for move in moves[len(moves) // 2:]:
        resumed.move(*move)
    assert resumed.events == whole.events[first:]
    assert resumed.outcome == whole.outcome


@pytest.mark.parametrize("corrupt", [
    {"engine_version": 1},
    {"values": "9" * 36},
    {"values": "0" * 35},
    {"crossings": [0] * 6},
    {"crossings": [7] * 7},
    {"t": 99},
    {"round": 2},
    {"seed": "-1"},
    {"rules": {"schema": 1, "size": 6}},
])
def test_a_corrupt_state_is_refused(corrupt):
    state = {**PlanarGame(planar(6, 4, 0.2), 8).to_state(), **corrupt}
    with pytest.raises(InvalidState):
        PlanarGame.from_state(state)


# -- golden games ----------------------------------------------------------------------

# Pinned when planar games became recorded games. A failure means planar games now
# play differently: the recorded ones would no longer verify (see version.py).
PLANAR_GOLDEN = [
    (planar(5, 3, 0.15), 34, [(1, 4, 1, 3), (1, 3, 1, 2), (1, 1, 1, 0), (1, 0, 1, -1)],
     "f36e49aeb1afd4a7fae5748c57852f35aa88f396c9eed31c8fb1750b62d533a5", 1, True),
    (planar(6, 2, 0.12), 2026, [(5, 2, 4, 2), (4, 2, 3, 2), (3, 2, 2, 2)],
     "bc5a8dbd2ac8fb709de8d13da5fee51df35fb9f014af7a8277fba344dd347846", 0, False),
]


@pytest.mark.parametrize(("rules", "seed", "moves", "digest", "charge", "failed"),
                         PLANAR_GOLDEN, ids=lambda v: v.key if isinstance(v, RuleSet) else None)
def test_planar_golden_games_are_played_exactly_as_pinned(rules, seed, moves, digest, charge,
                                                          failed):
    game = replay(rules, seed, moves, engine_version=ENGINE_VERSION)
    assert isinstance(game, PlanarGame)
    assert game.over
    assert stream_hash(game.events) == digest
    assert (game.charge, game.failed) == (charge, failed)
    assert game.events[-1] == LogicalOutcome(len(moves), 1, charge, failed)
    tampered = replace(game.events[-1], failed=not failed)
    assert not verify_events(rules, seed, [*game.events[:-1], tampered],
                             engine_version=ENGINE_VERSION).ok
