"""Noise ("generateNoise"): choosing the pair of cells, the values, the groups and the weight.

Each test scripts the generator (``ScriptedRng``), which also checks the range
of every draw and so pins the documented order of draws: the first cell
``below(L*L)``, the axis ``below(2)``, the direction ``below(2)`` only off
the boundary, Phi-Lambda's ``below(100)``, then ``a = 1 + below(9)``.
"""

from __future__ import annotations

import pytest

from games.engine import Game, GroupMerge, NoiseError, NoiseRoundEnded, RuleSet, Variant

from .engine_testkit import check_board, error_draws, grid, position, script

EMPTY5 = ["00000"] * 5


def one_error_rules(size: int = 5, **kwargs: object) -> RuleSet:
    """Rounds of exactly one error: every error weighs at least 0.1."""
    return RuleSet(size=size, noise_budget=0.1, **kwargs)  # type: ignore[arg-type]


def run_round(game: Game, draws: list[tuple[int, int]]) -> list:
    """Run one noise round on the scripted draws; all of them must be used."""
    first = len(game.events)
    rng = script(game, draws)
    game._noise_round()
    assert rng.exhausted, f"the round used {rng.position} of {len(draws)} scripted draws"
    return game.events[first:]


def errors_of(events: list) -> list[NoiseError]:
    return [e for e in events if isinstance(e, NoiseError)]


# -- which two cells ---------------------------------------------------------------

# (first cell, axis draw, direction draw or None when forced, expected second cell), L = 5
NEIGHBOURS = [
    # the four edges, stepping across the edge's axis: forced inward, nothing drawn
    ((0, 2), 0, None, (1, 2)),
    ((4, 2), 0, None, (3, 2)),
    ((2, 0), 1, None, (2, 1)),
    ((2, 4), 1, None, (2, 3)),
    # the four corners, both axes forced
    ((0, 0), 0, None, (1, 0)),
    ((0, 0), 1, None, (0, 1)),
    ((0, 4), 0, None, (1, 4)),
    ((0, 4), 1, None, (0, 3)),
    ((4, 0), 0, None, (3, 0)),
    ((4, 0), 1, None, (4, 1)),
    ((4, 4), 0, None, (3, 4)),
    ((4, 4), 1, None, (4, 3)),
    # an edge cell stepping along its edge: the direction is drawn
    ((0, 2), 1, 1, (0, 3)),
    ((0, 2), 1, 0, (0, 1)),
    ((4, 2), 1, 1, (4, 3)),
    ((2, 0), 0, 0, (1, 0)),
    ((2, 4), 0, 1, (3, 4)),
    # interior cells: 1 is +1, 0 is -1
    ((2, 2), 0, 1, (3, 2)),
    ((2, 2), 0, 0, (1, 2)),
    ((2, 2), 1, 1, (2, 3)),
    ((2, 2), 1, 0, (2, 1)),
    ((1, 3), 0, 0, (0, 3)),
    ((3, 1), 1, 0, (3, 0)),
]


@pytest.mark.parametrize(("cell", "axis", "direction", "second"), NEIGHBOURS)
def test_the_second_cell_is_a_neighbour_forced_inward_on_the_boundary(
    cell: tuple[int, int], axis: int, direction: int | None, second: tuple[int, int]
) -> None:
    game = position(EMPTY5, rules=one_error_rules())
    draws = [(25, cell[0] * 5 + cell[1]), (2, axis)]
    if direction is not None:
        draws.append((2, direction))
    draws.append((9, 2))  # a = 3
    (error,) = errors_of(run_round(game, draws))
    assert (error.row1, error.col1) == cell
    assert (error.row2, error.col2) == second
    assert game.value(*cell) == 3
    assert game.value(*second) == 7


@pytest.mark.parametrize("size", [3, 4, 16])
def test_the_first_cell_is_drawn_row_major_over_the_whole_grid(size: int) -> None:
    last = size * size - 1
    game = position(["0" * size] * size, rules=one_error_rules(size))
    (error,) = errors_of(run_round(game, [(size * size, last), (2, 0), (9, 0)]))
    assert (error.row1, error.col1) == (size - 1, size - 1)
    assert (error.row2, error.col2) == (size - 2, size - 1)


def test_error_draws_follow_the_documented_order() -> None:
    assert error_draws(5, (2, 2), (2, 3), 4) == [(25, 12), (2, 1), (2, 1), (9, 3)]
    assert error_draws(5, (0, 2), (1, 2), 4) == [(25, 2), (2, 0), (9, 3)]
    assert error_draws(5, (0, 2), (1, 2), 5, phi_lambda=True) == [
        (25, 2), (2, 0), (100, 0)
    ]


# -- the values a and aa ------------------------------------------------------------


