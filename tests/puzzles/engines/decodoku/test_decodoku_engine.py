"""The Decodoku puzzle's board, links and the checking and scoring of explanations."""

from __future__ import annotations

import pytest

from puzzles.engines.decodoku import (
    STANDARD,
    Board,
    DecodokuError,
    check,
    geometry,
    groups_of,
    parse_grid,
    score,
)


def test_the_standard_board_has_112_links_in_the_documented_order() -> None:
    assert len(STANDARD.links) == 112
    assert STANDARD.links[0] == (0, 1)  # horizontal links first, row by row
    assert STANDARD.links[55] == (62, 63)
    assert STANDARD.links[56] == (0, 8)  # then the vertical ones
    assert STANDARD.links[111] == (55, 63)
    assert STANDARD.link(9, 1) == 56 + 1
    with pytest.raises(DecodokuError, match="not neighbours"):
        STANDARD.link(0, 9)


def test_groups_and_the_corners_they_give() -> None:
    # 3 x 3:  ? 4 0 / 6 0 0 / 0 0 ?  -- the 4 with the top-left, the 6 alone: invalid.
    board = Board(geometry(3, 3), (0, 4, 0, 6, 0, 0, 0, 0, 0))
    geo = board.geometry
    alone = check(board, [geo.link(0, 1)])
    assert not alone.valid
    assert [g.cells for g in alone.unbalanced] == [(3,)]
    both = check(board, [geo.link(0, 1), geo.link(0, 3)])
    assert both.valid
    assert (both.top_left, both.bottom_right) == (0, 0)
    split = check(board, [geo.link(0, 1), geo.link(3, 6), geo.link(6, 7), geo.link(7, 8)])
    assert split.valid
    assert (split.top_left, split.bottom_right) == (6, 4)
    assert split.answers == frozenset({6})
    assert groups_of(geo, [geo.link(0, 1)])[0] == [0, 1]


def test_corners_in_one_group_allow_every_top_left_value() -> None:
    board = Board(geometry(2, 2), (0, 3, 0, 0))
    geo = board.geometry
    joined = check(board, [geo.link(0, 1), geo.link(1, 3)])
    assert joined.valid
    assert joined.corners_joined
    assert joined.top_left is None
    assert joined.answers == frozenset(range(10))


def test_scoring_an_answer_against_the_recorded_corner_and_the_minimum() -> None:
    board = parse_grid("7" + "3" + "0" * 61 + "0", keep_corners=True)
    result = score(board, [0], 7, minimum=1)
    assert (result.valid, result.consistent, result.correct, result.excess) == (
        True,
        True,
        True,
        0,
    )
    wrong = score(board, [1, 2], 2, minimum=1)  # the 3 with cells 2 and 3: no corner
    assert (wrong.valid, wrong.consistent, wrong.correct, wrong.excess) == (
        False,
        False,
        False,
        1,
    )
    with pytest.raises(DecodokuError, match="digit 0-9"):
        score(board, [0], 10)
    with pytest.raises(DecodokuError, match="links are numbered 0 to 111"):
        check(board, [112])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0" * 63, "63 characters, not 64"),
        ("?" + "0" * 61 + "-" + "?", "character 63"),
        ("a" + "0" * 63, "is a corner"),
    ],
)
def test_bad_grids_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DecodokuError, match=message):
        parse_grid(text)


def test_boards_refuse_values_that_are_not_digits() -> None:
    with pytest.raises(DecodokuError, match="digits 0-9"):
        Board(geometry(2, 2), (0, 10, 0, 0))
    with pytest.raises(DecodokuError, match="hidden corners hold 0"):
        Board(geometry(2, 2), (1, 0, 0, 0))
    with pytest.raises(DecodokuError, match="2 to 16"):
        geometry(1, 5)
