"""One converter between rule sets and the game columns that store them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Family, MergeLabel, RuleSet, Variant
from games.engine.errors import InvalidRuleSet
from games.engine.rules import (
    MAX_ERROR_RATE,
    MAX_FAMILY_SIZE,
    MAX_MODULUS,
    MAX_MOVES_PER_ROUND,
    MAX_SIZE,
    MIN_ERROR_RATE,
    MIN_MODULUS,
    MIN_SIZE,
)
from games.rulesets import RULES_COLUMNS, rules_columns, rules_from_columns
from tests.factories import GameFactory, PlanarGameFactory

rule_sets = st.builds(
    RuleSet,
    size=st.integers(MIN_SIZE, MAX_SIZE),
    variant=st.sampled_from(list(Variant)),
    noise_budget=st.sampled_from([0.5, 1.0, 4.0, 6.0, 7.5]),
    moves_per_round=st.integers(1, MAX_MOVES_PER_ROUND),
    merge_label=st.sampled_from(list(MergeLabel)),
)


@given(rule_sets)
def test_a_rule_set_comes_back_from_its_columns(rules: RuleSet) -> None:
    columns = rules_columns(rules)
    assert set(columns) == {*RULES_COLUMNS, "rules_key"}
    assert columns["rules_key"] == rules.key
    again = rules_from_columns(SimpleNamespace(**columns))
    assert again == rules
    assert again.key == rules.key


@pytest.mark.parametrize("rules", [
    RuleSet(size=9, family=Family.ONE_SHOT, error_rate=0.1),
    RuleSet(size=9, family=Family.SUSTAINED, error_rate=0.1, moves_per_cell=1.0),
], ids=lambda rules: rules.key)
def test_the_spanning_families_have_no_columns_and_are_refused(rules: RuleSet) -> None:
    with pytest.raises(InvalidRuleSet, match="only planar games are"):
        rules_columns(rules)


planar_rule_sets = st.builds(
    RuleSet,
    size=st.integers(MIN_SIZE, MAX_FAMILY_SIZE),
    family=st.just(Family.PLANAR),
    modulus=st.integers(MIN_MODULUS, MAX_MODULUS),
    error_rate=st.one_of(
        st.sampled_from([MIN_ERROR_RATE, 0.1, 0.1505, MAX_ERROR_RATE]),
        st.floats(MIN_ERROR_RATE, MAX_ERROR_RATE),
    ),
)


@given(planar_rule_sets)
def test_a_planar_rule_set_comes_back_from_its_columns(rules: RuleSet) -> None:
    columns = rules_columns(rules)
    assert set(columns) == {*RULES_COLUMNS, "rules_key"}
    assert columns["rules_key"] == rules.key
    assert (columns["family"], columns["variant"]) == ("planar", "planar")
    assert (columns["noise_budget"], columns["moves_per_round"], columns["merge_label"]) == (
        0.0, 0, "")
    again = rules_from_columns(SimpleNamespace(**columns))
    assert again == rules
    assert again.key == rules.key


def test_a_planar_rule_set_is_not_a_colors_record() -> None:
    with pytest.raises(InvalidRuleSet, match="Colors"):
        rules_columns(RuleSet(size=5, family=Family.PLANAR, modulus=2, error_rate=0.1),
                      saved_as="colors")


ORIGINAL_COLUMNS = {"size": 7, "variant": "z10", "noise_budget": 6.0, "moves_per_round": 5,
                    "merge_label": "destination", "family": "", "modulus": None,
                    "error_rate": None}


@pytest.mark.parametrize("wrong", [
    {"variant": "z11"},
    {"family": "one_shot"},
    {"modulus": 2},
    {"error_rate": 0.1},
    {"family": "planar", "variant": "z10", "modulus": 2, "error_rate": 0.1},
    {"family": "planar", "variant": "planar", "modulus": 11, "error_rate": 0.1},
])
def test_columns_that_hold_no_rule_set_are_refused(wrong: dict) -> None:
    assert rules_from_columns(SimpleNamespace(**ORIGINAL_COLUMNS)) == RuleSet()
    with pytest.raises(InvalidRuleSet):
        rules_from_columns(SimpleNamespace(**{**ORIGINAL_COLUMNS, **wrong}))


@pytest.mark.django_db
def test_a_game_knows_the_rule_set_it_was_started_with() -> None:
    game = GameFactory.create(size=6, variant="phi_lambda", noise_budget=4.0,
                              moves_per_round=3, merge_label="moved")
    game.refresh_from_db()
    assert game.rules == RuleSet(size=6, variant=Variant.PHI_LAMBDA, noise_budget=4.0,
                                 moves_per_round=3, merge_label=MergeLabel.MOVED)
    assert game.rules_key == game.rules.key


@pytest.mark.django_db
def test_a_planar_game_knows_its_rule_set_and_stores_its_columns() -> None:
    game = PlanarGameFactory.create(size=6, modulus=3, error_rate=0.15)
    game.refresh_from_db()
    assert game.rules == RuleSet(size=6, family=Family.PLANAR, modulus=3, error_rate=0.15)
    assert (game.family, game.variant, game.modulus, game.error_rate) == (
        "planar", "planar", 3, 0.15)
    assert game.rules_key == game.rules.key == "z3-planar-L6-p0.150"
