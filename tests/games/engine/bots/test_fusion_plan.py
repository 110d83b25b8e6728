"""The clustering bot's one-shot fusion plan: clusters grown once, then followed.

Before the plan, one-shot decoding grew the clusters from scratch on every
board (one growth per move, about 2 s of CPU for an L = 32 board near the
threshold). The plan grows them once and follows them; these tests count
growths (never time them) and check that the plan decodes like the bot.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, RuleSet, bot_seed, decode, shot_seed, threshold_rules
from games.engine.bots import RenormalisationBot, clusters_of, get_bot
from games.engine.bots.clustering import FusionPlan


def _one_shot(size: int, rate: float, shot: int, variant: str = "z10") -> tuple[RuleSet, int]:
    rules = threshold_rules(family="one_shot", size=size, rate=rate, variant=variant)
    return rules, shot_seed(seed=11, size=size, rate=rate, shot=shot)


class _Counting:
    """The clustering bot, counting the plans it makes."""

    def __init__(self, seed: int) -> None:
        self.inner = RenormalisationBot(seed)
        self.plans: list[FusionPlan] = []

    def plan(self) -> FusionPlan:
        made = self.inner.plan()
        self.plans.append(made)
        return made

    def choose(self, game: Game) -> Any:
        return self.inner.choose(game)

    def rank(self, values: tuple[int, ...], size: int, rules: RuleSet, k: int) -> Any:
        return self.inner.rank(values, size, rules, k)


@pytest.mark.parametrize(("size", "rate"), [(16, 0.3), (24, 0.25)])
def test_a_one_shot_board_is_decoded_with_few_growths(size: int, rate: float) -> None:
    rules, seed = _one_shot(size, rate, 0)
    player = _Counting(bot_seed(seed))
    game = decode(Game(rules, seed, record=False), player, max_moves=3 * size * size)
    assert game.over
    (plan,) = player.plans
    assert game.moves_made > 100
    # Growing again happens only when a member steps onto another cluster's number.
    assert plan.grown <= game.moves_made // 10


@pytest.mark.parametrize("variant", ["z10", "phi_lambda"])
def test_the_plan_plays_legal_moves_until_the_board_is_clean_or_spans(variant: str) -> None:
    for shot in range(6):
        rules, seed = _one_shot(10, 0.25, shot, variant)
        game = Game(rules, seed, record=False)
        plan = get_bot("clustering", seed=bot_seed(seed)).plan()  # type: ignore[union-attr]
        while not game.over and game.moves_made < 3 * 100:
            game.move(*plan.choose(game))  # an illegal move raises
        assert game.over
        assert game.loss is not None or game.numbers == 0


def test_the_first_move_is_in_the_most_urgent_cluster() -> None:
    rules, seed = _one_shot(12, 0.2, 1)
    game = Game(rules, seed, record=False)
    bot = RenormalisationBot(5)
    top = next(c for c in clusters_of(game.values, game.size, rules) if len(c.cells) > 1)
    fr, fc, tr, tc = bot.plan().choose(game)
    assert fr * 12 + fc in top.cells
    assert abs(fr - tr) + abs(fc - tc) == 1


def _plan_moves(rules: RuleSet, seed: int, bot: int) -> list[tuple[int, int, int, int]]:
    game = Game(rules, seed, record=False)
    plan = RenormalisationBot(bot).plan()
    moves: list[tuple[int, int, int, int]] = []
    while not game.over and len(moves) < 3 * rules.size * rules.size:
        moves.append(plan.choose(game))
        game.move(*moves[-1])
    return moves


def test_the_same_board_and_seed_give_the_same_moves() -> None:
    rules, seed = _one_shot(12, 0.3, 2)
    first = _plan_moves(rules, seed, 1)
    assert len(first) > 10
    assert _plan_moves(rules, seed, 1) == first


def test_a_move_the_plan_did_not_choose_makes_it_grow_again() -> None:
    rules, seed = _one_shot(12, 0.3, 3)
    game = Game(rules, seed, record=False)
    plan = RenormalisationBot(0).plan()
    game.move(*plan.choose(game))
    game.move(*plan.choose(game))
    assert plan.grown == 1  # followed, not grown again
    game.move(*get_bot("greedy", seed=0).choose(game))  # a move the plan did not choose
    game.move(*plan.choose(game))
    assert plan.grown == 2
    plan.forget()
    plan.choose(game)
    assert plan.grown == 3
