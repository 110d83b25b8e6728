"""The registry of research tables: each app declares its own, the research app reads them."""

from __future__ import annotations

import dataclasses

import pytest
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured

from core.research import Table, register, registered_tables
from puzzles.models import Action, Attempt
from research.exports.tables import all_tables
from tests.factories import PlayerFactory
from tests.research.export_bytes import play_puzzle


def test_every_app_with_research_data_has_its_tables_found() -> None:
    owners = {table.model._meta.app_label for table in registered_tables().values()}
    assert owners == {"games", "results", "puzzles"}


def test_the_tables_come_app_by_app_in_the_order_of_the_installed_apps() -> None:
    installed = [config.label for config in apps.get_app_configs()]
    labels = [table.model._meta.app_label for table in all_tables().values()]
    assert labels == sorted(labels, key=installed.index)
    assert list(all_tables())[:3] == ["games", "players", "noise_errors"]
    assert list(all_tables())[-3:] == ["puzzles", "puzzle_attempts", "puzzle_actions"]


def test_a_table_name_is_taken_once() -> None:
    games = all_tables()["games"]
    register(games)  # the same table again changes nothing
    assert list(registered_tables()) == list(all_tables())
    impostor: Table = dataclasses.replace(games, title="Another games table")
    with pytest.raises(ImproperlyConfigured, match="'games' is registered twice"):
        register(impostor)
    assert registered_tables()["games"] is games


@pytest.mark.django_db
def test_the_actions_of_research_attempts_follow_the_one_rule() -> None:
    ada, unconsented = PlayerFactory(), PlayerFactory(consent_version=None)
    first = play_puzzle(ada, kind="kenken", seed=4)
    again = play_puzzle(ada, kind="kenken", seed=4)  # after seeing the solution
    play_puzzle(unconsented, kind="kenken", seed=5)
    assert again.seen_solution
    actions = Attempt.objects.research_data().actions()
    assert set(actions) == set(Action.objects.filter(attempt=first))
    exported = all_tables()["puzzle_actions"].queryset()
    assert set(exported) == set(actions)