@pytest.mark.parametrize("a", range(1, 10))
def test_a_is_one_plus_the_draw_and_aa_completes_ten(a: int) -> None:
    game = position(EMPTY5, rules=one_error_rules())
    (error,) = errors_of(run_round(game, error_draws(5, (1, 1), (1, 2), a)))
    assert (error.a, error.aa) == (a, 10 - a)
    assert (game.value(1, 1), game.value(1, 2)) == (a, 10 - a)


def test_values_are_added_mod_10() -> None:
    game = position(["00000", "07300", "00000", "00000", "00000"], rules=one_error_rules())
    (error,) = errors_of(run_round(game, error_draws(5, (1, 1), (1, 2), 6)))
    assert (error.value1_before, error.value2_before) == (7, 3)
    assert (error.value1_after, error.value2_after) == (3, 7)


@pytest.mark.parametrize("draw", [0, 1, 32])
def test_phi_lambda_makes_a_five_five_pair_when_below_100_is_under_33(draw: int) -> None:
    game = position(EMPTY5, rules=one_error_rules(variant=Variant.PHI_LAMBDA))
    (error,) = errors_of(run_round(game, [(25, 6), (2, 1), (2, 1), (100, draw)]))
    assert (error.a, error.aa) == (5, 5)
    assert (game.value(1, 1), game.value(1, 2)) == (5, 5)


@pytest.mark.parametrize(("draw", "a"), [(33, 1), (99, 9), (50, 5)])
def test_phi_lambda_otherwise_draws_a_uniformly(draw: int, a: int) -> None:
    game = position(EMPTY5, rules=one_error_rules(variant=Variant.PHI_LAMBDA))
    (error,) = errors_of(run_round(game, [(25, 6), (2, 1), (2, 1), (100, draw), (9, a - 1)]))
    assert (error.a, error.aa) == (a, 10 - a)


def test_z10_never_draws_the_phi_lambda_coin() -> None:
    game = position(EMPTY5, rules=one_error_rules())
    # A below(100) here would fail the scripted generator's range check.
    run_round(game, [(25, 6), (2, 1), (2, 1), (9, 4)])
    assert game.value(1, 1) == 5


# -- the three cases ---------------------------------------------------------------


def test_two_empty_cells_make_a_new_group_of_weight_1() -> None:
    game = position(EMPTY5, rules=one_error_rules(), next_label=4)
    events = run_round(game, error_draws(5, (3, 3), (2, 3), 8))
    (error,) = errors_of(events)
    assert (error.case, error.weight, error.round_weight) == ("new_pair", 1.0, 1.0)
    assert (error.group1_before, error.group2_before) == (0, 0)
    assert (error.group1_after, error.group2_after) == (4, 4)
    assert game.label(3, 3) == game.label(2, 3) == 4
    assert not any(isinstance(e, GroupMerge) for e in events)


def test_an_empty_first_cell_joins_the_second_cells_group() -> None:
    game = position(
        ["00000", "00460", "00000", "00000", "00000"],
        [[0] * 5, [0, 0, 3, 3, 0], [0] * 5, [0] * 5, [0] * 5],
        rules=one_error_rules(),
    )
    (error,) = errors_of(run_round(game, error_draws(5, (1, 1), (1, 2), 2)))
    assert (error.case, error.weight) == ("one_new", 1.0)
    assert grid(game)[1] == "02260"
    assert [game.label(1, c) for c in range(5)] == [0, 3, 3, 3, 0]
    assert (error.group1_after, error.group2_after) == (3, 3)
    check_board(game.values, game.labels())


def test_an_empty_second_cell_joins_the_first_cells_group() -> None:
    game = position(
        ["00000", "00460", "00000", "00000", "00000"],
        [[0] * 5, [0, 0, 3, 3, 0], [0] * 5, [0] * 5, [0] * 5],
        rules=one_error_rules(),
    )
    (error,) = errors_of(run_round(game, error_draws(5, (1, 3), (2, 3), 1)))
    assert (error.case, error.weight) == ("one_new", 1.0)
    assert (game.value(1, 3), game.value(2, 3)) == (7, 9)
    assert game.label(2, 3) == game.label(1, 3) == 3
    check_board(game.values, game.labels())


def test_the_new_number_joins_even_when_the_other_cell_becomes_empty() -> None:
    # The 4 at (1,2) becomes 0 and leaves group 3; the new 4 at (1,1) joins group 3.
    game = position(
        ["00000", "00460", "00000", "00000", "00000"],
        [[0] * 5, [0, 0, 3, 3, 0], [0] * 5, [0] * 5, [0] * 5],
        rules=one_error_rules(),
    )
    (error,) = errors_of(run_round(game, error_draws(5, (1, 1), (1, 2), 4)))
    assert (error.case, error.weight) == ("one_new", 1.0)
    assert (error.value1_after, error.value2_after) == (4, 0)
    assert (error.group1_after, error.group2_after) == (3, 0)
    assert grid(game)[1] == "04060"
    assert [game.label(1, c) for c in range(5)] == [0, 3, 0, 3, 0]
    assert game.numbers == 2
    check_board(game.values, game.labels())


