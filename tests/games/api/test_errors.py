"""Whatever a client sends, the answer is a 4xx with the API's error body, never a 5xx."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import PlayerFactory
from tests.games.api.conftest import games_url, token_client

pytestmark = pytest.mark.django_db


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]
    return error


def _post_raw(client: APIClient, url: str, body: bytes | str, content_type="application/json"):
    # The test client sends bytes as they are (its stubs say str only).
    return client.generic("POST", url, body, content_type=content_type)  # type: ignore[arg-type]


def test_malformed_json_is_a_parse_error(api, game):
    _error(_post_raw(api, games_url(game, "moves/"), b'{"step": 0,'), 400, "parse_error")


def test_json_that_is_not_an_object_is_invalid(api, game):
    error = _error(_post_raw(api, games_url(game, "moves/"), b"[1, 2]"), 400, "invalid_request")
    assert "non_field_errors" in error["fields"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": 0, "to": [0, 1]}, "from"),
        ({"step": "0", "from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": 0.5, "from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": True, "from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": 0, "from": [0], "to": [0, 1]}, "from"),
        ({"step": 0, "from": [0, 0, 0], "to": [0, 1]}, "from"),
        ({"step": 0, "from": "a1", "to": [0, 1]}, "from"),
        ({"step": 0, "from": [0, "0"], "to": [0, 1]}, "from"),
        ({"step": 0, "from": [0, 0], "to": None}, "to"),
        ({"step": -1, "from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": 10**30, "from": [0, 0], "to": [0, 1]}, "step"),
        ({"step": 0, "from": [10**30, 0], "to": [0, 1]}, "from"),
        ({"step": 0, "from": [0, 0], "to": [0, 1], "client_time": "yesterday"}, "client_time"),
        ({"step": 0, "from": [0, 0], "to": [0, 1], "note": 5}, "note"),
        ({"step": 0, "from": [0, 0], "to": [0, 1], "colour": "red"}, "colour"),
    ],
)
def test_wrong_types_missing_fields_and_huge_numbers_are_invalid(api, game, body, field):
    response = api.post(games_url(game, "moves/"), body, format="json")
    error = _error(response, 400, "invalid_request")
    assert field in error["fields"]
    game.refresh_from_db()
    assert game.moves_count == 0


def test_a_number_too_long_to_parse_is_a_parse_error(api, game):
    body = '{"step": ' + "9" * 5000 + ', "from": [0, 0], "to": [0, 1]}'
    _error(_post_raw(api, games_url(game, "moves/"), body), 400, "parse_error")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "1e999"])
def test_non_finite_numbers_are_refused(api, game, literal):
    body = '{"step": ' + literal + ', "from": [0, 0], "to": [0, 1]}'
    response = _post_raw(api, games_url(game, "moves/"), body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"parse_error", "invalid_request"}


@pytest.mark.parametrize(
    "body",
    [{"size": 2}, {"size": 17}, {"size": "7"}, {"variant": "z11"}, {"mode": "easy"}, {"x": 1}],
)
def test_a_game_with_bad_settings_is_refused(api, body):
    _error(api.post(games_url(), body, format="json"), 400, "invalid_request")
    assert not Game.objects.exists()


def test_a_body_of_another_media_type_is_refused(api, game):
    response = _post_raw(api, games_url(game, "moves/"), "step=0", "text/plain")
    _error(response, 415, "unsupported_media_type")


def test_a_huge_json_body_is_refused_before_parsing(api, game):
    body = '{"note": "' + "x" * 100_000 + '"}'
    _error(_post_raw(api, games_url(game, "moves/"), body), 413, "request_too_large")


def test_an_unknown_game_is_not_found(api):
    url = "/api/v1/games/00000000-0000-0000-0000-000000000000/"
    _error(api.get(url), 404, "not_found")
    _error(api.post(url + "moves/", {"step": 0, "from": [0, 0], "to": [0, 1]}, format="json"),
           404, "not_found")


def test_an_unknown_api_path_is_a_json_404(api):
    _error(api.get("/api/v1/nothing-here/"), 404, "not_found")
    error = _error(api.get("/api/v1/games"), 404, "not_found")
    assert "/api/v1/games/" in error["message"]
    _error(api.get("/api/v1/games/not-a-uuid/"), 404, "not_found")


def test_a_wrong_method_is_refused(api, game):
    _error(api.delete(games_url(game)), 405, "method_not_allowed")


def test_an_invalid_page_is_not_found(api):
    _error(api.get(games_url(), {"page": 99}), 404, "not_found")


# -- authentication ----------------------------------------------------------


def test_no_credentials_is_unauthenticated():
    response = APIClient().get(games_url())
    _error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    "header", ["Token nonsense-token-value", "Token", "Token a b", "Token \u00e9\u00e9\u00e9"]
)
def test_a_bad_token_is_unauthenticated(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    _error(client.get(games_url()), 401, "invalid_token")


def test_a_token_authenticates_its_player_only(game):
    mine = token_client(game.player).get(games_url()).json()
    theirs = token_client(PlayerFactory()).get(games_url()).json()
    assert mine["count"] == 1
    assert theirs["count"] == 0


def test_the_session_needs_the_csrf_token_for_writes(db):
    client = APIClient(enforce_csrf_checks=True)
    answered = {"consent_version": None}
    assert client.post("/api/v1/players/", answered, format="json").status_code == 201
    assert client.get(games_url()).status_code == 200  # reads need no CSRF token
    _error(client.post(games_url(), {}, format="json"), 403, "csrf_failed")
    assert not Game.objects.exists()
    csrf = client.cookies["csrftoken"].value
    response = client.post(games_url(), {}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 201
    assert Game.objects.get().source == Game.Source.WEB


def test_a_session_of_a_deleted_player_is_unauthenticated(db):
    client = APIClient()
    client.post("/api/v1/players/", {}, format="json")
    from games.models import Player

    Player.objects.all().delete()
    _error(client.get(games_url()), 401, "not_authenticated")


# -- rate limits -------------------------------------------------------------


def _rates(**rates):
    return override_settings(
        REST_FRAMEWORK={**_current_rest_framework(), "DEFAULT_THROTTLE_RATES": rates}
    )


def _current_rest_framework() -> dict:
    from django.conf import settings

    return dict(settings.REST_FRAMEWORK)


def test_a_player_over_the_rate_limit_is_throttled(api, player):
    with _rates(player="3/min", ip=None):
        for _ in range(3):
            assert api.get(games_url()).status_code == 200
        response = api.get(games_url())
        error = _error(response, 429, "throttled")
        assert int(response["Retry-After"]) == error["retry_after"] > 0
        # Another player is not affected by the first one's count.
        assert token_client(PlayerFactory()).get(games_url()).status_code == 200


def test_an_address_over_the_rate_limit_is_throttled(db):
    clients = [token_client(PlayerFactory()) for _ in range(3)]
    with _rates(player=None, ip="2/min"):
        assert clients[0].get(games_url()).status_code == 200
        assert clients[1].get(games_url()).status_code == 200
        _error(clients[2].get(games_url()), 429, "throttled")


def test_creating_players_is_rate_limited_per_address(db):
    with _rates(signup="2/hour", ip=None):
        client = APIClient()
        assert client.post("/api/v1/players/").status_code == 201
        assert client.post("/api/v1/players/").status_code == 201
        _error(client.post("/api/v1/players/"), 429, "throttled")


def test_rate_limits_can_be_switched_off(api):
    with _rates():
        for _ in range(20):
            assert api.get(games_url()).status_code == 200
    assert api_settings.DEFAULT_THROTTLE_RATES is not None


def test_an_api_path_with_a_line_break_is_a_json_404(api):
    _error(api.post("/api/v1/games/a%0Ab/moves/1/note/", {}, format="json"), 404, "not_found")


@pytest.mark.parametrize(
    "client_time", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2026-13-01T00:00"]
)
def test_a_client_time_out_of_range_is_invalid(api, game, client_time):
    body = {"step": 0, "from": [0, 0], "to": [0, 1], "client_time": client_time}
    error = _error(api.post(games_url(game, "moves/"), body, format="json"), 400,
                   "invalid_request")
    assert "client_time" in error["fields"]
