"""JSON bodies that Python's json module accepts and that broke requests with a 500.

* A lone surrogate (``{"\\ud800": 1}``): valid JSON, but the decoded text cannot
  be written as UTF-8, so the 400 that named it failed while being encoded,
  without any login (``POST /api/v1/players/``).
* Deep nesting: 950 levels of ``[`` (1.9 KB) raised RecursionError on every
  JSON endpoint; 900 levels still gave a 400.

Every answer must be a 4xx whose body is valid UTF-8 JSON in the API's error
format, and the refusal comes before anything reads the body.
"""

from __future__ import annotations

import json
import uuid

import pytest
from rest_framework.test import APIClient

from core.api import api_exception_handler
from core.parsers import MAX_JSON_DEPTH, json_depth
from tests.factories import GameFactory, PlayerFactory, api_token

# Raw bodies: "\ud800" is written as JSON's escape, not as a Python character.
SURROGATE_CASES = [
    pytest.param("/api/v1/players/", b'{"\\ud800": 1}', False, id="players-key"),
    pytest.param("/api/v1/games/", b'{"variant": "\\ud800"}', True, id="games-variant"),
    pytest.param("/api/v1/puzzles/", b'{"kind": "\\ud800"}', True, id="puzzles-kind"),
    pytest.param(
        "/api/v1/games/{game}/moves/",
        b'{"step": 0, "from": [0, 0], "to": [0, 1], "\\udfff": 1}',
        True,
        id="moves-unknown-key",
    ),
    pytest.param(
        "/api/v1/players/restore/", b'{"recovery_code": "x", "\\ud83d": 1}', False,
        id="restore-unknown-key",
    ),
    pytest.param(
        "/api/v1/me/display-name/", b'{"display_name": "a\\udc00b"}', True, id="display-name"
    ),
]


@pytest.fixture
def player_client(db) -> tuple[APIClient, dict[str, str]]:
    player = PlayerFactory.create()
    game = GameFactory.create(player=player)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client, {"game": str(game.pk), "attempt": str(uuid.uuid4()), "index": "1"}


def _post(client: APIClient, path: str, body: bytes):
    return client.post(path, body, content_type="application/json")


def _assert_error_body(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    text = response.content.decode("utf-8")  # valid UTF-8, or this raises
    error = json.loads(text)["error"]
    assert error["code"] == code, error
    return error


@pytest.mark.parametrize(("path", "body", "needs_player"), SURROGATE_CASES)
def test_a_lone_surrogate_is_a_400_in_valid_utf8(player_client, path, body, needs_player):
    client, ids = player_client
    if not needs_player:
        client = APIClient()  # no login needed to reach the old 500
    response = _post(client, path.format(**ids), body)
    error = _assert_error_body(response, 400, "parse_error")
    assert "surrogate" in error["message"]
    assert "\ud800" not in response.content.decode("utf-8")


def test_a_paired_surrogate_escape_is_ordinary_text(db):
    """An emoji written as two escapes is valid Unicode and goes through."""
    response = _post(APIClient(), "/api/v1/players/", b'{"\\ud83d\\ude00": 1}')
    error = _assert_error_body(response, 400, "invalid_request")
    assert "\U0001f600" in error["fields"]


@pytest.mark.parametrize("charset", ["zlib", "base64", "rot13", "utf-16", "no-such-charset"])
def test_a_charset_that_is_no_text_encoding_is_a_400(db, charset):
    body = b'{"consent_version": null}'
    response = APIClient().post(
        "/api/v1/players/", body, content_type=f"application/json; charset={charset}"
    )
    if charset == "no-such-charset":  # Django ignores an unknown charset: UTF-8
        assert response.status_code == 201
        return
    _assert_error_body(response, 400, "parse_error")


def _json_operations() -> list[str]:
    """Every operation whose request body is JSON, as the API schema lists them."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        path
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method == "post"
        and "application/json" in operation.get("requestBody", {}).get("content", {})
    )


JSON_OPERATIONS = _json_operations()


def _concrete(path: str, ids: dict[str, str]) -> str:
    return (
        path.replace("{game_id}", ids["game"])
        .replace("{attempt_id}", ids["attempt"])
        .replace("{index}", ids["index"])
    )


def test_the_schema_lists_the_json_endpoints():
    assert len(JSON_OPERATIONS) >= 9
    assert "/api/v1/players/" in JSON_OPERATIONS


@pytest.mark.parametrize("levels", [MAX_JSON_DEPTH + 1, 900, 950, 5000])
@pytest.mark.parametrize("path", JSON_OPERATIONS)
def test_deep_nesting_is_refused_before_it_is_parsed(player_client, path, levels):
    client, ids = player_client
    body = b"[" * levels + b"]" * levels
    error = _assert_error_body(_post(client, _concrete(path, ids), body), 400, "nesting_too_deep")
    assert error["limit"] == MAX_JSON_DEPTH


@pytest.mark.parametrize("path", JSON_OPERATIONS)
def test_deep_nesting_inside_an_object_is_refused_too(player_client, path):
    client, ids = player_client
    body = b'{"step": ' + b'{"a": ' * 2000 + b"1" + b"}" * 2000 + b"}"
    _assert_error_body(_post(client, _concrete(path, ids), body), 400, "nesting_too_deep")


def test_brackets_inside_strings_do_not_count(db):
    note = "[" * 5000 + '\\"{' * 100
    body = json.dumps({"consent_version": note}).encode()
    response = _post(APIClient(), "/api/v1/players/", body)
    # Refused for what it says (too long), not for its nesting.
    _assert_error_body(response, 400, "invalid_request")


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ("[]", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('["[[[[", "\\"[[[", {"]]": "}}}"}]', 2),
        ('"\\\\"[[', 2),  # an escaped backslash ends the string before the brackets
        ('"unterminated [[[[', 0),
        ("[" * 100, 100),
    ],
)
def test_the_depth_is_counted_as_json_nests(text, depth):
    assert json_depth(text) == depth


def test_counting_is_linear_for_a_body_of_escaped_quotes():
    """An unterminated string full of escaped quotes must not make the scan quadratic."""
    import time

    text = '["' + '\\"' * 200_000
    started = time.monotonic()
    assert json_depth(text) == 1
    assert time.monotonic() - started < 1.0


def test_an_error_naming_an_unencodable_value_is_still_utf8():
    """Defence in depth: should such a value ever reach a 400, its message escapes it."""
    from rest_framework.exceptions import ValidationError
    from rest_framework.renderers import JSONRenderer

    response = api_exception_handler(ValidationError({"\ud800": ["not \udfff known"]}), {})
    assert response is not None
    rendered = JSONRenderer().render(response.data).decode("utf-8")
    assert "\\\\ud800" in rendered
    assert "\ud800" not in rendered