def test_the_occupied_first_cell_can_also_become_empty() -> None:
    game = position(
        ["00000", "00460", "00000", "00000", "00000"],
        [[0] * 5, [0, 0, 3, 3, 0], [0] * 5, [0] * 5, [0] * 5],
        rules=one_error_rules(),
    )
    (error,) = errors_of(run_round(game, error_draws(5, (1, 3), (1, 4), 4)))
    assert (error.case, error.group1_after, error.group2_after) == ("one_new", 0, 3)
    assert grid(game)[1] == "00406"
    assert game.label(1, 3) == 0
    assert game.label(1, 4) == 3
    check_board(game.values, game.labels())


def test_two_occupied_cells_of_different_groups_merge_into_the_first_cells_id() -> None:
    rows = ["19550", "00000", "00000", "00000", "00000"]
    labels = [[2, 2, 6, 6, 0], [0] * 5, [0] * 5, [0] * 5, [0] * 5]
    game = position(rows, labels, rules=one_error_rules(), next_label=7)
    events = run_round(game, error_draws(5, (0, 2), (0, 1), 3))
    (error,) = errors_of(events)
    assert (error.case, error.weight, error.round_weight) == ("both_occupied", 0.1, 0.1)
    assert (error.group1_before, error.group2_before) == (6, 2)
    assert (error.group1_after, error.group2_after) == (6, 6)
    assert grid(game)[0] == "16850"
    # every cell of the second cell's group (2) now carries the first cell's id (6)
    assert [game.label(0, c) for c in range(5)] == [6, 6, 6, 6, 0]
    merges = [e for e in events if isinstance(e, GroupMerge)]
    assert merges == [GroupMerge(0, 2, "noise", 6, 2, 4)]
    # the merge is recorded right after the error that caused it
    assert events.index(merges[0]) == events.index(error) + 1
    check_board(game.values, game.labels())


def test_a_noise_merge_keeps_the_first_cells_id_even_when_its_group_is_smaller() -> None:
    rows = ["55000", "19000", "28000", "00000", "00000"]
    labels = [[1, 1, 0, 0, 0], [4, 4, 0, 0, 0], [4, 4, 0, 0, 0], [0] * 5, [0] * 5]
    game = position(rows, labels, rules=one_error_rules())
    events = run_round(game, error_draws(5, (0, 0), (1, 0), 2))
    assert {game.label(r, c) for r in range(3) for c in range(2)} == {1}
    assert [e for e in events if isinstance(e, GroupMerge)] == [
        GroupMerge(0, 2, "noise", 1, 4, 6)
    ]
    check_board(game.values, game.labels())


def test_two_occupied_cells_of_the_same_group_do_not_merge() -> None:
    game = position(["37000"] + ["00000"] * 4, rules=one_error_rules(), next_label=5)
    game2 = position(["37000"] + ["00000"] * 4, [[1, 1, 0, 0, 0]] + [[0] * 5] * 4,
                     rules=one_error_rules(), next_label=5)
    for g in (game, game2):
        events = run_round(g, error_draws(5, (0, 0), (0, 1), 1))
        (error,) = errors_of(events)
        assert (error.case, error.weight) == ("both_occupied", 0.1)
        assert (g.value(0, 0), g.value(0, 1)) == (4, 6)
        assert g.label(0, 0) == g.label(0, 1) == 1
        assert not any(isinstance(e, GroupMerge) for e in events)


def test_a_cell_that_becomes_zero_loses_its_group_in_a_merge() -> None:
    rows = ["19550", "00000", "00000", "00000", "00000"]
    labels = [[2, 2, 6, 6, 0], [0] * 5, [0] * 5, [0] * 5, [0] * 5]
    game = position(rows, labels, rules=one_error_rules())
    events = run_round(game, error_draws(5, (0, 1), (0, 2), 1))
    (error,) = errors_of(events)
    assert (error.value1_after, error.value2_after) == (0, 4)
    assert (error.group1_after, error.group2_after) == (0, 2)
    assert [game.label(0, c) for c in range(5)] == [2, 0, 2, 2, 0]
    # counted once the error is complete: the emptied cell is no longer in the group
    assert [e for e in events if isinstance(e, GroupMerge)] == [
        GroupMerge(0, 2, "noise", 2, 6, 3)
    ]
    assert game.numbers == 3
    check_board(game.values, game.labels())


