"""The features of every legal move of a board, as the player saw it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import RuleSet, Variant
from games.engine.strategy import FEATURE_NAMES, FEATURES, INDEX, board_features


def board(rows: list[str]) -> list[int]:
    return [0 if ch == "." else int(ch) for row in rows for ch in row]


def features_of(rows: list[str], move: tuple[int, int, int, int],
                variant: Variant = Variant.Z10) -> dict[str, float]:
    size = len(rows)
    found = board_features(board(rows), size, RuleSet(size=size, variant=variant))
    row = found.rows[found.moves.index(move)]
    return dict(zip(FEATURE_NAMES, row, strict=True))


def test_every_feature_has_a_unique_name_and_a_sentence() -> None:
    assert len(set(FEATURE_NAMES)) == len(FEATURES)
    assert all(feature.description.endswith(".") for feature in FEATURES)
    assert INDEX["partner_distance"] == INDEX["partner_gain"] + 1


def test_every_number_moves_to_each_neighbour_once() -> None:
    found = board_features(board(["3..", "...", "..7"]), 3, RuleSet(size=3))
    assert sorted(found.moves) == [(0, 0, 0, 1), (0, 0, 1, 0), (2, 2, 1, 2), (2, 2, 2, 1)]
    assert found.matrix().shape == (4, len(FEATURES))


def test_an_annihilation_is_sure_and_needs_no_partner_step() -> None:
    f = features_of(["37...", ".....", ".....", ".....", "....."], (0, 0, 0, 1))
    assert (f["sure_annihilation"], f["possible_annihilation"], f["merge_groups"]) == (1, 0, 0)
    assert f["partner_distance"] == 1
    assert f["partner_gain"] == 1
    assert f["has_partner"] == 1
    assert f["partner_same_group"] == 1
    assert f["number_neighbours"] == 1
    assert f["destination_neighbours"] == 0


def test_a_step_toward_a_far_partner_gains_one_cell_and_leaves_the_border() -> None:
    f = features_of(["3....", ".....", ".....", ".....", "....7"], (0, 0, 1, 0))
    assert f["partner_distance"] == 8
    assert f["partner_gain"] == 1
    assert f["leave_border"] == 0  # (1, 0) is still on the border
    f = features_of([".....", ".3...", ".....", ".....", "....7"], (1, 1, 1, 0))
    assert f["partner_gain"] == -1
    assert f["leave_border"] == 0
    assert f["sure_annihilation"] == 0


def test_a_number_without_a_complement_has_no_partner() -> None:
    f = features_of(["3....", ".....", ".....", ".....", "....3"], (0, 0, 0, 1))
    assert (f["has_partner"], f["partner_distance"], f["partner_gain"]) == (0, 0, 0)
    assert f["centre_route_distance"] == 0


def test_helpful_neighbours_count_what_would_annihilate_the_new_value() -> None:
    # 2 moved onto 1 makes 3; the 7 beside the destination would annihilate it.
    f = features_of(["21...", ".7...", ".....", ".....", "....."], (0, 0, 0, 1))
    assert f["helpful_neighbours"] == 1
    assert f["destination_neighbours"] == 1  # the 7 (the moved 2 is not counted)


def test_two_phis_may_annihilate_and_two_lambdas_surely_do() -> None:
    phis = features_of(["12...", ".....", ".....", ".....", "....."], (0, 0, 0, 1),
                       Variant.PHI_LAMBDA)
    assert (phis["possible_annihilation"], phis["sure_annihilation"]) == (1, 0)
    lambdas = features_of(["55...", ".....", ".....", ".....", "....."], (0, 0, 0, 1),
                          Variant.PHI_LAMBDA)
    assert (lambdas["possible_annihilation"], lambdas["sure_annihilation"]) == (0, 1)


@given(values=st.lists(st.integers(min_value=0, max_value=9), min_size=36, max_size=36),
       hidden=st.lists(st.integers(min_value=1, max_value=9).filter(lambda v: v != 5),
                       min_size=36, max_size=36))
@settings(max_examples=50, deadline=None)
def test_phi_lambda_features_do_not_depend_on_the_hidden_values(
    values: list[int], hidden: list[int],
) -> None:
    rules = RuleSet(size=6, variant=Variant.PHI_LAMBDA)
    other = [h if v not in (0, 5) else v for v, h in zip(values, hidden, strict=True)]
    assert board_features(values, 6, rules) == board_features(other, 6, rules)


def test_the_docs_table_explains_each_feature_with_its_sentence_in_the_code() -> None:
    # The dashboard's page shows FEATURES' sentences; docs/strategy.md repeats them.
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[4] / "docs" / "strategy.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| -?[0-9.]+ \| (.+) \|$", docs, flags=re.MULTILINE))
    assert rows == {feature.name: feature.description for feature in FEATURES}
