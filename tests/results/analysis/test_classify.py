"""Every move class on a board built by hand, and the classes against the engine's own record."""

from __future__ import annotations

import pytest

from games.engine import Game, Move, RuleSet, Variant
from games.engine.bots import get_bot
from results.analysis import MOVE_CLASSES, board_shape, classify_move
from tests.results.analysis.conftest import board


def test_it_calls_two_complements_meeting_an_annihilation():
    values, labels, size = board(
        [".....", ".37..", ".....", ".....", "....."],
        [".....", ".aa..", ".....", ".....", "....."],
    )
    assert classify_move(values, labels, size, (1, 1, 1, 2)) == "annihilation"
    assert classify_move(values, labels, size, (1, 2, 1, 1)) == "annihilation"


def test_it_tells_joining_one_group_from_merging_two():
    values, labels, size = board(
        [".....", ".34..", ".3...", ".....", "....."],
        [".....", ".aa..", ".a...", ".....", "....."],
    )
    assert classify_move(values, labels, size, (1, 1, 1, 2)) == "same_group"
    values, labels, size = board(
        [".....", ".34..", ".3...", ".....", "....."],
        [".....", ".ab..", ".a...", ".....", "....."],
    )
    assert classify_move(values, labels, size, (1, 1, 1, 2)) == "merge_groups"


def test_it_sees_a_step_toward_the_rest_of_the_group():
    values, labels, size = board(
        [".....", ".....", "3...7", ".....", "....."],
        [".....", ".....", "a...a", ".....", "....."],
    )
    # Also toward the complement: the centroid comes first in the order.
    assert classify_move(values, labels, size, (2, 0, 2, 1)) == "toward_centroid"


def test_it_sees_a_step_toward_a_complement_of_another_group():
    values, labels, size = board(
        ["....3", ".....", "343.7", ".....", "....."],
        ["....b", ".....", "aaa.b", ".....", "....."],
    )
    # Away from its own group's centroid (2, 0.5), one step nearer the 7 at (2, 4).
    assert classify_move(values, labels, size, (2, 2, 2, 3)) == "toward_complement"


def test_it_sees_a_step_away_from_the_edge_and_otherwise_says_other():
    values, labels, size = board(
        ["343..", ".....", ".....", ".....", "....."],
        ["aaa..", ".....", ".....", ".....", "....."],
    )
    # The 3 at (0, 2) moves off the top edge; no 7 anywhere, centroid behind it.
    assert classify_move(values, labels, size, (0, 2, 1, 2)) == "away_from_edge"
    assert classify_move(values, labels, size, (0, 2, 0, 3)) == "other"


def test_the_record_decides_an_annihilation_it_witnessed():
    values, labels, size = board(
        [".....", ".PP..", ".....", ".....", "....."],
        [".....", ".aa..", ".....", ".....", "....."],
    )
    assert classify_move(values, labels, size, (1, 1, 1, 2)) == "unclassified"
    assert classify_move(values, labels, size, (1, 1, 1, 2), annihilated=True) == "annihilation"
    assert classify_move(values, labels, size, (1, 1, 1, 2), annihilated=False) == "same_group"


def test_a_phi_and_a_lambda_never_annihilate():
    values, labels, size = board(
        [".....", ".P5..", ".....", ".....", "....."],
        [".....", ".ab..", ".....", ".....", "....."],
    )
    assert classify_move(values, labels, size, (1, 1, 1, 2)) == "merge_groups"


def test_a_phi_step_needs_its_value_unless_it_nears_its_group():
    values, labels, size = board(
        ["PP...", ".....", ".....", ".....", "....."],
        ["aa...", ".....", ".....", ".....", "....."],
    )
    assert classify_move(values, labels, size, (0, 1, 0, 2)) == "unclassified"
    values, labels, size = board(
        ["P.P..", ".....", ".....", ".....", "....."],
        ["a.a..", ".....", ".....", ".....", "....."],
    )
    assert classify_move(values, labels, size, (0, 0, 0, 1)) == "toward_centroid"


def test_moving_an_empty_cell_is_refused():
    values, labels, size = board(["3..", "7..", "..."], ["a..", "a..", "..."])
    with pytest.raises(ValueError, match="no number"):
        classify_move(values, labels, size, (0, 1, 0, 2))


@pytest.mark.parametrize("variant", [Variant.Z10, Variant.PHI_LAMBDA])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_classes_agree_with_the_engine_on_whole_games(variant, bot):
    """Annihilations and merges are exactly the ones the engine recorded."""
    rules = RuleSet(size=6, variant=variant)
    for seed in range(5):
        game = Game(rules, seed, record=True)
        player = get_bot(bot, seed=seed)
        while not game.over:
            before = game.board()
            move = player.choose(game)
            events = game.move(*move)
            record = next(e for e in events if isinstance(e, Move))
            found = classify_move(before.values, before.labels, rules.size, move)
            assert found in MOVE_CLASSES
            assert (found == "annihilation") == record.annihilated
            if record.to_value_before and not record.annihilated:
                same = record.from_group == record.to_group_before
                assert found == ("same_group" if same else "merge_groups")
            if not record.to_value_before:
                assert found not in ("annihilation", "same_group", "merge_groups")


def test_board_shape_measures_the_largest_group_and_the_widest():
    values, labels, size = board(
        ["3....", "4..1.", "3..9.", "....5", "....5"],
        ["a....", "a..b.", "a..b.", "....c", "....c"],
    )
    shape = board_shape(values, labels, size)
    assert shape.numbers == 7
    assert shape.largest_group_size == 3
    assert (shape.largest_group_row_extent, shape.largest_group_col_extent) == (3, 1)
    assert shape.max_group_extent == 3


def test_board_shape_prefers_the_wider_of_two_equal_groups_and_sees_a_span():
    values, labels, size = board(
        ["37...", ".....", "5....", ".....", "5...."],
        ["aa...", ".....", "b....", ".....", "b...."],
    )
    shape = board_shape(values, labels, size)
    assert (shape.largest_group_size, shape.largest_group_row_extent) == (2, 3)
    assert shape.max_group_extent == 3
    empty = board_shape([0] * 9, [0] * 9, 3)
    assert (empty.numbers, empty.largest_group_size, empty.max_group_extent) == (0, 0, 0)
    spanning = board_shape([5, 0, 0, 0, 0, 0, 5, 0, 0], [1, 0, 0, 0, 0, 0, 1, 0, 0], 3)
    assert spanning.max_group_extent == 3
