"""POST /api/v1/imports/: save files uploaded through the API."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from games.models import Game
from tests.games.test_legacy_import import Z10_SAVE

pytestmark = pytest.mark.django_db

URL = "/api/v1/imports/"


def _file(content: str | bytes, name: str = "save.csv") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="text/csv")


def test_an_uploaded_save_becomes_a_game_and_again_returns_it(api, player):
    response = api.post(URL, {"file": _file(Z10_SAVE)}, format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["created"] is True
    assert body["report"]["steps_read"] == 2
    assert body["report"]["missing_steps"] == []
    game = body["game"]
    assert game["source"] == "legacy_upload"
    assert game["status"] == "lost"
    assert game["seed"] is None
    assert game["score"] == 1
    assert [board["step"] for board in game["replay"]] == [0, 1]
    assert [event["kind"] for event in game["events"]] == ["move", "loss"]
    again = api.post(URL, {"file": _file(Z10_SAVE, "renamed.csv")}, format="multipart")
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["game"]["id"] == game["id"]
    assert Game.objects.get().player == player
    history = api.get(f"/api/v1/games/{game['id']}/history/", {"step": 0})
    assert history.json()["rows"][1] == "00600"


def test_a_save_that_breaks_a_rule_is_refused_with_where_and_why(api):
    response = api.post(URL, {"file": _file(Z10_SAVE.replace("8(1)", "7(1)"))},
                        format="multipart")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "save_breaks_rules"
    assert error["step"] == 1
    assert isinstance(error["line"], int)
    assert error["reason"]
    assert not Game.objects.exists()


def test_a_file_that_is_not_a_save_is_refused(api):
    response = api.post(URL, {"file": _file(b"\x89PNG\r\n\x1a\n")}, format="multipart")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_save_file"


@override_settings(DECODOKU_MAX_UPLOAD_BYTES=100)
def test_a_file_over_the_size_limit_is_refused(api):
    response = api.post(URL, {"file": _file(Z10_SAVE)}, format="multipart")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "file_too_large"
    assert response.json()["error"]["limit"] == 100


@override_settings(DECODOKU_MAX_UPLOAD_BYTES=100)
def test_a_body_far_over_the_limit_is_refused_before_it_is_read(api):
    response = api.post(URL, {"file": _file("x" * 200_000)}, format="multipart")
    assert response.status_code == 413


def test_an_upload_without_a_file_is_invalid(api):
    response = api.post(URL, {}, format="multipart")
    assert response.status_code == 400
    assert "file" in response.json()["error"]["fields"]


def test_an_upload_must_be_multipart(api):
    response = api.post(URL, {"file": "0"}, format="json")
    assert response.status_code == 415


def test_uploading_needs_a_player(db):
    from rest_framework.test import APIClient

    response = APIClient().post(URL, {"file": _file(Z10_SAVE)}, format="multipart")
    assert response.status_code == 401


def test_an_uploaded_game_cannot_be_played_or_retried(api):
    game = api.post(URL, {"file": _file(Z10_SAVE)}, format="multipart").json()["game"]
    url = f"/api/v1/games/{game['id']}/moves/"
    for step in (0, 1):
        response = api.post(url, {"step": step, "from": [1, 2], "to": [2, 2]}, format="json")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game_over"
    assert api.post(f"/api/v1/games/{game['id']}/abandon/").status_code == 409
    note = api.post(f"/api/v1/games/{game['id']}/moves/1/note/", {"note": "ok"}, format="json")
    assert note.status_code == 200
