"""The threshold families: one_shot and sustained rule sets, their noise and their shots."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DEFAULT_RULES,
    ENGINE_VERSION,
    Family,
    Game,
    IllegalMove,
    InvalidRuleSet,
    InvalidState,
    JumpAhead,
    Loss,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    RandomPolicy,
    Regenerated,
    RuleSet,
    ShotOutcome,
    SplitMix64,
    Variant,
    bot_seed,
    decode,
    moves_of,
    play_shot,
    replay,
    shot_seed,
    threshold_rules,
    verify_events,
)
from games.engine.bots import get_bot
from games.engine.game import edge_list

from .engine_testkit import check_board, spanning_scan

# -- rule sets -----------------------------------------------------------------


def test_a_one_shot_rule_set_names_and_stores_its_parameters() -> None:
    rules = threshold_rules(family="one_shot", size=16, rate=0.15)
    assert rules.family is Family.ONE_SHOT
    assert rules.key == "z10-oneshot-L16-p0.150"
    assert rules.to_dict() == {
        "schema": 1, "family": "one_shot", "size": 16, "variant": "z10",
        "error_rate": 0.15, "merge_label": "destination",
    }
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.round_moves is None


def test_a_sustained_rule_set_names_and_stores_its_parameters() -> None:
    rules = threshold_rules(family="sustained", size=10, rate=0.1505, moves_per_cell=0.5,
                            variant="phi_lambda")
    assert rules.key == "phi_lambda-sustained-L10-p0.1505-m0.5"
    data = rules.to_dict()
    assert data["moves_per_cell"] == 0.5
    assert data["family"] == "sustained"
    assert RuleSet.from_dict(data) == rules
    assert rules.round_moves == 50


def test_the_merge_label_convention_shows_in_a_family_key_only_when_not_the_default() -> None:
    rules = RuleSet(size=8, family=Family.ONE_SHOT, error_rate=0.2,
                    merge_label="moved")  # type: ignore[arg-type]
    assert rules.key == "z10-oneshot-L8-p0.200-moved"


def test_the_family_is_also_accepted_as_written_on_the_command_line() -> None:
    assert threshold_rules(family="one-shot", size=8, rate=0.1).family is Family.ONE_SHOT


def test_the_original_rule_sets_are_stored_and_named_exactly_as_before() -> None:
    assert DEFAULT_RULES.family is None
    assert DEFAULT_RULES.key == "z10-L7-b6-m5-destination"
    assert set(DEFAULT_RULES.to_dict()) == {
        "schema", "size", "variant", "noise_budget", "moves_per_round", "merge_label",
    }


@pytest.mark.parametrize(
    ("m", "size", "moves"),
    [(1.0, 8, 64), (0.1, 10, 10), (0.1, 3, 1), (0.3, 10, 30), (2.5, 5, 63), (0.07, 12, 11)],
)
def test_a_sustained_round_has_ceil_m_l_squared_moves(m: float, size: int, moves: int) -> None:
    rules = threshold_rules(family="sustained", size=size, rate=0.1, moves_per_cell=m)
    assert rules.round_moves == moves == math.ceil(Fraction(str(m)) * size * size)


def test_one_shot_ignores_moves_per_cell() -> None:
    rules = threshold_rules(family="one_shot", size=8, rate=0.1, moves_per_cell=3.0)
    assert rules.moves_per_cell is None


@pytest.mark.parametrize("size", [3, 17, 32, 64])
def test_families_take_sizes_up_to_64(size: int) -> None:
    assert threshold_rules(family="one_shot", size=size, rate=0.1).cells == size * size


@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": 2}, {"size": 65}, {"size": 8.0}, {"size": True},
        {"rate": 0.0}, {"rate": -0.1}, {"rate": 1.5}, {"rate": math.nan}, {"rate": math.inf},
        {"rate": True}, {"rate": "0.1"}, {"rate": None}, {"rate": 1e-9},
        {"moves_per_cell": 0.0}, {"moves_per_cell": -1.0}, {"moves_per_cell": math.nan},
        {"moves_per_cell": 11.0}, {"moves_per_cell": "1"},
        {"family": "two_shot"}, {"family": None}, {"family": 3},
        {"variant": "z9"},
    ],
)
def test_invalid_family_parameters_are_refused(kwargs: dict[str, object]) -> None:
    arguments: dict[str, object] = {"family": "sustained", "size": 8, "rate": 0.1,
                                    "moves_per_cell": 1.0}
    arguments.update(kwargs)
    with pytest.raises(InvalidRuleSet) as info:
        threshold_rules(**arguments)  # type: ignore[arg-type]
    assert info.value.code == "invalid_rule_set"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"error_rate": 0.1},  # a family parameter without a family
        {"moves_per_cell": 1.0},
        {"size": 17},  # the original family keeps 3-16
        {"family": "one_shot", "error_rate": 0.1, "noise_budget": 3.0},
        {"family": "one_shot", "error_rate": 0.1, "moves_per_round": 7},
        {"family": "one_shot", "error_rate": 0.1, "moves_per_cell": 1.0},
        {"family": "sustained", "error_rate": 0.1},
        {"family": "one_shot"},
    ],
)
def test_rule_sets_mixing_the_families_parameters_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidRuleSet):
        RuleSet(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data",
    [
        {"family": "one_shot", "size": 8},
        {"family": "one_shot", "error_rate": 0.1},
        {"family": "one_shot", "size": 8, "error_rate": 0.1, "noise_budget": 6.0},
        {"family": "sustained", "size": 8, "error_rate": 0.1, "moves_per_cell": 1, "x": 1},
        {"family": "three_shot", "size": 8, "error_rate": 0.1},
        {"family": "one_shot", "size": 8, "error_rate": 0.1, "schema": 2},
    ],
)
def test_stored_family_rule_sets_that_do_not_validate_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(InvalidRuleSet):
        RuleSet.from_dict(data)


# -- the noise round -------------------------------------------------------------


def reference_first_board(rules: RuleSet, seed: int) -> list[int]:
    """The first board's values, drawn as docs/rules.md says, with plain ``below`` calls."""
    rng = SplitMix64(seed)
    size = rules.size
    assert rules.error_rate is not None
    limit = Fraction(rules.error_rate) * 2**64
    values = [0] * (size * size)
    for cell in range(size * size):
        row, col = divmod(cell, size)
        others = ([cell + 1] if col < size - 1 else []) + ([cell + size] if row < size - 1 else [])
        for other in others:
            if rng.next64() >= limit:
                continue
            if rules.variant is Variant.PHI_LAMBDA and rng.below(100) < 33:
                a = 5
            else:
                a = 1 + rng.below(9)
            values[cell] = (values[cell] + a) % 10
            values[other] = (values[other] + 10 - a) % 10
    return values


