"""Asking every player: "never asked" is told apart from "said no", and the web asks first."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from games.engine import RuleSet
from games.errors import ConsentChoiceRequired
from games.models import ConsentChange, Game, Player
from games.services import game_start, player_create, player_set_consent
from games.services.daily import daily_planar_start, daily_start
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

CONSENT = "2026-11-v1"


def _never_asked() -> Player:
    player, _token = player_create(consent_version=None, consent_decided=False)
    return player


def test_a_player_made_with_an_answer_has_decided_yes_or_no():
    yes, _ = player_create(consent_version=CONSENT)
    no, _ = player_create(consent_version=None)
    assert yes.consent_decided
    assert no.consent_decided
    assert not no.research_consent


def test_a_player_made_without_an_answer_was_never_asked():
    player = _never_asked()
    assert not player.consent_decided
    assert Player.objects.get(pk=player.pk).consent_decided_at is None


def test_saying_no_records_a_choice_even_though_consent_stays_none():
    player = _never_asked()
    player_set_consent(player=player, consent_version=None)
    stored = Player.objects.get(pk=player.pk)
    assert stored.consent_decided_at is not None
    assert stored.consent_version is None
    assert list(ConsentChange.objects.filter(player=player).values_list("version", flat=True)) == [
        None,
        None,
    ]


def test_saying_no_again_writes_nothing():
    player, _ = player_create(consent_version=None)
    decided_at = player.consent_decided_at
    player_set_consent(player=player, consent_version=None)
    assert ConsentChange.objects.filter(player=player).count() == 1
    assert Player.objects.get(pk=player.pk).consent_decided_at == decided_at


def test_a_web_game_of_a_player_never_asked_is_refused_and_nothing_is_stored():
    player = _never_asked()
    with pytest.raises(ConsentChoiceRequired):
        game_start(player=player, rules=RuleSet(), source=Game.Source.WEB)
    with pytest.raises(ConsentChoiceRequired):
        daily_start(player=player, source=Game.Source.WEB)
    with pytest.raises(ConsentChoiceRequired):
        daily_planar_start(player=player, source=Game.Source.WEB)
    assert not Game.objects.exists()


@pytest.mark.parametrize("consent", [CONSENT, None])
def test_a_web_game_starts_once_the_player_has_answered(consent):
    player = _never_asked()
    player_set_consent(player=player, consent_version=consent)
    game = game_start(player=player, rules=RuleSet(), source=Game.Source.WEB)
    assert game.research_consent is (consent is not None)


def test_a_token_client_keeps_the_documented_flow_without_an_answer():
    player = _never_asked()
    game = game_start(player=player, rules=RuleSet(), source=Game.Source.API)
    assert game.research_consent is False


def test_the_api_counts_a_left_out_consent_as_never_asked_and_null_as_no():
    left_out = APIClient().post("/api/v1/players/", {}, format="json").json()
    said_no = APIClient().post("/api/v1/players/", {"consent_version": None}, format="json").json()
    assert Player.objects.get(pk=left_out["player_id"]).consent_decided_at is None
    assert Player.objects.get(pk=said_no["player_id"]).consent_decided_at is not None


def test_the_session_game_start_answers_409_consent_choice_required_and_stores_nothing():
    browser = APIClient()
    browser.post("/api/v1/players/", {}, format="json")  # a session player, never asked
    response = browser.post("/api/v1/games/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "consent_choice_required"
    daily = browser.post("/api/v1/daily/", {}, format="json")
    assert daily.status_code == 409
    assert daily.json()["error"]["code"] == "consent_choice_required"
    assert not Game.objects.exists()
    answer = browser.post("/api/v1/me/consent/", {"consent_version": None}, format="json")
    assert answer.json()["consent_decided_at"] is not None
    assert browser.post("/api/v1/games/", {}, format="json").status_code == 201


def test_the_daily_planar_form_of_a_player_never_asked_goes_back_to_the_play_page(client):
    client.post("/api/v1/players/", {}, content_type="application/json")
    response = client.post("/play/daily-planar/")
    assert response.status_code == 302
    assert response["Location"] == "/play/"
    assert not Game.objects.exists()


def test_the_migration_keeps_never_asked_only_players_who_never_saw_the_question():
    agreed = PlayerFactory.create(consent_version=CONSENT)
    changed_mind = PlayerFactory.create(consent_version=CONSENT)
    player_set_consent(player=changed_mind, consent_version=None)
    made_by_play = PlayerFactory.create(consent_version=None)
    Player.objects.update(consent_decided_at=None)
    migration = importlib.import_module("games.migrations.0015_player_consent_decided")
    migration.mark_players_who_answered(apps, None)
    decided = dict(Player.objects.values_list("pk", "consent_decided_at"))
    assert decided[agreed.pk] == Player.objects.get(pk=agreed.pk).consented_at
    assert decided[changed_mind.pk] is not None
    assert decided[made_by_play.pk] is None
