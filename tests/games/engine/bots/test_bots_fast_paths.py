"""The bots' fast paths decide exactly as the plain definitions do.

``choose`` must play the first move of ``rank`` on every board, and the
clustering bot's growth must find the clusters of the plain growth, on
boards of every size the threshold families use.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, SplitMix64, threshold_rules
from games.engine.bots import UNKNOWN, get_bot, grow_clusters
from games.engine.bots.board import geometry, nth_output, tie_breaker, tie_state

from .reference_clustering import reference_grow_clusters

# CPU-heavy: bin/test runs it in its second pass, without coverage's tracer
# (which makes pure-Python loops several times slower).
pytestmark = pytest.mark.slow


def described(clusters: list) -> list[tuple]:
    return [(c.cells, c.neutral, c.radius, c.center, c.gap, c.cost) for c in clusters]


boards = st.integers(min_value=3, max_value=16).flatmap(
    lambda size: st.tuples(
        st.just(size),
        st.lists(
            st.one_of(st.just(0), st.integers(min_value=1, max_value=9)),
            min_size=size * size, max_size=size * size,
        ),
        st.booleans(),
    )
)


@given(board=boards)
@settings(max_examples=100, deadline=None)
def test_growth_finds_the_clusters_of_the_plain_growth(board: tuple[int, list[int], bool]) -> None:
    size, values, phi_lambda = board
    if phi_lambda:
        values = [v if v in (0, 5) else UNKNOWN for v in values]
    seen = tuple(values)
    geo = geometry(size)
    assert described(grow_clusters(seen, geo)) == described(reference_grow_clusters(seen, geo))


@pytest.mark.parametrize("size", [24, 32])
def test_growth_matches_on_large_boards_near_threshold(size: int) -> None:
    rules = threshold_rules(family="one_shot", size=size, rate=0.15)
    for seed in range(2):
        seen = Game(rules, seed, record=False).values
        geo = geometry(size)
        assert described(grow_clusters(seen, geo)) == described(
            reference_grow_clusters(seen, geo)
        )


def test_the_tie_state_is_the_tie_breakers_state() -> None:
    rng = SplitMix64(99)
    for _ in range(20):
        seen = tuple(rng.below(10) for _ in range(49))
        seed = rng.next64()
        breaker = tie_breaker(seed, seen)
        state = tie_state(seed, seen)
        assert breaker.state == state
        assert [breaker.next64() for _ in range(5)] == [nth_output(state, n) for n in range(1, 6)]


@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    size=st.integers(min_value=3, max_value=24),
    rate=st.floats(min_value=0.02, max_value=0.3),
    variant=st.sampled_from(["z10", "phi_lambda"]),
    bot=st.sampled_from(["greedy", "clustering", "player"]),
)
@settings(max_examples=30, deadline=None)
def test_choose_plays_the_first_move_of_the_ranking(
    seed: int, size: int, rate: float, variant: str, bot: str
) -> None:
    rules = threshold_rules(family="one_shot", size=size, rate=rate, variant=variant)
    game = Game(rules, seed, record=False)
    player = get_bot(bot, seed=seed)
    for _ in range(60):
        if game.over:
            break
        move = player.choose(game)
        assert move == player.rank(game.values, size, rules, k=1)[0]
        game.move(*move)
