"""Moves: where numbers may go, what they add up to, and what happens to their groups."""

from __future__ import annotations

import json

import pytest

from games.engine import GroupMerge, IllegalMove, Loss, MergeLabel, Move, RuleSet

from .engine_testkit import check_board, grid, position

# t = 1 in every position below, so that no move reaches a noise round unless meant to.

BOARD = [
    "00000",
    "03700",
    "00000",
    "00280",
    "00000",
]
LABELS = [
    [0] * 5,
    [0, 1, 1, 0, 0],
    [0] * 5,
    [0, 0, 2, 2, 0],
    [0] * 5,
]


def game_on(rows=BOARD, labels=LABELS, **kwargs):
    kwargs.setdefault("t", 1)
    return position(rows, labels, **kwargs)


def test_a_number_moves_to_an_empty_neighbour_and_keeps_its_group() -> None:
    game = game_on()
    events = game.move(1, 1, 2, 1)
    assert grid(game) == ["00000", "00700", "03000", "00280", "00000"]
    assert game.label(2, 1) == 1
    assert game.label(1, 1) == 0
    assert events == [
        Move(t=2, round=1, index=2, from_row=1, from_col=1, to_row=2, to_col=1, value=3,
             to_value_before=0, to_value_after=3, from_group=1, to_group_before=0,
             to_group_after=1, annihilated=False)
    ]
    assert game.numbers == 4


def test_the_destination_becomes_the_sum_mod_10_within_a_group() -> None:
    game = game_on(["00000", "06600", "00000", "00280", "00000"])
    (event,) = game.move(1, 1, 1, 2)
    assert game.value(1, 2) == 2
    assert game.value(1, 1) == 0
    assert (event.value, event.to_value_before, event.to_value_after) == (6, 6, 2)
    assert (event.from_group, event.to_group_before, event.to_group_after) == (1, 1, 1)
    assert not event.annihilated
    assert game.numbers == 3


def test_two_numbers_adding_up_to_ten_annihilate() -> None:
    game = game_on()
    (event,) = game.move(1, 2, 1, 1)
    assert game.value(1, 1) == game.value(1, 2) == 0
    assert game.label(1, 1) == game.label(1, 2) == 0
    assert event.annihilated
    assert event.to_value_after == 0
    assert event.to_group_after == 0
    assert game.numbers == 2


@pytest.mark.parametrize(
    ("convention", "surviving", "absorbed"),
    [(MergeLabel.DESTINATION, 2, 1), (MergeLabel.MOVED, 1, 2)],
)
def test_moving_onto_another_group_merges_the_two(
    convention: MergeLabel, surviving: int, absorbed: int
) -> None:
    rows = ["00000", "03700", "00100", "00900", "00000"]
    labels = [[0] * 5, [0, 1, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 2, 0, 0], [0] * 5]
    game = game_on(rows, labels, rules=RuleSet(size=5, merge_label=convention))
    events = game.move(1, 2, 2, 2)  # the 7 of group 1 onto the 1 of group 2
    move, merge = events
    assert isinstance(move, Move)
    assert isinstance(merge, GroupMerge)
    assert (move.from_group, move.to_group_before, move.to_group_after) == (1, 2, surviving)
    assert merge == GroupMerge(t=2, round=1, cause="move", surviving=surviving,
                               absorbed=absorbed, size=3)
    assert grid(game)[1:4] == ["03000", "00800", "00900"]
    # every number of both groups now carries the surviving id
    assert {game.label(1, 1), game.label(2, 2), game.label(3, 2)} == {surviving}
    check_board(game.values, game.labels())


@pytest.mark.parametrize("convention", list(MergeLabel))
def test_groups_merge_even_when_the_merging_move_annihilates(convention: MergeLabel) -> None:
    rows = ["00000", "03700", "00300", "00000", "00000"]
    labels = [[0] * 5, [0, 1, 1, 0, 0], [0, 0, 2, 0, 0], [0] * 5, [0] * 5]
    # group 2 is a lone 3 at (2,2) after noise broke a pair; the 7 of group 1 annihilates it
    game = game_on(rows, labels, rules=RuleSet(size=5, merge_label=convention))
    move, merge = game.move(1, 2, 2, 2)
    assert move.annihilated
    assert move.to_group_after == 0
    surviving = 2 if convention is MergeLabel.DESTINATION else 1
    assert (merge.surviving, merge.absorbed) == (surviving, 3 - surviving)
    # counted once the move is complete: only the 3 at (1,1) is left in the group
    assert merge.size == 1
    assert game.label(1, 1) == surviving


def test_the_merge_event_follows_the_move_that_caused_it() -> None:
    rows = ["00000", "03700", "00100", "00900", "00000"]
    labels = [[0] * 5, [0, 1, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 2, 0, 0], [0] * 5]
    game = game_on(rows, labels)
    before = len(game.events)
    game.move(1, 2, 2, 2)
    assert [e.kind for e in game.events[before:]] == ["move", "merge"]


