"""Rule sets: validation, defaults and their stored form."""

from __future__ import annotations

import math

import pytest

from games.engine import DEFAULT_RULES, InvalidRuleSet, MergeLabel, RuleSet, Variant


def test_the_default_rule_set_is_the_original_game() -> None:
    assert RuleSet() == DEFAULT_RULES
    assert DEFAULT_RULES.size == 7
    assert DEFAULT_RULES.variant is Variant.Z10
    assert DEFAULT_RULES.noise_budget == 6.0
    assert DEFAULT_RULES.moves_per_round == 5
    assert DEFAULT_RULES.merge_label is MergeLabel.DESTINATION
    assert DEFAULT_RULES.cells == 49
    assert DEFAULT_RULES.key == "z10-L7-b6-m5-destination"


@pytest.mark.parametrize("size", [3, 4, 7, 8, 16])
def test_it_accepts_every_size_from_3_to_16(size: int) -> None:
    assert RuleSet(size=size).cells == size * size


@pytest.mark.parametrize("size", [2, 17, 0, -7, 100])
def test_it_rejects_sizes_outside_3_to_16(size: int) -> None:
    with pytest.raises(InvalidRuleSet) as info:
        RuleSet(size=size)
    assert info.value.code == "invalid_rule_set"


@pytest.mark.parametrize("size", [7.0, "7", True, None])
def test_it_rejects_a_size_that_is_not_an_integer(size: object) -> None:
    with pytest.raises(InvalidRuleSet, match="size"):
        RuleSet(size=size)  # type: ignore[arg-type]


def test_it_accepts_variant_and_merge_label_names() -> None:
    rules = RuleSet(variant="phi_lambda", merge_label="moved")  # type: ignore[arg-type]
    assert rules.variant is Variant.PHI_LAMBDA
    assert rules.merge_label is MergeLabel.MOVED


@pytest.mark.parametrize("variant", ["z9", "", "Z10", None, 3])
def test_it_rejects_an_unknown_variant(variant: object) -> None:
    with pytest.raises(InvalidRuleSet, match="variant"):
        RuleSet(variant=variant)  # type: ignore[arg-type]


@pytest.mark.parametrize("label", ["source", "", None])
def test_it_rejects_an_unknown_merge_label_convention(label: object) -> None:
    with pytest.raises(InvalidRuleSet, match="merge label"):
        RuleSet(merge_label=label)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "budget", [0, 0.0, -1, -0.1, 100.5, math.nan, math.inf, -math.inf]
)
def test_it_rejects_budgets_that_are_not_positive_and_finite(budget: float) -> None:
    with pytest.raises(InvalidRuleSet, match="noise_budget"):
        RuleSet(noise_budget=budget)


@pytest.mark.parametrize("budget", [True, False, "6", None])
def test_it_rejects_a_budget_that_is_not_a_number(budget: object) -> None:
    with pytest.raises(InvalidRuleSet, match="noise_budget"):
        RuleSet(noise_budget=budget)  # type: ignore[arg-type]


def test_an_integer_budget_is_stored_as_a_float() -> None:
    rules = RuleSet(noise_budget=6)
    assert isinstance(rules.noise_budget, float)
    assert rules == RuleSet(noise_budget=6.0)


@pytest.mark.parametrize("budget", [0.05, 3, 6.5, 100])
def test_it_accepts_budgets_up_to_100(budget: float) -> None:
    assert RuleSet(noise_budget=budget).noise_budget == budget


@pytest.mark.parametrize("moves", [0, -5, 101, 5.0, True, "5"])
def test_it_rejects_bad_moves_per_round(moves: object) -> None:
    with pytest.raises(InvalidRuleSet, match="moves_per_round"):
        RuleSet(moves_per_round=moves)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        RuleSet(size=3, variant=Variant.PHI_LAMBDA, noise_budget=0.1, moves_per_round=1),
        RuleSet(size=16, noise_budget=7.3, moves_per_round=100, merge_label=MergeLabel.MOVED),
    ],
)
def test_to_dict_and_from_dict_round_trip(rules: RuleSet) -> None:
    data = rules.to_dict()
    assert data["schema"] == 1
    assert all(isinstance(v, int | float | str) for v in data.values())
    assert RuleSet.from_dict(data) == rules
    assert RuleSet.from_dict(data).key == rules.key


def test_from_dict_fills_in_missing_fields_with_the_defaults() -> None:
    assert RuleSet.from_dict({"size": 9}) == RuleSet(size=9)
    assert RuleSet.from_dict({}) == DEFAULT_RULES


@pytest.mark.parametrize(
    "data",
    [
        {"size": 7, "colour": "red"},
        {"schema": 2},
        {"size": 2},
        {"variant": "nope"},
        {"noise_budget": "6"},
    ],
)
def test_from_dict_rejects_bad_data(data: dict) -> None:
    with pytest.raises(InvalidRuleSet):
        RuleSet.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "z10"])
def test_from_dict_rejects_what_is_not_an_object(data: object) -> None:
    with pytest.raises(InvalidRuleSet, match="object"):
        RuleSet.from_dict(data)  # type: ignore[arg-type]


def test_rule_sets_are_immutable() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_RULES.size = 8  # type: ignore[misc]


def test_the_key_names_every_parameter() -> None:
    # RuleSet takes the text of a variant and a merge label too.
    rules = RuleSet(
        size=9,
        variant="phi_lambda",  # type: ignore[arg-type]
        noise_budget=4.5,
        moves_per_round=3,
        merge_label="moved",  # type: ignore[arg-type]
    )
    assert rules.key == "phi_lambda-L9-b4.5-m3-moved"
