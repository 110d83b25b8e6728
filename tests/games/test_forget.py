"""Forgetting a player: the identity goes, the games stay under the same pseudonym."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from core.pseudonyms import pseudonym
from games.errors import NotFound
from games.models import ConsentChange, Game, Player
from games.selectors import player_by_id, player_by_recovery_code, player_by_token
from games.services import (
    player_forget,
    player_new_recovery_code,
    player_set_display_name,
)
from tests.factories import GameFactory, api_token, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def web_player() -> tuple[APIClient, Player]:
    client = APIClient()
    player_id = client.post(
        "/api/v1/players/", {"consent_version": "2026-11-v1"}, format="json", HTTP_USER_AGENT="UA/1"
    ).json()["player_id"]
    client.post("/api/v1/games/", {"size": 5}, format="json", HTTP_USER_AGENT="UA/1")
    return client, Player.objects.get(pk=player_id)


def test_forgetting_removes_the_identity_and_keeps_the_games(web_player):
    client, player = web_player
    code = player_new_recovery_code(player=player)
    player_set_display_name(player=player, display_name="Forget Me")
    games_before = list(Game.objects.filter(player=player).values_list("pk", flat=True))
    assert Game.objects.filter(player=player, client_info__user_agent="UA/1").exists()

    result = player_forget(player_id=player.pk)

    assert not result.already_forgotten
    player.refresh_from_db()
    assert player.forgotten_at is not None
    assert (player.display_name, player.display_name_key) == (None, None)
    assert (player.recovery_hash, player.recovery_created_at) == (None, None)
    assert player.consent_version is None
    assert player.last_seen_at is None
    assert player_by_recovery_code(code=code) is None
    assert player_by_id(player_id=player.pk) is None
    # The session that played as them no longer does.
    assert client.get("/api/v1/me/games/").status_code == 401
    assert client.post("/api/v1/games/", {}, format="json").status_code == 401
    # The games stay, under the same pseudonym, without browser details.
    games = Game.objects.filter(player=player)
    assert list(games.values_list("pk", flat=True)) == games_before
    assert all(game.client_info == {} for game in games)
    assert pseudonym(player.pk) == pseudonym(games[0].player_id)
    # The consent history stays, ending with "none".
    assert list(ConsentChange.objects.filter(player=player).values_list("version", flat=True)) == [
        "2026-11-v1", None,
    ]
    # The name is free for someone else.
    other = GameFactory.create().player
    assert player_set_display_name(player=other, display_name="forget me").display_name


def test_the_token_stops_working(player):
    token = api_token(player)
    player_forget(player_id=player.pk)
    assert player_by_token(token=token) is None
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/me/games/").status_code == 401


def test_forgetting_twice_changes_nothing(player):
    player_forget(player_id=player.pk)
    player.refresh_from_db()
    first = (player.forgotten_at, player.token_hash)
    again = player_forget(player_id=player.pk)
    player.refresh_from_db()
    assert again.already_forgotten
    assert (player.forgotten_at, player.token_hash) == first
    assert ConsentChange.objects.filter(player=player).count() == 2


def test_delete_games_removes_the_player_and_everything_of_theirs(player):
    play(GameFactory.create(player=player, size=5), moves=3)
    result = player_forget(player_id=player.pk, delete_games=True)
    assert result.games_deleted == 1
    assert not Player.objects.filter(pk=player.pk).exists()
    assert not Game.objects.exists()
    assert not ConsentChange.objects.filter(player_id=player.pk).exists()


def test_an_unknown_or_malformed_id_is_not_found():
    with pytest.raises(NotFound):
        player_forget(player_id=uuid.uuid4())
    with pytest.raises(NotFound):
        player_forget(player_id="not-a-uuid")


def test_the_command_forgets_and_refuses_an_unknown_id(player, capsys):
    call_command("forget_player", str(player.pk))
    assert "forgot player" in capsys.readouterr().out
    player.refresh_from_db()
    assert player.forgotten_at is not None
    call_command("forget_player", str(player.pk))
    assert "already forgotten" in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("forget_player", str(uuid.uuid4()))
    GameFactory.create(player=player)
    call_command("forget_player", str(player.pk), "--delete-games")
    assert "1 games" in capsys.readouterr().out
    assert not Player.objects.filter(pk=player.pk).exists()


def test_the_admin_action_needs_the_delete_permission(player):
    staff = User.objects.create_user("ops", password="a-long-test-password", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_player"))
    client = Client()
    client.force_login(staff)
    body = {"action": "forget_players", "_selected_action": [str(player.pk)]}
    client.post("/admin/games/player/", body)
    player.refresh_from_db()
    assert player.forgotten_at is None
    staff.user_permissions.add(Permission.objects.get(codename="delete_player"))
    client.post("/admin/games/player/", body)
    player.refresh_from_db()
    assert player.forgotten_at is not None
    assert Player.objects.filter(pk=player.pk).exists()
