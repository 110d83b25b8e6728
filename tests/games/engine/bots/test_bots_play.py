"""Every bot plays legal moves, deterministically, under every rule set."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, RuleSet, Variant, play
from games.engine.bots import BOTS, Bot, RandomBot, bot_choices, get_bot, same_effect
from games.engine.bots.board import effect, geometry, observe, tie_breaker
from games.engine.policies import RandomPolicy

BOT_NAMES = sorted(BOTS)


def test_registry_names_and_versions():
    assert set(BOTS) == {"random", "greedy", "clustering", "player"}
    for name, cls in BOTS.items():
        bot = get_bot(name, seed=3)
        assert bot.name == name == cls.name
        assert isinstance(bot.version, int)
        assert not isinstance(bot.version, bool)
        assert bot.version >= 1
        assert callable(bot.choose)
        assert callable(bot.rank)
    assert issubclass(BOTS["random"], RandomPolicy)
    assert RandomBot.version == RandomPolicy.version
    for name in ("greedy", "clustering", "player"):
        assert issubclass(BOTS[name], Bot)


def test_unknown_bot_and_bad_arguments():
    with pytest.raises(ValueError, match="unknown bot"):
        get_bot("oracle", seed=0)
    with pytest.raises(ValueError, match="k must"):
        get_bot("greedy", seed=0).rank((0,) * 9, 3, RuleSet(size=3), k=0)
    with pytest.raises(ValueError, match="expected 16 values"):
        get_bot("greedy", seed=0).rank((0,) * 9, 4, RuleSet(size=4))
    with pytest.raises(ValueError, match="not a value"):
        get_bot("clustering", seed=0).rank((0,) * 8 + (11,), 3, RuleSet(size=3))
    # A Phi (shown as -1) only exists in the Phi-Lambda variant.
    with pytest.raises(ValueError, match="not a value"):
        get_bot("player", seed=0).rank((0,) * 8 + (-1,), 3, RuleSet(size=3))
    with pytest.raises(ValueError, match="no number"):
        get_bot("greedy", seed=0).choose(_ValuesOnly((0,) * 9, RuleSet(size=3)))


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(BOT_NAMES),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    size=st.integers(min_value=3, max_value=12),
    variant=st.sampled_from(list(Variant)),
    budget=st.sampled_from([2.0, 3.0, 6.0, 8.0]),
)
def test_bots_only_play_legal_moves(name, seed, size, variant, budget):
    rules = RuleSet(size=size, variant=variant, noise_budget=budget)
    game = Game(rules, seed=seed, record=False)
    bot = get_bot(name, seed=seed ^ 0x5EED)
    made = 0
    while not game.over and made < 120:
        move = bot.choose(game)
        assert move in set(game.legal_moves())
        game.move(*move)  # raises IllegalMove otherwise
        made += 1


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("variant", list(Variant))
def test_full_games_end_in_a_loss(name, variant):
    rules = RuleSet(size=5, variant=variant, noise_budget=8.0)
    for seed in range(3):
        game = play(Game(rules, seed=seed, record=False), get_bot(name, seed=seed),
                    max_moves=5_000)
        assert game.over


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_seed_same_game(name):
    rules = RuleSet(size=6)
    scores = []
    for _ in range(2):
        game = play(Game(rules, seed=42, record=False), get_bot(name, seed=9), max_moves=400)
        scores.append((game.t, game.values))
    assert scores[0] == scores[1]


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("variant", list(Variant))
def test_ranking_is_distinct_legal_and_led_by_the_choice(name, variant):
    rules = RuleSet(size=7, variant=variant)
    game = Game(rules, seed=11, record=False)
    driver = get_bot("greedy", seed=0)
    for _ in range(40):
        if game.over:
            break
        values = game.values
        legal = set(game.legal_moves())
        bot = get_bot(name, seed=5)
        ranked = bot.rank(values, game.size, rules, k=6)
        assert 1 <= len(ranked) <= 6
        assert len(set(ranked)) == len(ranked)
        assert set(ranked) <= legal
        seen = observe(values, game.size, rules)
        effects = [effect(seen, game.size, m) for m in ranked]
        assert len(set(effects)) == len(effects), "two ranked moves have the same effect"
        # The ranking is a pure function of the board (and the bot's seed).
        assert bot.rank(values, game.size, rules, k=6) == ranked
        assert bot_choices(values, game.size, rules, bot=name, seed=5, k=6) == ranked
        assert bot_choices(values, game.size, rules, bot=bot, k=2) == ranked[:2]
        if name != "random":  # the random bot's choose draws from its own stream
            assert get_bot(name, seed=5).choose(game) == ranked[0]
        game.move(*driver.choose(game))


def test_ranking_never_exceeds_the_distinct_moves():
    # Two numbers side by side on a 3x3 board: 3 + 2 legal moves each... every
    # move of the 3 and the 7 is legal, but 3->7 and 7->3 have the same effect.
    values = (0, 0, 0, 3, 7, 0, 0, 0, 0)
    rules = RuleSet(size=3)
    for name in BOT_NAMES:
        ranked = get_bot(name, seed=1).rank(values, 3, rules, k=50)
        # (1,0) has 3 neighbours, (1,1) has 4: 7 moves, of which 2 annihilate the pair.
        assert len(ranked) == 6, name
    assert same_effect(values, 3, rules, (1, 0, 1, 1), (1, 1, 1, 0))
    assert not same_effect(values, 3, rules, (1, 0, 0, 0), (1, 1, 0, 1))


def test_a_ranking_scores_each_legal_move_at_most_once_at_the_largest_size():
    """A bound on the work of one ranking, counted rather than timed.

    Every bot scores candidate moves and keeps the best ``k``: at L = 16 with
    numbers piled up, no bot may score more candidates than there are legal
    moves (no move scored twice, no search beyond the board). How long a
    ranking takes is measured by ``bench/bots.py``, not here.
    """
    rules = RuleSet(size=16)
    game = Game(rules, seed=3, record=False)
    bot = get_bot("greedy", seed=0)
    for _ in range(150):  # let numbers pile up a little
        if game.over:
            break
        game.move(*bot.choose(game))
    assert not game.over
    legal = set(game.legal_moves())
    assert len(legal) > 100
    seen = observe(game.values, 16, rules)
    for name in BOT_NAMES:
        player = get_bot(name, seed=0)
        if isinstance(player, Bot):  # the random bot draws among the legal moves directly
            scored = player.score(seen, geometry(16), tie_breaker(0, seen))
            moves = [move for _, _, move in scored]
            assert len(moves) == len(set(moves)), name
            assert set(moves) <= legal, name
        ranked = player.rank(game.values, 16, rules, k=3)
        assert len(ranked) == 3, name
        assert set(ranked) <= legal, name


class _ValuesOnly:
    """Exactly what a player sees: no labels, no board object, no groups."""

    def __init__(self, values, rules):
        self.values = tuple(values)
        self._values = list(values)  # RandomPolicy peeks at the list for speed
        self.rules = rules
        self.size = rules.size


def test_ranking_accepts_stored_rules_and_any_integer_type():
    game = Game(RuleSet(size=7), seed=12, record=False)
    expected = bot_choices(game.values, 7, game.rules, bot="clustering", k=3)
    as_array = numpy.array(game.values, dtype=numpy.int64)
    assert bot_choices(as_array, 7, game.rules.to_dict(), bot="clustering", k=3) == expected
    with pytest.raises(ValueError, match="integers"):
        bot_choices([float(v) for v in game.values], 7, game.rules, bot="greedy")
