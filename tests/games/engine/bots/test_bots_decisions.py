"""What the bots choose on constructed boards, and that they never read group ids."""

from __future__ import annotations

import pytest

from games.engine import Game, RuleSet, Variant
from games.engine.bots import BOTS, clusters_of, get_bot
from games.engine.bots.board import UNKNOWN, observe

BOT_NAMES = sorted(BOTS)


def dist(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


# -- greedy ---------------------------------------------------------------------


def test_greedy_annihilates_a_neighbouring_pair(make_game):
    game = make_game([
        ".....",
        "4....",
        ".37..",
        ".....",
        "...6.",
    ])
    move = get_bot("greedy", seed=0).choose(game)
    assert move in {(2, 1, 2, 2), (2, 2, 2, 1)}
    game.move(*move)
    assert game.value(2, 1) == game.value(2, 2) == 0


def test_greedy_annihilates_the_pair_nearest_the_border_first(make_game):
    game = make_game([
        ".......",
        ".......",
        ".......",
        "...46..",  # a pair in the middle (border distance 3 and 2)
        ".......",
        ".......",
        "..19...",  # a pair on the bottom edge (border distance 0)
    ])
    ranked = get_bot("greedy", seed=0).rank(game.values, 7, game.rules, k=2)
    assert ranked[0] in {(6, 2, 6, 3), (6, 3, 6, 2)}
    assert ranked[1] in {(3, 3, 3, 4), (3, 4, 3, 3)}


def test_greedy_steps_toward_the_nearest_complement(make_game):
    game = make_game([
        "......4",
        ".......",
        ".......",
        "2..8...",  # 2 and 8 three apart: the nearest pair
        ".......",
        ".......",
        "......6",  # 4 and 6 six apart
    ])
    move = get_bot("greedy", seed=0).choose(game)
    # One of the 2 and the 8 steps toward the other; the 2 sits on the left
    # edge, and a step off the border is preferred.
    assert move == (3, 0, 3, 1)
    assert dist(move[2:], (3, 3)) == 2


def test_greedy_prefers_the_nearer_of_two_complements(make_game):
    game = make_game([
        "3.....",
        "......",
        "......",
        "......",
        "......",
        "7.7..3",
    ])
    # The 3 at (5,5) has a 7 three away; the 3 at (0,0) has one five away.
    move = get_bot("greedy", seed=0).choose(game)
    assert move in {(5, 5, 5, 4), (5, 2, 5, 3), (5, 5, 4, 5)}
    assert move[:2] in {(5, 5), (5, 2)}


def test_greedy_without_complements_moves_toward_the_nearest_number(make_game):
    game = make_game([
        "3..3.",
        ".....",
        ".....",
        ".....",
        "....4",
    ])
    # 3 + 3 + 4 = 10 but no two of them add up to 10: fuse the two nearest.
    move = get_bot("greedy", seed=0).choose(game)
    assert move in {(0, 0, 0, 1), (0, 3, 0, 2)}


# -- clustering -----------------------------------------------------------------


def test_clustering_finds_the_neutral_clusters(make_game):
    game = make_game([
        ".......",
        ".12....",
        ".7.....",
        ".......",
        ".......",
        ".....55",
        ".......",
    ])
    clusters = clusters_of(game.values, 7, game.rules)
    found = {frozenset(c.positions(7)): c for c in clusters}
    assert set(found) == {
        frozenset({(1, 1), (1, 2), (2, 1)}),  # 1 + 2 + 7 = 10
        frozenset({(5, 5), (5, 6)}),  # 5 + 5 = 10
    }
    assert all(c.neutral for c in clusters)
    triple = found[frozenset({(1, 1), (1, 2), (2, 1)})]
    assert divmod(triple.center, 7) == (1, 1)  # the medoid: one step from each other member
    assert triple.cost == 2
    assert triple.radius == 1


def test_clustering_pairs_neighbouring_complements_before_growing(make_game):
    game = make_game([
        "......",
        "......",
        ".6437.",  # 6+4 and 3+7 are neutral pairs; 4+3 is not
        "......",
        "......",
        "......",
    ])
    clusters = clusters_of(game.values, 6, game.rules)
    assert {frozenset(c.positions(6)) for c in clusters} == {
        frozenset({(2, 1), (2, 2)}),
        frozenset({(2, 3), (2, 4)}),
    }


def test_clustering_grows_until_neutral(make_game):
    game = make_game([
        "1......",
        ".......",
        ".......",
        "...2...",
        ".......",
        ".......",
        "......7",
    ])
    clusters = clusters_of(game.values, 7, game.rules)
    assert len(clusters) == 1
    (cluster,) = clusters
    assert cluster.neutral
    assert len(cluster.cells) == 3
    assert cluster.radius == 6  # (0,0)-(3,3) and (3,3)-(6,6) are six apart
    assert cluster.gap == 0  # from the top-left corner to the bottom-right one


def test_clustering_works_first_on_the_cluster_nearest_to_spanning(make_game):
    game = make_game([
        "...4...",
        ".......",
        ".......",
        "...6...",  # a pair stretching from the top edge to the middle
        ".......",
        ".19....",  # a neighbouring pair that could be annihilated at once
        ".......",
    ])
    move = get_bot("clustering", seed=0).choose(game)
    # The 4-6 cluster misses only three rows to span; the 1-9 pair misses six.
    assert move in {(0, 3, 1, 3), (3, 3, 2, 3)}


def test_clustering_annihilates_inside_a_cluster(make_game):
    game = make_game([
        ".....",
        ".37..",
        ".....",
        ".....",
        ".....",
    ])
    move = get_bot("clustering", seed=0).choose(game)
    assert move in {(1, 1, 1, 2), (1, 2, 1, 1)}


# -- player ---------------------------------------------------------------------


def test_player_annihilates_and_otherwise_approaches_a_partner(make_game):
    game = make_game([
        ".....",
        ".....",
        ".28..",
        ".....",
        ".....",
    ])
    assert get_bot("player", seed=0).choose(game) in {(2, 1, 2, 2), (2, 2, 2, 1)}
    game = make_game([
        ".....",
        ".....",
        "2..8.",
        ".....",
        ".....",
    ])
    move = get_bot("player", seed=0).choose(game)
    assert move in {(2, 0, 2, 1), (2, 3, 2, 2)}


# -- the bots see values only -----------------------------------------------------


def _relabelled(game: Game, mapping) -> Game:
    state = game.to_state()
    labels = [mapping(cell, label) if label else 0 for cell, label in enumerate(state["labels"])]
    state["labels"] = labels
    state["next_label"] = max(labels) + 1
    return Game.from_state(state, record=False)


@pytest.mark.parametrize("variant", list(Variant))
def test_relabelling_the_groups_changes_no_choice(variant):
    rules = RuleSet(size=7, variant=variant)
    game = Game(rules, seed=2024, record=False)
    driver = get_bot("clustering", seed=1)
    checked = 0
    while not game.over and checked < 25:
        if not game.spanning_labels():
            # Permute the ids, and (a different partition) give every number its own id.
            shuffled = _relabelled(game, lambda cell, label: 1000 - label)
            split = _relabelled(game, lambda cell, label: cell + 1)
            assert shuffled.labels() != game.labels()
            for name in sorted(BOTS):
                expected = get_bot(name, seed=77).choose(game)
                assert get_bot(name, seed=77).choose(shuffled) == expected, name
                assert get_bot(name, seed=77).choose(split) == expected, name
            checked += 1
        game.move(*driver.choose(game))
    assert checked >= 10


class _NoLabels:
    """A game that raises if anything but the values, size or rules is read."""

    def __init__(self, game: Game):
        self.values = game.values
        self._values = list(game.values)
        self.size = game.size
        self.rules = game.rules

    def __getattr__(self, name):
        raise AssertionError(f"a bot read game.{name}")


def test_bots_read_nothing_but_values_size_and_rules():
    game = Game(RuleSet(size=8), seed=5, record=False)
    for name in sorted(BOTS):
        move = get_bot(name, seed=4).choose(_NoLabels(game))
        assert move in set(game.legal_moves())


def test_phi_lambda_bots_see_only_five_or_not_five():
    rules = RuleSet(size=6, variant=Variant.PHI_LAMBDA)
    game = Game(rules, seed=99, record=False)
    values = game.values
    seen = observe(values, 6, rules)
    assert set(seen) <= {0, 5, UNKNOWN}
    # Change every hidden (Phi) value: nothing the player sees changes.
    other = tuple(v if v in (0, 5) else (1 if v != 1 else 9) for v in values)
    assert other != values
    for name in sorted(BOTS):
        ranked = get_bot(name, seed=3).rank(values, 6, rules, k=5)
        assert get_bot(name, seed=3).rank(other, 6, rules, k=5) == ranked
        assert get_bot(name, seed=3).rank(seen, 6, rules, k=5) == ranked


def test_phi_lambda_lambdas_annihilate_first(make_game):
    game = make_game([
        ".....",
        ".55..",
        ".....",
        "..37.",
        ".....",
    ], variant=Variant.PHI_LAMBDA)
    for name in ("greedy", "clustering", "player"):
        assert get_bot(name, seed=0).choose(game) in {(1, 1, 1, 2), (1, 2, 1, 1)}, name