@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    size=st.integers(min_value=3, max_value=20),
    rate=st.floats(min_value=0.0001, max_value=1.0),
    variant=st.sampled_from(list(Variant)),
)
@settings(max_examples=60, deadline=None)
def test_the_first_board_follows_the_documented_order_of_draws(
    seed: int, size: int, rate: float, variant: Variant
) -> None:
    rules = threshold_rules(family="one_shot", size=size, rate=rate, variant=variant)
    game = Game(rules, seed)
    assert list(game.values) == reference_first_board(rules, seed)
    check_board(game.values, game.labels())


def test_the_edges_are_every_neighbouring_pair_once() -> None:
    for size in (3, 8, 64):
        edges = edge_list(size)
        assert len(edges) == len(set(edges)) == 2 * size * (size - 1)
        for a, b in edges:
            assert b - a in (1, size)
            assert (b - a == size or b % size)


def errors_of(game: Game) -> list[NoiseError]:
    return [e for e in game.events if isinstance(e, NoiseError)]


@pytest.mark.parametrize(("size", "rate"), [(4, 0.3), (8, 0.05), (12, 0.15)])
def test_the_number_of_errors_has_mean_2l_l_minus_1_p(size: int, rate: float) -> None:
    """Each of the n = 2L(L-1) edges is a Bernoulli(p) trial, so over G first boards
    the total is Binomial(nG, p): a 5-sigma bound (two-sided, 5.7e-7 in the normal limit)."""
    rules = threshold_rules(family="one_shot", size=size, rate=rate)
    games = 400
    total = sum(len(errors_of(Game(rules, seed))) for seed in range(games))
    trials = 2 * size * (size - 1) * games
    mean, sigma = trials * rate, math.sqrt(trials * rate * (1 - rate))
    assert abs(total - mean) < 5 * sigma


