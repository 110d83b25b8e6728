"""Bot games saved in the legacy format (games.engine.simulate)."""

from __future__ import annotations

import pytest

from games.engine import EngineError, RuleSet, SplitMix64, Variant
from games.engine.legacy import read_save, verify_save
from games.engine.simulate import game_seeds, make_rules, simulate_games


def test_game_seeds_are_the_run_stream_two_by_two():
    stream = SplitMix64(12345)
    outputs = [stream.next64() for _ in range(8)]
    # The noise seed is the top 63 bits of its output, the policy seed all 64.
    assert [game_seeds(12345, i) for i in range(4)] == [
        (outputs[0] >> 1, outputs[1]), (outputs[2] >> 1, outputs[3]),
        (outputs[4] >> 1, outputs[5]), (outputs[6] >> 1, outputs[7]),
    ]


def test_noise_seeds_fit_the_63_bit_seed_column():
    raw = SplitMix64(0)
    outputs = [raw.next64() for _ in range(400)]
    assert any(x >= 2**63 for x in outputs[0::2])  # a 64-bit draw would not fit
    seeds = [game_seeds(0, i)[0] for i in range(200)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**62  # the whole 63-bit range is used
    assert len(set(seeds)) == len(seeds)


def test_game_seeds_wrap_around_64_bits():
    noise, policy = game_seeds(2**64 - 1, 10**6)
    assert 0 <= noise < 2**63
    assert 0 <= policy < 2**64
    for bad in (-1, 2**64, True, "1"):
        with pytest.raises(EngineError):
            game_seeds(bad, 0)
    with pytest.raises(EngineError):
        game_seeds(0, -1)


def test_a_game_does_not_depend_on_how_many_games_are_played():
    rules = make_rules(size=5)
    alone = next(simulate_games(games=1, seed=9, rules=rules, first_index=2))
    batch = list(simulate_games(games=3, seed=9, rules=rules))
    assert batch[2].noise_seed == alone.noise_seed
    assert batch[2].score == alone.score
    assert batch[2].save_text() == alone.save_text()
    assert [g.index for g in batch] == [0, 1, 2]


@pytest.mark.parametrize("variant", list(Variant))
def test_simulated_games_are_valid_saves(tmp_path, variant):
    rules = make_rules(size=6, variant=variant, budget=5.0)
    played = list(simulate_games(policy="random", games=3, seed=4, rules=rules))
    for game in played:
        assert game.finished
        path = game.write(tmp_path)
        assert path.name == f"{variant}_L6_seed{game.noise_seed}_score{game.score}.csv"
        result = verify_save(read_save(path.read_bytes()))
        assert result.ok, result.violation
        assert result.score == game.score
        assert result.partially_observed == (variant is Variant.PHI_LAMBDA)


def test_a_game_stopped_early_is_marked_unfinished():
    (game,) = simulate_games(games=1, seed=1, rules=RuleSet(size=9), max_moves=2)
    assert not game.finished
    assert game.file_name().endswith("_unfinished.csv")


def test_bad_arguments():
    with pytest.raises(EngineError) as info:
        next(simulate_games(policy="clever"))
    assert info.value.code == "unknown_policy"
    with pytest.raises(EngineError):
        next(simulate_games(games=-1))
