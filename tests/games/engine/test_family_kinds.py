"""The rule family registry: a kind is found by its stored ``family`` value, stores its
rule sets in the game columns and reads them back, and says how its sweeps count."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.errors import InvalidRuleSet
from games.engine.families import NO_FAMILY, Family, kind_of, kinds, stored_kind
from games.engine.rules import RuleSet, Variant


def test_each_kind_is_found_by_its_stored_family_value() -> None:
    assert stored_kind(NO_FAMILY) is kind_of(None)
    for kind in kinds():
        assert stored_kind(kind.stored) is kind


@pytest.mark.parametrize("stored", ["PLANAR", "one-shot", " planar", None, "budget"])
def test_a_stored_value_no_kind_has_is_refused_and_named(stored: object) -> None:
    with pytest.raises(InvalidRuleSet, match="unknown rule family"):
        stored_kind(stored)


@given(
    size=st.integers(3, 16),
    variant=st.sampled_from(list(Variant)),
    budget=st.sampled_from([1.0, 6.0, 7.5]),
    moves=st.integers(1, 9),
)
def test_an_original_rule_set_comes_back_from_its_kinds_columns(
        size: int, variant: Variant, budget: float, moves: int) -> None:
    rules = RuleSet(size=size, variant=variant, noise_budget=budget, moves_per_round=moves)
    columns = rules.kind.columns(rules)
    assert columns["family"] == NO_FAMILY
    assert columns["rules_key"] == rules.key
    assert RuleSet(**rules.kind.fields_from_columns(SimpleNamespace(**columns))) == rules


@given(size=st.integers(3, 64), modulus=st.integers(2, 10), rate=st.floats(0.001, 0.5))
def test_a_planar_rule_set_comes_back_from_its_kinds_columns(
        size: int, modulus: int, rate: float) -> None:
    rules = RuleSet(size=size, family=Family.PLANAR, modulus=modulus, error_rate=rate)
    columns = rules.kind.columns(rules)
    assert columns["family"] == columns["variant"] == rules.kind.stored
    assert RuleSet(**rules.kind.fields_from_columns(SimpleNamespace(**columns))) == rules


@pytest.mark.parametrize("family", [Family.ONE_SHOT, Family.SUSTAINED])
def test_the_spanning_families_neither_give_nor_read_columns(family: Family) -> None:
    kind = kind_of(family)
    rules = RuleSet(size=5, family=family, error_rate=0.1,
                    moves_per_cell=1.0 if family is Family.SUSTAINED else None)
    with pytest.raises(InvalidRuleSet, match="not recorded"):
        kind.columns(rules)
    with pytest.raises(InvalidRuleSet, match="hold no rule set"):
        kind.fields_from_columns(SimpleNamespace(family=kind.stored))


def test_only_a_family_of_many_rounds_measures_its_failures_per_round() -> None:
    assert [kind.family for kind in kinds() if kind.per_round] == [Family.SUSTAINED]


def test_only_a_family_without_groups_counts_a_censored_shot_as_a_failed_trial() -> None:
    # Its decoder could otherwise loop until the move cap and look better for it.
    assert [kind.family for kind in kinds() if kind.censored_in_trials] == [
        kind.family for kind in kinds() if not kind.grouped]