def test_errors_fall_on_every_edge_alike() -> None:
    """Pearson's statistic over the 2L(L-1) = 112 edges' counts, each expected G p: with
    112 degrees of freedom its upper 1e-6 quantile is 198 (binomial counts only make it
    smaller, by the factor 1 - p on average)."""
    size, rate, games = 8, 0.2, 300
    rules = threshold_rules(family="one_shot", size=size, rate=rate)
    counts: Counter[tuple[int, int, int, int]] = Counter()
    for seed in range(games):
        for e in errors_of(Game(rules, seed)):
            counts[(e.row1, e.col1, e.row2, e.col2)] += 1
    edges = edge_list(size)
    assert set(counts) <= {(*divmod(a, size), *divmod(b, size)) for a, b in edges}
    expected = games * rate
    chi2 = sum((counts[(*divmod(a, size), *divmod(b, size))] - expected) ** 2 / expected
               for a, b in edges)
    assert chi2 < 198


def test_the_pair_is_uniform_and_phi_lambda_pairs_are_fives_a_third_of_the_time() -> None:
    rules = threshold_rules(family="one_shot", size=10, rate=0.3, variant="phi_lambda")
    errors = [e for seed in range(60) for e in errors_of(Game(rules, seed))]
    n = len(errors)
    fives = sum(1 for e in errors if e.a == 5 and e.aa == 5)
    # P(5, 5) = 0.33 + 0.67 / 9; 5 sigma.
    p5 = 0.33 + 0.67 / 9
    assert abs(fives - n * p5) < 5 * math.sqrt(n * p5 * (1 - p5))
    assert all(e.a + e.aa == 10 for e in errors)
    z10 = [e.a for seed in range(60)
           for e in errors_of(Game(threshold_rules(family="one_shot", size=10, rate=0.3), seed))]
    counts = Counter(z10)
    expected = len(z10) / 9
    # 8 degrees of freedom: the upper 1e-6 quantile is 42.7.
    assert sum((counts[a] - expected) ** 2 / expected for a in range(1, 10)) < 42.7


def test_a_round_records_the_same_kinds_of_events_as_the_game() -> None:
    game = Game(threshold_rules(family="one_shot", size=8, rate=0.2), 3)
    kinds = [type(e) for e in game.events]
    assert kinds[0] is NoiseRoundStarted
    assert kinds[-1] is NoiseRoundEnded or kinds[-1] is Loss
    assert Regenerated not in kinds
    end = next(e for e in game.events if isinstance(e, NoiseRoundEnded))
    assert end.errors == len(errors_of(game))
    assert end.numbers == game.numbers


# -- one_shot games ----------------------------------------------------------------


def test_a_first_board_that_spans_is_a_failure_at_once() -> None:
    rules = threshold_rules(family="one_shot", size=4, rate=0.9)
    for seed in range(50):
        game = Game(rules, seed)
        if spanning_scan(4, game.labels()):
            assert game.over
            assert game.loss is not None
            assert game.loss.t == 0
            assert isinstance(game.events[-1], Loss)
            return
    pytest.fail("no first board spanned at p = 0.9 on a 4x4 board")


