"""Players who come back: consent changes keep the player, bests keep practice apart."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import ConsentChange, Game, Player
from games.selectors import player_personal_bests
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db

CONSENT = "2026-11-v1"


def _web_player(consent: str | None) -> tuple[APIClient, Player]:
    client = APIClient()
    body = client.post("/api/v1/players/", {"consent_version": consent}, format="json").json()
    return client, Player.objects.get(pk=body["player_id"])


def test_changing_consent_on_the_web_keeps_the_same_player_and_their_games():
    client, player = _web_player(None)
    game = play(GameFactory.create(player=player))
    response = client.post("/api/v1/me/consent/", {"consent_version": CONSENT}, format="json")
    assert response.status_code == 200
    assert response.json()["player_id"] == str(player.pk)
    assert Player.objects.count() == 1
    player.refresh_from_db()
    assert player.consent_version == CONSENT
    assert player.consented_at is not None
    listed = client.get("/api/v1/games/").json()["results"]
    assert [item["id"] for item in listed] == [str(game.pk)]
    # The next game carries the new choice; the earlier one keeps its own.
    client.post("/api/v1/games/", {}, format="json")
    assert list(Game.objects.order_by("started_at").values_list("research_consent", flat=True)) == [
        False,
        True,
    ]


def test_the_consent_history_keeps_every_choice_with_its_time(api, player):
    api.post("/api/v1/me/consent/", {"consent_version": None}, format="json")
    body = api.post("/api/v1/me/consent/", {"consent_version": CONSENT}, format="json").json()
    assert [row["consent_version"] for row in body["history"]] == [CONSENT, None, CONSENT]
    times = [row["at"] for row in body["history"]]
    assert times == sorted(times)
    player.refresh_from_db()
    assert player.consent_version == CONSENT
    assert api.get("/api/v1/me/consent/").json() == body


def test_choosing_the_same_consent_again_records_nothing(api, player):
    api.post("/api/v1/me/consent/", {"consent_version": CONSENT}, format="json")
    assert ConsentChange.objects.filter(player=player).count() == 1


def test_withdrawing_consent_clears_the_time(api, player):
    api.post("/api/v1/me/consent/", {"consent_version": None}, format="json")
    player.refresh_from_db()
    assert player.consent_version is None
    assert player.consented_at is None


@pytest.mark.parametrize(
    "body",
    [
        {"consent_version": "1999-01-v0"},
        {"consent_version": ""},
        {"consent_version": "x" * 40},
        {"consent_version": 3},
        {},
        {"consent_version": CONSENT, "extra": 1},
    ],
)
def test_a_bad_consent_change_is_refused_and_changes_nothing(api, player, body):
    response = api.post("/api/v1/me/consent/", body, format="json")
    assert response.status_code == 400
    assert "error" in response.json()
    player.refresh_from_db()
    assert player.consent_version == CONSENT
    assert ConsentChange.objects.filter(player=player).count() == 1


def test_changing_consent_needs_a_player():
    response = APIClient().post("/api/v1/me/consent/", {"consent_version": None}, format="json")
    assert response.status_code == 401


def test_practice_scores_are_not_the_personal_best_of_normal_games(player):
    normal = play(GameFactory.create(player=player, seed=5))
    practice = play(GameFactory.create(player=player, seed=5, mode=Game.Mode.PRACTICE))
    # Practice scores higher (the groups are shown), as it usually does.
    Game.objects.filter(pk=practice.pk).update(score=normal.score + 6)
    practice.refresh_from_db()
    rows = player_personal_bests(player=player)
    bests = {(row["variant"], row["size"], row["mode"]): row for row in rows}
    assert bests[("z10", 7, "normal")]["best_score"] == normal.score
    assert bests[("z10", 7, "normal")]["games"] == 1
    assert bests[("z10", 7, "practice")]["best_score"] == practice.score


def test_the_personal_best_counts_only_lost_games(player):
    lost = play(GameFactory.create(player=player))
    active = GameFactory.create(player=player)
    play(active, moves=3)
    (row,) = player_personal_bests(player=player)
    assert row["best_score"] == lost.score
    assert row["games"] == 1