def test_an_annihilation_never_splits_a_group() -> None:
    rows = ["00500", "00500", "01540", "00000", "00000"]
    labels = [[0, 0, 2, 0, 0], [0, 0, 2, 0, 0], [0, 1, 1, 1, 0], [0] * 5, [0] * 5]
    game = game_on(rows, labels)
    game.move(1, 2, 2, 2)  # group 2's 5 annihilates the middle 5 of group 1
    assert grid(game)[:3] == ["00500", "00000", "01040"]
    # three pieces far apart, one id
    assert {game.label(0, 2), game.label(2, 1), game.label(2, 3)} == {1}
    check_board(game.values, game.labels())
    # later moves treat the pieces as one group: no new merge when they meet
    before = len(game.events)
    game.move(2, 1, 1, 1)
    game.move(1, 1, 1, 2)
    assert [e.kind for e in game.events[before:]] == ["move", "move"]
    assert game.label(1, 2) == 1


def test_spanning_is_about_group_ids_not_about_a_connected_path() -> None:
    rows = ["20000", "00000", "08000", "00000", "00000"]
    labels = [[1, 0, 0, 0, 0], [0] * 5, [0, 1, 0, 0, 0], [0] * 5, [0] * 5]
    game = game_on(rows, labels)
    game.move(2, 1, 3, 1)
    assert not game.over
    game.move(3, 1, 4, 1)  # group 1 now has a number in row 0 and one in row 4
    assert game.loss == Loss(t=3, round=1, group=1, axis="top_bottom", spanning_groups=1)


# -- illegal moves ----------------------------------------------------------------


ILLEGAL = [
    ((1, 1, 1, -1), "off_grid"),
    ((0, 0, -1, 0), "off_grid"),
    ((1, 1, 5, 1), "off_grid"),
    ((4, 4, 4, 5), "off_grid"),
    ((5, 1, 4, 1), "off_grid"),
    ((-1, 2, 0, 2), "off_grid"),
    ((1, 1, 2, 2), "not_adjacent"),  # diagonal
    ((1, 2, 0, 1), "not_adjacent"),  # the other diagonal
    ((1, 1, 1, 1), "not_adjacent"),  # the same cell
    ((1, 1, 1, 3), "not_adjacent"),  # two steps
    ((1, 1, 3, 1), "not_adjacent"),
    ((0, 0, 0, 1), "empty_source"),
    ((2, 2, 1, 2), "empty_source"),
    ((1.0, 1, 1, 2), "off_grid"),
    ((1, "1", 1, 2), "off_grid"),
    ((1, 1, True, 2), "off_grid"),
    ((1, 1, 1, None), "off_grid"),
    ((1, 1, 1, 2.0), "off_grid"),
]


@pytest.mark.parametrize(("move", "code"), ILLEGAL)
def test_an_illegal_move_is_refused_and_leaves_the_game_untouched(
    move: tuple, code: str
) -> None:
    game = game_on()
    state = json.dumps(game.to_state())
    events = len(game.events)
    with pytest.raises(IllegalMove) as info:
        game.move(*move)
    assert info.value.code == code
    assert info.value.message
    with pytest.raises(IllegalMove) as checked:
        game.check_move(*move)
    assert checked.value.code == code
    assert json.dumps(game.to_state()) == state
    assert len(game.events) == events
    assert game.t == 1
    assert game.moves_made == 1


def test_it_rejects_a_move_off_the_grid_from_the_edge() -> None:
    game = game_on(["00000", "00000", "00000", "00000", "00037"],
                   [[0] * 5] * 4 + [[0, 0, 0, 1, 1]])
    for move in [(4, 4, 4, 5), (4, 4, 5, 4), (4, 3, 5, 3)]:
        with pytest.raises(IllegalMove) as info:
            game.move(*move)
        assert info.value.code == "off_grid"
    assert grid(game)[4] == "00037"


def test_a_legal_move_passes_the_check() -> None:
    game = game_on()
    assert game.check_move(1, 1, 0, 1) is None
    assert grid(game) == BOARD


def test_no_move_is_accepted_once_the_game_is_over() -> None:
    rows = ["50000", "50000", "00000", "00000", "00000"]
    game = game_on(rows, None)
    game.move(1, 0, 2, 0)
    game.move(2, 0, 3, 0)
    game.move(3, 0, 4, 0)
    assert game.over
    assert game.loss is not None
    state = json.dumps(game.to_state())
    events = len(game.events)
    for move in [(4, 0, 3, 0), (0, 0, 0, 1), (9, 9, 9, 9), (0, 0, 1, 1)]:
        with pytest.raises(IllegalMove) as info:
            game.move(*move)
        assert info.value.code == "game_over"
    assert json.dumps(game.to_state()) == state
    assert len(game.events) == events
    assert list(game.legal_moves()) == []


def test_legal_moves_lists_every_move_of_every_number_and_nothing_else() -> None:
    game = game_on()
    listed = set(game.legal_moves())
    expected = set()
    for r in range(5):
        for c in range(5):
            if not game.value(r, c):
                continue
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < 5 and 0 <= c + dc < 5:
                    expected.add((r, c, r + dr, c + dc))
    assert listed == expected
    assert len(listed) == 16
    for move in listed:
        game.check_move(*move)