def test_an_empty_first_board_is_already_clean() -> None:
    rules = threshold_rules(family="one_shot", size=3, rate=0.0001)
    game = Game(rules, 1)
    assert game.numbers == 0
    assert game.over
    assert game.cleared
    assert game.loss is None
    with pytest.raises(IllegalMove) as info:
        game.move(0, 0, 0, 1)
    assert info.value.code == "game_over"


one_shot_rules = st.builds(
    lambda size, rate, variant: threshold_rules(
        family="one_shot", size=size, rate=rate, variant=variant),
    st.integers(min_value=3, max_value=12),
    st.floats(min_value=0.01, max_value=0.4),
    st.sampled_from(["z10", "phi_lambda"]),
)


@given(rules=one_shot_rules, seed=st.integers(min_value=0, max_value=2**64 - 1),
       bot=st.sampled_from(["greedy", "clustering", "player"]))
@settings(max_examples=40, deadline=None)
def test_a_one_shot_game_ends_with_a_clean_board_or_a_span(
    rules: RuleSet, seed: int, bot: str
) -> None:
    game = Game(rules, seed)
    player = get_bot(bot, seed=1)
    noise_rounds = 1
    for _ in range(50 * rules.cells):
        if game.over:
            break
        game.move(*player.choose(game))
    assert game.over
    if game.loss is None:
        assert game.numbers == 0
        assert game.cleared
    else:
        assert spanning_scan(rules.size, game.labels())
        assert not game.cleared
    assert sum(isinstance(e, NoiseRoundStarted) for e in game.events) == noise_rounds
    assert not any(isinstance(e, JumpAhead) for e in game.events)
    assert verify_events(rules, seed, game.events, engine_version=ENGINE_VERSION).ok


# -- sustained games -------------------------------------------------------------------


def test_a_sustained_game_draws_a_round_every_ceil_m_l_squared_moves() -> None:
    rules = threshold_rules(family="sustained", size=6, rate=0.03, moves_per_cell=0.25)
    game = Game(rules, 11)
    policy = get_bot("clustering", seed=2)
    while not game.over and game.round < 6:
        game.move(*policy.choose(game))
    starts = [e for e in game.events if isinstance(e, NoiseRoundStarted)]
    assert [e.t % 9 for e in starts] == [0] * len(starts)
    assert [e.round for e in starts] == list(range(1, len(starts) + 1))


def test_an_empty_sustained_board_skips_to_the_next_round() -> None:
    rules = threshold_rules(family="sustained", size=3, rate=0.0001, moves_per_cell=1.0)
    game = Game(rules, 5)
    jumps = [e for e in game.events if isinstance(e, JumpAhead)]
    assert game.numbers > 0
    assert jumps
    assert all(j.reason == "empty_after_noise" and j.t - j.from_t == 9 for j in jumps)
    assert game.t == 9 * len(jumps)
    assert game.round == len(jumps) + 1


@given(
    size=st.integers(min_value=3, max_value=9),
    rate=st.floats(min_value=0.01, max_value=0.5),
    m=st.sampled_from([0.05, 0.1, 0.5, 1.0]),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    moves=st.integers(min_value=0, max_value=150),
)
@settings(max_examples=40, deadline=None)
def test_recorded_sustained_games_replay_and_verify(
    size: int, rate: float, m: float, seed: int, moves: int
) -> None:
    rules = threshold_rules(family="sustained", size=size, rate=rate, moves_per_cell=m)
    game = Game(rules, seed)
    policy = RandomPolicy(seed ^ 1)
    for _ in range(moves):
        if game.over:
            break
        game.move(*policy.choose(game))
        check_board(game.values, game.labels())
        if not game.over:
            per_round = rules.round_moves
            assert per_round is not None
            assert not spanning_scan(size, game.labels()) or game.t % per_round == 0
    stored = [e.to_dict() for e in game.events]
    assert verify_events(rules, seed, stored, engine_version=ENGINE_VERSION).ok
    again = replay(rules, seed, moves_of(stored), engine_version=ENGINE_VERSION)
    assert isinstance(again, Game)
    assert again.board() == game.board()
    assert again.loss == game.loss


