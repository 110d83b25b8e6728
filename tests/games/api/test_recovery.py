"""Recovery codes and My games: a player restores their identity in another browser."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client, override_settings
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import Game, Player
from games.selectors import days_streaks, player_by_recovery_code
from games.services import player_new_recovery_code
from games.tokens import RECOVERY_ALPHABET, normalize_recovery_code
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db


def test_a_player_plays_and_restores_their_games_in_a_new_client_with_the_code():
    first = APIClient()
    answered = {"consent_version": None}  # the web page's player answers before a game
    player_id = first.post("/api/v1/players/", answered, format="json").json()["player_id"]
    game_id = first.post("/api/v1/games/", {"size": 5}, format="json").json()["id"]
    code = first.post("/api/v1/me/recovery-code/").json()["recovery_code"]
    player = Player.objects.get(pk=player_id)
    assert player.recovery_hash is not None
    assert code.replace("-", "") not in player.recovery_hash

    second = APIClient()
    assert second.get("/api/v1/me/games/").status_code == 401
    restored = second.post(
        "/api/v1/players/restore/", {"recovery_code": code.lower()}, format="json"
    )
    assert restored.status_code == 200
    assert restored.json()["player_id"] == player_id
    mine = second.get("/api/v1/me/games/").json()
    assert [game["id"] for game in mine["games"]] == [game_id]
    assert Player.objects.count() == 1


def test_a_new_code_replaces_the_old_one(player):
    old = player_new_recovery_code(player=player)
    new = player_new_recovery_code(player=player)
    assert player_by_recovery_code(code=old) is None
    assert player_by_recovery_code(code=new) == player


@pytest.mark.parametrize(
    "code",
    [
        "0000-0000-0000-0000-0000",  # well formed, unknown
        "too-short",
        "IIII-IIII-IIII-IIII-IIII",  # I is not in the alphabet
        "x" * 64,
        "",
    ],
)
def test_an_unknown_or_malformed_code_is_refused_and_changes_nothing(code):
    client = APIClient()
    response = client.post("/api/v1/players/restore/", {"recovery_code": code}, format="json")
    assert response.status_code == 400
    assert "error" in response.json()
    assert client.get("/api/v1/me/games/").status_code == 401


def test_a_code_of_the_wrong_type_is_refused():
    response = APIClient().post("/api/v1/players/restore/", {"recovery_code": 7}, format="json")
    assert response.status_code == 400


def test_restoring_is_rate_limited_like_signing_in(player):
    cache.clear()
    code = player_new_recovery_code(player=player)
    rates = {**django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login": "3/min"}
    with override_settings(
        REST_FRAMEWORK={**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    ):
        client = APIClient()
        for _ in range(3):
            bad = client.post("/api/v1/players/restore/", {"recovery_code": "nope"}, format="json")
            assert bad.status_code == 400
        blocked = client.post("/api/v1/players/restore/", {"recovery_code": code}, format="json")
        assert blocked.status_code == 429
        assert blocked.json()["error"]["code"]
        web = Client().post("/restore/", {"recovery_code": code})
        assert web.status_code == 429  # the same address, the same count
        assert client.get("/api/v1/me/games/").status_code == 401


@given(st.text(max_size=80))
@settings(max_examples=200, deadline=None)
def test_any_text_either_normalizes_to_a_code_or_is_refused(text):
    normalized = normalize_recovery_code(text)
    if normalized is not None:
        assert len(normalized) == 20
        assert set(normalized) <= set(RECOVERY_ALPHABET)


def test_the_web_restore_form_sets_the_session_player_and_shows_their_games(player):
    game = play(GameFactory.create(player=player, size=5))
    code = player_new_recovery_code(player=player)
    browser = Client()
    page = browser.post("/restore/", {"recovery_code": f" {code.lower()} "}, follow=True)
    assert page.status_code == 200
    assert page.redirect_chain[-1][0] == "/me/"
    html = page.content.decode()
    assert f"?game={game.pk}" in html
    assert "Replay" in html


def test_the_web_restore_form_refuses_an_unknown_code_with_400():
    browser = Client()
    page = browser.post("/restore/", {"recovery_code": "0000-0000-0000-0000-0000"})
    assert page.status_code == 400
    assert "not known" in page.content.decode()
    assert browser.get("/me/").content.decode().count("No player in this browser yet") == 1


def test_the_my_games_page_makes_a_recovery_code_shown_until_replaced(player):
    browser = Client()
    code = player_new_recovery_code(player=player)
    browser.post("/restore/", {"recovery_code": code})
    page = browser.post("/me/recovery-code/", follow=True).content.decode()
    player.refresh_from_db()
    start = page.index('id="recovery-code">') + len('id="recovery-code">')
    shown = page[start : page.index("</output>", start)]
    assert player_by_recovery_code(code=shown) == player
    assert player_by_recovery_code(code=code) is None
    assert shown in browser.get("/me/").content.decode()


def test_my_games_lists_bests_per_rule_set_with_practice_apart(api, player):
    normal = play(GameFactory.create(player=player, size=5))
    play(GameFactory.create(player=player, size=5, mode=Game.Mode.PRACTICE))
    GameFactory.create(player=player, size=6)
    body = api.get("/api/v1/me/games/").json()
    assert len(body["games"]) == 3
    assert {game["status"] for game in body["games"]} == {"lost", "active"}
    modes = {(row["size"], row["mode"]): row["best_score"] for row in body["bests"]}
    assert modes[(5, "normal")] == normal.score
    assert set(modes) == {(5, "normal"), (5, "practice")}
    assert body["streak"] == {"current": 1, "longest": 1, "days_played": 1}


def test_streaks_count_consecutive_days():
    today = date(2026, 11, 23)
    days = [today - timedelta(days=n) for n in (1, 2, 3, 7, 8)]
    assert days_streaks(days=days, today=today) == {"current": 3, "longest": 3, "days_played": 5}
    assert days_streaks(days=days, today=today + timedelta(days=2))["current"] == 0
    assert days_streaks(days=[], today=today) == {"current": 0, "longest": 0, "days_played": 0}


def test_restoring_on_the_web_page_confirms_it_once_on_my_games():
    from tests.factories import PlayerFactory

    player = PlayerFactory.create()
    play(GameFactory.create(player=player, seed=3))
    code = player_new_recovery_code(player=player)
    browser = Client()
    page = browser.post("/restore/", {"recovery_code": code}, follow=True)
    assert page.redirect_chain == [("/me/", 302)]
    html = page.content.decode()
    assert html.count('id="restored-note"') == 1
    assert "Restored: this browser now plays as you, with your 1 game," in html
    # Once: a reload of My games (or any later visit) shows it no more.
    assert 'id="restored-note"' not in browser.get("/me/").content.decode()
    # A wrong code restores nothing and confirms nothing.
    other = Client()
    other.post("/restore/", {"recovery_code": "0000-0000-0000-0000-0000"})
    assert 'id="restored-note"' not in other.get("/me/").content.decode()
