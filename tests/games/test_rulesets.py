"""One converter between rule sets and the game columns that store them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Family, MergeLabel, RuleSet, Variant
from games.engine.errors import InvalidRuleSet
from games.engine.rules import MAX_MOVES_PER_ROUND, MAX_SIZE, MIN_SIZE
from games.rulesets import RULES_COLUMNS, rules_columns, rules_from_columns
from tests.factories import GameFactory

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


def test_a_rule_family_has_no_columns_and_is_refused() -> None:
    rules = RuleSet(size=9, family=Family.ONE_SHOT, error_rate=0.1)
    with pytest.raises(InvalidRuleSet):
        rules_columns(rules)


def test_columns_that_hold_no_rule_set_are_refused() -> None:
    row = SimpleNamespace(size=7, variant="z11", noise_budget=6.0, moves_per_round=5,
                          merge_label="destination")
    with pytest.raises(InvalidRuleSet):
        rules_from_columns(row)


@pytest.mark.django_db
def test_a_game_knows_the_rule_set_it_was_started_with() -> None:
    game = GameFactory.create(size=6, variant="phi_lambda", noise_budget=4.0,
                              moves_per_round=3, merge_label="moved")
    game.refresh_from_db()
    assert game.rules == RuleSet(size=6, variant=Variant.PHI_LAMBDA, noise_budget=4.0,
                                 moves_per_round=3, merge_label=MergeLabel.MOVED)
    assert game.rules_key == game.rules.key