def test_a_changed_event_fails_verification() -> None:
    rules = threshold_rules(family="sustained", size=6, rate=0.1, moves_per_cell=0.5)
    game = Game(rules, 8)
    policy = get_bot("greedy", seed=0)
    for _ in range(40):
        if game.over:
            break
        game.move(*policy.choose(game))
    stored = [e.to_dict() for e in game.events]
    index = next(i for i, e in enumerate(stored) if e["kind"] == "noise")
    stored[index]["a"] = stored[index]["a"] % 9 + 1
    result = verify_events(rules, 8, stored, engine_version=ENGINE_VERSION)
    assert not result.ok
    assert result.first_mismatch == index


@pytest.mark.parametrize("family", ["one_shot", "sustained"])
def test_a_family_game_resumes_exactly_from_its_stored_state(family: str) -> None:
    rules = threshold_rules(family=family, size=10, rate=0.1, moves_per_cell=0.2)
    whole = Game(rules, 21)
    policy = get_bot("clustering", seed=4)
    half = None
    for step in range(80):
        if whole.over:
            break
        if step == 10:
            half = Game.from_state(whole.to_state())
            assert half.to_state() == whole.to_state()
        move = policy.choose(whole)
        whole.move(*move)
        if half is not None:
            half.move(*move)
            assert half.board() == whole.board()
            assert half.over == whole.over
    assert half is not None


def test_a_stored_one_shot_state_with_a_span_and_no_loss_is_refused() -> None:
    rules = threshold_rules(family="one_shot", size=4, rate=0.9)
    seed = next(s for s in range(100) if Game(rules, s).loss is not None)
    state = Game(rules, seed).to_state()
    state["loss"] = None
    with pytest.raises(InvalidState):
        Game.from_state(state)


# -- shots ---------------------------------------------------------------------------


def test_shot_seeds_are_a_pure_function_of_their_four_numbers() -> None:
    seeds = {shot_seed(seed=s, size=n, rate=p, shot=k)
             for s in (0, 1) for n in (8, 12) for p in (0.1, 0.15) for k in range(50)}
    assert len(seeds) == 2 * 2 * 2 * 50
    assert shot_seed(seed=7, size=8, rate=0.1, shot=3) == shot_seed(seed=7, size=8, rate=0.1,
                                                                     shot=3)
    with pytest.raises(ValueError, match="seed"):
        shot_seed(seed=-1, size=8, rate=0.1, shot=0)
    with pytest.raises(ValueError, match="shot"):
        shot_seed(seed=0, size=8, rate=0.1, shot=-1)


@pytest.mark.parametrize("family", ["one_shot", "sustained"])
@pytest.mark.parametrize("bot", ["random", "greedy", "clustering", "player"])
def test_a_shot_is_the_recorded_game_played_again(family: str, bot: str) -> None:
    rules = threshold_rules(family=family, size=7, rate=0.08, moves_per_cell=0.5)
    seed = shot_seed(seed=3, size=7, rate=0.08, shot=1)
    outcome = play_shot(rules=rules, bot=bot, seed=seed, max_rounds=30)
    assert outcome == play_shot(rules=rules, bot=bot, seed=seed, max_rounds=30)
    game = Game(rules, seed)
    player = get_bot(bot, seed=bot_seed(seed))
    if family == "one_shot":
        decode(game, player, max_moves=30 * 49)
    while not game.over and game.round <= 30:
        game.move(*player.choose(game))
    assert outcome.moves == game.moves_made
    assert outcome.failed == (game.loss is not None)
    if family == "one_shot":
        assert outcome.rounds == 1
        assert not outcome.censored
    elif outcome.failed:
        assert outcome.rounds == game.round
        assert game.loss is not None
        assert game.loss.round == outcome.rounds
    else:
        assert outcome.censored
        assert outcome.rounds == 30


