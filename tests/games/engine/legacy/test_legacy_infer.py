"""Moves inferred from legacy saves, and engine games written in the legacy format."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    Game,
    MergeLabel,
    RandomPolicy,
    RuleSet,
    Variant,
    moves_of,
    play,
)
from games.engine.legacy import (
    LegacySave,
    game_to_legacy,
    game_to_save,
    infer_moves,
    read_save,
    verify_save,
    write_save,
)
from games.engine.legacy.export import game_steps
from tests.legacy_samples import sample_bytes


def sample(name: str) -> LegacySave:
    return read_save(sample_bytes(name), name=name)

# -- the sample files ---------------------------------------------------------------------


def test_first_moves_of_a_z10_sample():
    save = sample("Z10_normal_475.csv")
    moves = infer_moves(save)
    assert len(moves) == 475
    first = moves[0]
    # step 0 -> 1: the 8 at row 5, column 7 moved up onto the 4 (group 3): 8 + 4 = 2
    assert first.t == 1
    assert first.line == 11
    assert first.move == (4, 6, 3, 6)
    assert not first.ambiguous
    assert not first.noise
    assert first.kind == "move"
    # step 1 -> 2: the 8 and the 2 of group 3 annihilate; either could have moved
    second = moves[1]
    assert second.ambiguous
    assert set(second.candidates) == {(3, 5, 3, 6), (3, 6, 3, 5)}
    assert second.move in second.candidates
    fifth = moves[4]
    assert fifth.t == 5
    assert fifth.noise
    assert fifth.kind == "move_noise"
    assert fifth.move is not None


@pytest.mark.parametrize(
    "name",
    ["Z10_normal_475.csv", "Z10_normal_480.csv", "PL_annotated_336.csv", "PL_hard_219.csv",
     "PL_normal_205.csv", "PL_normal_321.csv"],
)
def test_every_step_of_the_samples_has_its_move(name):
    save = sample(name)
    moves = infer_moves(save)
    assert [m.t for m in moves] == save.step_numbers[1:]
    last = save.score
    for inferred in moves:
        assert inferred.kind in {"move", "move_noise"}
        assert inferred.move is not None
        assert inferred.move in inferred.candidates
        fr, fc, tr, tc = inferred.move
        assert abs(fr - tr) + abs(fc - tc) == 1
        assert inferred.noise == (inferred.t % 5 == 0 and inferred.t != last)
        k = save.step_numbers.index(inferred.t)
        before, after = save.steps[k - 1], save.steps[k]
        assert not before.cell(fr, fc).empty
        if not inferred.noise:
            assert after.cell(fr, fc).empty


def test_phi_lambda_moves_follow_the_symbols():
    save = sample("PL_normal_205.csv")
    moves = infer_moves(save)
    for inferred in moves:
        if inferred.noise:
            continue
        k = save.step_numbers.index(inferred.t)
        before, after = save.steps[k - 1], save.steps[k]
        fr, fc, tr, tc = inferred.move
        source, dest = before.cell(fr, fc).symbol, before.cell(tr, tc).symbol
        result = after.cell(tr, tc).symbol
        if dest == ".":
            assert result == source
        elif source == dest == "L":
            assert result == "."
        elif "L" in (source, dest) and source != dest:
            assert result == "P"


# -- engine games written, read back and checked -------------------------------------------------


def check_round_trip(game: Game) -> None:
    rules = game.rules
    text = game_to_save(game)
    save = read_save(text)
    assert write_save(save) == text
    assert save.size == rules.size
    result = verify_save(save)
    assert result.ok, result.violation
    assert result.score == game.t
    assert result.partially_observed == (rules.variant is Variant.PHI_LAMBDA)
    assert result.merge_label in (None, str(rules.merge_label))
    engine_moves = moves_of(game.events)
    steps, _ = game_steps(rules, game.seed, engine_moves)
    # the same boards at the same steps
    assert save.step_numbers == [t for t, _ in steps]
    for step, (_, board) in zip(save.steps, steps, strict=True):
        assert step.labels == board.labels
        if rules.variant is Variant.Z10:
            assert step.values == board.values
        else:
            assert step.symbols == tuple(
                "." if v == 0 else "L" if v == 5 else "P" for v in board.values
            )
    # the same moves, as far as the boards show them
    assert len(result.moves) == len(engine_moves)
    for inferred, move in zip(result.moves, engine_moves, strict=True):
        if inferred.kind == "move":
            assert move in inferred.candidates
            assert inferred.ambiguous or inferred.move == move
        elif inferred.kind == "jump" and inferred.candidates:
            assert move in inferred.candidates
        else:
            assert inferred.kind in {"move_noise", "jump"}
            assert inferred.noise
            assert inferred.move == move or inferred.ambiguous
    # and the file replays: the seed, the rules and the inferred plain moves
    assert sum(1 for m in result.moves if m.kind == "jump") == sum(
        1 for e in game.events if e.kind == "jump"
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    policy_seed=st.integers(0, 2**64 - 1),
    size=st.integers(3, 10),
    variant=st.sampled_from(list(Variant)),
    merge_label=st.sampled_from(list(MergeLabel)),
)
def test_engine_games_survive_the_save_format(seed, policy_seed, size, variant, merge_label):
    rules = RuleSet(size=size, variant=variant, merge_label=merge_label)
    game = Game(rules, seed)
    play(game, RandomPolicy(policy_seed))
    check_round_trip(game)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    size=st.integers(3, 6),
    budget=st.sampled_from([0.1, 0.5, 1.0, 2.0, 3.0]),
    moves_per_round=st.sampled_from([1, 2, 3, 5]),
)
def test_small_budgets_and_other_round_lengths(seed, size, budget, moves_per_round):
    rules = RuleSet(size=size, noise_budget=budget, moves_per_round=moves_per_round)
    game = Game(rules, seed)
    play(game, RandomPolicy(seed ^ 0x5A5A), max_moves=2000)
    if game.over:
        check_round_trip(game)


def test_a_game_whose_noise_emptied_the_board():
    rules = RuleSet(size=3, noise_budget=0.1, moves_per_round=2)
    game = Game(rules, 64)
    play(game, RandomPolicy(64), max_moves=500)
    reasons = {e.reason for e in game.events if e.kind == "jump"}
    assert "empty_after_noise" in reasons
    check_round_trip(game)


def test_a_game_with_jumps():
    game = Game(RuleSet(size=4, noise_budget=1.0), 0)
    play(game, RandomPolicy(0))
    assert any(e.kind == "jump" for e in game.events)
    check_round_trip(game)
    save = read_save(game_to_save(game))
    result = verify_save(save)
    jumps = [m for m in result.moves if m.kind == "jump"]
    assert jumps
    assert all(m.noise and m.t % 5 == 0 and m.ambiguous for m in jumps)
    numbers = save.step_numbers
    assert result.gaps == [(a, b) for a, b in itertools.pairwise(numbers) if b > a + 1]
    assert [b for _, b in result.gaps] == [m.t for m in jumps]
    assert not result.partially_observed


def test_game_to_save_from_rules_seed_and_moves():
    rules = RuleSet(size=5, variant=Variant.PHI_LAMBDA)
    game = Game(rules, 99)
    play(game, RandomPolicy(7))
    same = game_to_save(rules=rules, seed=99, moves=moves_of(game.events))
    assert same == game_to_save(game)
    first = same.splitlines()[0]
    assert first.startswith(",,,,Decodoku Lab engine ")
    assert f"seed 99,moves per round 5,merge keeps the {rules.merge_label} id" in first
    assert "P(" in same or "L(" in same
    assert game_to_save(game, header=False).startswith("0\n,,,")


def test_game_to_save_needs_the_moves():
    game = Game(RuleSet(size=4), 5, record=False)
    play(game, RandomPolicy(5))
    with pytest.raises(EngineError) as info:
        game_to_save(game)
    assert info.value.code == "not_recorded"
    with pytest.raises(TypeError):
        game_to_save()
    started = Game(RuleSet(size=7), 5)
    play(started, RandomPolicy(5), max_moves=3)
    restored = Game.from_state(started.to_state())
    play(restored, RandomPolicy(5))
    with pytest.raises(EngineError) as info:
        game_to_save(restored)
    assert info.value.code == "incomplete_record"


def test_a_game_written_with_windows_line_ends_reads_back():
    game = Game(RuleSet(size=6), 11)
    play(game, RandomPolicy(12))
    text = game_to_save(game, newline="\r\n")
    assert "\r\n" in text
    assert "\n\n" not in text.replace("\r\n", "")
    save = read_save(text)
    assert save.newline == "\r\n"
    assert verify_save(save).score == game.t


def test_an_unfinished_game_is_not_a_complete_record():
    game = Game(RuleSet(size=7), 3)
    play(game, RandomPolicy(3), max_moves=3)
    assert not game.over
    save = game_to_legacy(game)
    result = verify_save(save)
    assert result.violation.reason == "no_final_span"
    assert result.violation.t == 3

