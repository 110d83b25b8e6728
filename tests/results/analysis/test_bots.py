"""The bots over whole games: greedy annihilates whenever it can; no bot moves illegally."""

from __future__ import annotations

import pytest

from games.engine import Game, RuleSet, Variant
from games.engine.bots import BOTS, get_bot
from results.analysis import classify_move


def _annihilation_available(values: tuple[int, ...], size: int) -> bool:
    for i, v in enumerate(values):
        if not v:
            continue
        row, col = divmod(i, size)
        for r, c in ((row + 1, col), (row, col + 1)):
            other = values[r * size + c] if r < size and c < size else 0
            if other and (v + other) % 10 == 0:
                return True
    return False


@pytest.mark.parametrize("size", [4, 7, 10])
def test_greedy_annihilates_whenever_a_pair_touches(size):
    rules = RuleSet(size=size)
    checked = 0
    for seed in range(8):
        game = Game(rules, seed, record=False)
        bot = get_bot("greedy", seed=seed)
        while not game.over:
            board = game.board()
            move = bot.choose(game)
            if _annihilation_available(board.values, size):
                checked += 1
                assert classify_move(board.values, board.labels, size, move) == "annihilation"
            game.move(*move)
    assert checked > 20  # the situation came up often enough to mean something


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("variant", list(Variant))
def test_no_bot_ever_moves_illegally(name, variant):
    rules = RuleSet(size=6, variant=variant, noise_budget=5.0)
    for seed in range(4):
        game = Game(rules, seed, record=False)
        bot = get_bot(name, seed=seed)
        moves = 0
        while not game.over and moves < 400:
            move = bot.choose(game)
            assert move in set(game.legal_moves())
            game.move(*move)
            moves += 1