def test_a_sustained_shot_below_threshold_is_censored_at_max_rounds() -> None:
    rules = threshold_rules(family="sustained", size=8, rate=0.005, moves_per_cell=1.0)
    outcome = play_shot(rules=rules, bot="clustering", seed=1, max_rounds=5)
    assert outcome == ShotOutcome(seed=1, failed=False, rounds=5, moves=outcome.moves,
                                  score=outcome.moves, censored=True)


@pytest.mark.parametrize("max_rounds", [2, 1000])
def test_a_shot_of_the_original_game_is_a_budget_game_until_lost_or_max_rounds(
        max_rounds: int) -> None:
    outcome = play_shot(rules=DEFAULT_RULES, bot="greedy", seed=4, max_rounds=max_rounds)
    assert outcome == play_shot(rules=DEFAULT_RULES, bot="greedy", seed=4, max_rounds=max_rounds)
    # The bot of a budget game takes the game's own seed (not bot_seed).
    game, player = Game(DEFAULT_RULES, 4), get_bot("greedy", seed=4)
    while not game.over and game.round <= max_rounds:
        game.move(*player.choose(game))
    assert (outcome.seed, outcome.moves, outcome.score) == (4, game.moves_made, game.t)
    assert (outcome.failed, outcome.censored) == (game.over, not game.over)
    assert outcome.rounds == (game.round if game.over else max_rounds)


def test_a_greedy_budget_game_is_censored_at_two_rounds_and_lost_by_a_thousand() -> None:
    assert play_shot(rules=DEFAULT_RULES, bot="greedy", seed=4, max_rounds=2).censored
    assert play_shot(rules=DEFAULT_RULES, bot="greedy", seed=4, max_rounds=1000).failed


def test_play_shot_refuses_what_is_no_rule_set_and_bad_arguments() -> None:
    with pytest.raises(InvalidRuleSet, match="needs a rule set"):
        play_shot(rules="z10-L7", bot="greedy", seed=0)  # type: ignore[arg-type]
    rules = threshold_rules(family="one_shot", size=8, rate=0.1)
    with pytest.raises(ValueError, match="max_rounds"):
        play_shot(rules=rules, bot="greedy", seed=0, max_rounds=0)
    with pytest.raises(ValueError, match="unknown bot"):
        play_shot(rules=rules, bot="nobody", seed=0)


def test_decoding_breaks_a_loop_between_two_boards() -> None:
    """A bot that steps one number back and forth would never finish; decode makes it
    try its next moves when a board comes back, so the board gets cleaned."""

    class BackAndForth:
        def __init__(self) -> None:
            self.inner = get_bot("clustering", seed=0)

        def choose(self, game: Game) -> tuple[int, int, int, int]:
            row = next(i // game.size for i, v in enumerate(game.values) if v)
            col = next(i % game.size for i, v in enumerate(game.values) if v)
            return (row, col, row + 1, col) if row < game.size - 1 else (row, col, row - 1, col)

        def rank(self, values: tuple[int, ...], size: int, rules: RuleSet,
                 k: int) -> list[tuple[int, int, int, int]]:
            return self.inner.rank(values, size, rules, k)

    rules = threshold_rules(family="one_shot", size=5, rate=0.05)
    seed = next(s for s in range(200) if Game(rules, s, record=False).numbers > 0)
    game = decode(Game(rules, seed, record=False), BackAndForth(), max_moves=10_000)
    assert game.over
    assert game.moves_made < 10_000


@pytest.mark.parametrize("bot", ["greedy", "clustering", "player", "random"])
def test_bots_decode_a_one_shot_board_of_the_largest_size(bot: str) -> None:
    rules = threshold_rules(family="one_shot", size=64, rate=0.01)
    outcome = play_shot(rules=rules, bot=bot, seed=5, max_rounds=2)
    assert outcome.failed or outcome.censored or outcome.moves > 0
