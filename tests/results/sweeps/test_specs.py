"""One specification per kind of sweep, one family name per family, one argument parser."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.core.management.base import BaseCommand

from games.engine.families import NO_FAMILY, Family
from results.cli import FAMILY_CHOICES, comma_list
from results.management.commands.sweep import Command as SweepCommand
from results.management.commands.threshold import Command as ThresholdCommand
from results.models import Sweep
from results.services.sweeps import (
    SWEEP_SPECS,
    SweepError,
    family_spec,
    sweep_create,
    threshold_sweep_create,
)


def test_the_model_s_families_are_the_engine_s_and_the_budget_sweep() -> None:
    assert set(Sweep.Kind.values) == {NO_FAMILY} | {family.value for family in Family}


def test_every_family_of_the_model_has_one_sweep_specification() -> None:
    assert set(SWEEP_SPECS) == set(Sweep.Kind.values)
    for family, spec in SWEEP_SPECS.items():
        assert spec.family == family
        assert spec.engine_family == (Family(family) if family else None)


def test_the_command_line_spelling_derives_from_the_engine() -> None:
    assert sorted(FAMILY_CHOICES) == sorted(f.value.replace("_", "-") for f in Family)
    for choice in FAMILY_CHOICES:
        assert family_spec(choice).engine_family is Family(choice.replace("-", "_"))


def test_the_budget_sweep_is_not_a_rule_family() -> None:
    with pytest.raises(SweepError, match="unknown rule family"):
        threshold_sweep_create(
            family="", bots=["greedy"], sizes=[4], rates=[0.1], shots_per_point=1, seed=1
        )


@pytest.mark.django_db
def test_both_kinds_of_sweep_go_through_one_validator() -> None:
    # The same mistake gets the same message whichever kind of sweep makes it.
    with pytest.raises(SweepError, match="sizes must not repeat a value"):
        sweep_create(bots=["greedy"], sizes=[5, 5], budgets=[3.0], games_per_point=1, seed=1)
    with pytest.raises(SweepError, match="sizes must not repeat a value"):
        threshold_sweep_create(
            family="one-shot", bots=["greedy"], sizes=[5, 5], rates=[0.1], shots_per_point=1, seed=1
        )
    with pytest.raises(SweepError, match="chunk size must be an integer"):
        sweep_create(
            bots=["greedy"], sizes=[5], budgets=[3.0], games_per_point=1, seed=1, chunk_size=0
        )
    with pytest.raises(SweepError, match="chunk size must be an integer"):
        threshold_sweep_create(
            family="sustained",
            bots=["greedy"],
            sizes=[5],
            rates=[0.1],
            shots_per_point=1,
            seed=1,
            chunk_size=0,
        )
    assert not Sweep.objects.exists()


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        (int, "5,x", "not a comma-separated list of integers"),
        (float, "3,y", "not a comma-separated list of numbers"),
        (int, " , ", "needs a comma-separated list"),
    ],
)
def test_one_list_parser_for_both_commands(kind: type, text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        comma_list(text, kind, "sizes")
    assert comma_list(" 5, 7 ,", int, "sizes") == [5, 7]


def _help(command: BaseCommand, name: str) -> str:
    return command.create_parser("manage.py", name).format_help()


def test_the_sweep_command_says_it_sweeps_the_noise_budget() -> None:
    text = SweepCommand.help
    assert text.startswith("Run a budget sweep")
    assert "threshold sweep" not in text
    assert "--budgets" in _help(SweepCommand(), "sweep")


def test_the_threshold_command_offers_every_rule_family() -> None:
    text = _help(ThresholdCommand(), "threshold")
    for choice in FAMILY_CHOICES:
        assert choice in text
    with pytest.raises(CommandError, match="--family is required: one-shot, sustained, planar"):
        call_command("threshold", "--no-progress", stdout=io.StringIO())