def test_both_cells_can_become_empty_together() -> None:
    game = position(["37000"] + ["00000"] * 4, rules=one_error_rules())
    (error,) = errors_of(run_round(game, error_draws(5, (0, 0), (0, 1), 7)))
    assert (error.case, error.value1_after, error.value2_after) == ("both_occupied", 0, 0)
    assert (error.group1_after, error.group2_after) == (0, 0)
    assert game.numbers == 0
    assert game.labels() == (0,) * 25


def test_group_ids_count_up_and_are_never_reused() -> None:
    game = position(EMPTY5, rules=RuleSet(size=5, noise_budget=3))
    draws = (
        error_draws(5, (0, 0), (0, 1), 3)  # group 1
        + error_draws(5, (0, 0), (0, 1), 7)  # group 1 annihilated
        + error_draws(5, (3, 3), (3, 4), 2)  # group 2, not 1 again
        + error_draws(5, (1, 1), (2, 1), 9)  # group 3
    )
    events = run_round(game, draws)
    news = [e.group1_after for e in errors_of(events) if e.case == "new_pair"]
    assert news == [1, 2, 3]
    assert game.label(3, 3) == 2
    assert game.label(1, 1) == 3
    assert game.to_state()["next_label"] == 4


# -- the round's weight ----------------------------------------------------------------


def test_a_round_stops_as_soon_as_its_weight_reaches_the_budget() -> None:
    game = position(["0000000"] * 7, rules=RuleSet(noise_budget=6))
    cells = [((0, 0), (0, 1)), ((2, 2), (2, 3)), ((4, 4), (4, 5)), ((6, 0), (6, 1)),
             ((0, 5), (0, 6)), ((3, 0), (4, 0))]
    draws = [d for c1, c2 in cells for d in error_draws(7, c1, c2, 4)]
    events = run_round(game, draws)  # would fail on a seventh draw
    errors = errors_of(events)
    assert [e.round_weight for e in errors] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert events[-1] == NoiseRoundEnded(0, 2, 6, 6.0, 12)


def test_five_plus_ten_tenths_is_below_six_so_one_more_error_follows() -> None:
    total = 5.0
    for _ in range(10):
        total += 0.1
    assert total < 6  # the original's double arithmetic, reproduced by Python floats

    game = position(["0000000"] * 7, rules=RuleSet(noise_budget=6))
    pairs = [((0, 0), (0, 1)), ((2, 2), (2, 3)), ((4, 4), (4, 5)), ((6, 0), (6, 1)),
             ((0, 5), (0, 6))]
    draws = [d for c1, c2 in pairs for d in error_draws(7, c1, c2, 1)]
    # ten 0.1 errors on the first pair, alternating so that it never becomes empty
    for k in range(10):
        draws += error_draws(7, (0, 0), (0, 1), 1 if k % 2 == 0 else 9)
    draws += error_draws(7, (2, 2), (2, 3), 5)  # the sixteenth error, also 0.1
    events = run_round(game, draws)
    errors = errors_of(events)
    assert len(errors) == 16
    assert [e.case for e in errors] == ["new_pair"] * 5 + ["both_occupied"] * 11
    assert errors[14].round_weight == total < 6
    assert errors[15].round_weight >= 6
    end = events[-1]
    assert isinstance(end, NoiseRoundEnded)
    assert (end.errors, end.weight) == (16, errors[15].round_weight)


def test_the_round_weight_is_accumulated_error_by_error_as_a_float() -> None:
    game = position(["37000"] + ["00000"] * 4, rules=RuleSet(size=5, noise_budget=1.25))
    draws = error_draws(5, (0, 0), (0, 1), 1) + error_draws(5, (0, 0), (0, 1), 9)
    draws += error_draws(5, (0, 0), (0, 1), 1) + error_draws(5, (3, 3), (3, 4), 3)
    errors = errors_of(run_round(game, draws))
    expected, weights = 0.0, []
    for w in (0.1, 0.1, 0.1, 1.0):
        expected += w
        weights.append(expected)
    assert [e.round_weight for e in errors] == weights
    assert [e.weight for e in errors] == [0.1, 0.1, 0.1, 1.0]
    assert [e.index for e in errors] == [1, 2, 3, 4]


def test_round_events_carry_the_clock_and_the_round_number() -> None:
    game = position(EMPTY5, rules=one_error_rules(), t=10, round_=3)
    events = run_round(game, error_draws(5, (1, 1), (1, 2), 2))
    assert [(e.kind, e.t, e.round) for e in events] == [
        ("round_start", 10, 4), ("noise", 10, 4), ("round_end", 10, 4)
    ]
    assert game.round == 4
