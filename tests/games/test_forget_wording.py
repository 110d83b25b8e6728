"""The admin's forget action and docs/players.md say the same thing: the games stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.admin.sites import site
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game, Player
from tests.factories import GameFactory

DOCS = Path(__file__).resolve().parents[2] / "docs" / "players.md"


def _docs() -> str:
    return " ".join(DOCS.read_text(encoding="utf-8").split())


def _label() -> str:
    admin = site._registry[Player]
    action = admin.get_action("forget_players")
    assert action is not None
    return str(action[2])


@pytest.mark.django_db
def test_the_admin_action_keeps_the_games_as_its_label_says() -> None:
    player = Player.objects.create(consent_version=None)
    game = GameFactory.create(player=player)
    staff = User.objects.create_superuser("ops", password="a-long-test-password")
    client = Client()
    client.force_login(staff)
    client.post(
        "/admin/games/player/",
        {"action": "forget_players", "_selected_action": [str(player.pk)]},
    )
    player.refresh_from_db()
    assert player.forgotten_at is not None
    assert Game.objects.filter(pk=game.pk).exists()
    assert "games stay" in _label()


def test_the_docs_name_the_admin_action_as_it_reads() -> None:
    assert f'"{_label()}"' in _docs()


def test_the_docs_never_say_that_forgetting_alone_deletes_games() -> None:
    """Only ``--delete-games`` deletes; a sentence saying forgetting does is wrong."""
    for sentence in re.split(r"(?<=\.) ", _docs()):
        if re.search(r"[Ff]orgetting a player deletes", sentence):
            pytest.fail(sentence)
