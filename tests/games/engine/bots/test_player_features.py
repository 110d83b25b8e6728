"""The player bot scores with the shared features and still plays exactly as version 1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, RuleSet, Variant, play
from games.engine.bots import UNKNOWN, PlayerBot, get_bot
from games.engine.bots.board import geometry, tie_breaker

from .reference_player import ReferencePlayerBot

pytestmark = pytest.mark.slow

boards = st.integers(min_value=3, max_value=12).flatmap(
    lambda size: st.tuples(
        st.just(size),
        st.lists(
            st.one_of(st.just(0), st.just(0), st.integers(min_value=1, max_value=9)),
            min_size=size * size, max_size=size * size,
        ),
        st.booleans(),
        st.integers(min_value=0, max_value=2**64 - 1),
    )
)


@given(board=boards)
@settings(max_examples=200, deadline=None)
def test_player_scores_every_move_bit_for_bit_as_version_one(
    board: tuple[int, list[int], bool, int],
) -> None:
    size, values, phi_lambda, seed = board
    if phi_lambda:
        values = [v if v in (0, 5) else UNKNOWN for v in values]
    seen = tuple(values)
    geo = geometry(size)
    new = PlayerBot(seed).score(seen, geo, tie_breaker(seed, seen))
    old = ReferencePlayerBot(seed).score(seen, geo, tie_breaker(seed, seen))
    assert new == old


@pytest.mark.parametrize(("rules", "seed"), [
    (RuleSet(), 20160328),
    (RuleSet(size=5, noise_budget=3.0), 4),
    (RuleSet(size=9, variant=Variant.PHI_LAMBDA, noise_budget=4.5), 99),
])
def test_player_games_are_move_for_move_those_of_version_one(rules: RuleSet, seed: int) -> None:
    new = play(Game(rules, seed), get_bot("player", seed=3), max_moves=400)
    old = play(Game(rules, seed), ReferencePlayerBot(3), max_moves=400)
    assert new.events == old.events
    assert new.t > 0
