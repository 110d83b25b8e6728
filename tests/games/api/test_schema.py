"""The OpenAPI schema describes the play API accurately, and fuzzing it finds no 5xx.

The fuzzing test (schemathesis) sends requests generated from the schema to
the real application (WSGI, in-process, on the test database), authenticated
as a player who owns a game, and checks every answer: never a server error,
status codes, content types and bodies as the schema documents them.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from hypothesis import HealthCheck, given, settings
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import Game, Player
from games.services.legacy import legacy_import
from tests.factories import GameFactory, PlanarGameFactory, play, play_planar
from tests.games.test_legacy_import import Z10_SAVE

OPERATIONS = {
    ("/api/v1/players/", "post"),
    ("/api/v1/me/consent/", "get"),
    ("/api/v1/me/games/", "get"),
    ("/api/v1/me/recovery-code/", "post"),
    ("/api/v1/players/restore/", "post"),
    ("/api/v1/me/consent/", "post"),
    ("/api/v1/me/display-name/", "get"),
    ("/api/v1/me/display-name/", "post"),
    ("/api/v1/daily/", "get"),
    ("/api/v1/daily/", "post"),
    ("/api/v1/daily/{day}/", "get"),
    ("/api/v1/daily/days/", "get"),
    ("/api/v1/games/", "get"),
    ("/api/v1/games/", "post"),
    ("/api/v1/games/{game_id}/", "get"),
    ("/api/v1/games/{game_id}/moves/", "post"),
    ("/api/v1/games/{game_id}/moves/{index}/note/", "post"),
    ("/api/v1/games/{game_id}/abandon/", "post"),
    ("/api/v1/games/{game_id}/history/", "get"),
    ("/api/v1/games/{game_id}/share/", "post"),
    ("/api/v1/games/{game_id}/share/", "delete"),
    ("/api/v1/shared/{token}/", "get"),
    ("/api/v1/imports/", "post"),
    ("/api/v1/puzzles/", "get"),
    ("/api/v1/puzzles/", "post"),
    ("/api/v1/puzzles/{attempt_id}/", "get"),
    ("/api/v1/puzzles/{attempt_id}/actions/", "post"),
    ("/api/v1/puzzles/{attempt_id}/actions/batch/", "post"),
    ("/api/v1/puzzles/{attempt_id}/finish/", "post"),
    ("/api/v1/puzzles/check/", "post"),
    ("/api/v1/puzzles/own/", "post"),
    ("/api/v1/puzzles/from-id/", "post"),
    ("/api/v1/puzzles/levels/", "get"),
}


def _schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_is_valid_and_lists_every_endpoint():
    schema = _schema()
    validate_schema(schema)
    found = {(path, method) for path, item in schema["paths"].items() for method in item}
    assert found >= OPERATIONS
    assert not any("bench" in path for path in schema["paths"])


def test_every_operation_documents_its_error_responses():
    schema = _schema()
    for path, method in OPERATIONS:
        responses = schema["paths"][path][method]["responses"]
        errors = {code for code in responses if code.startswith("4")}
        assert {"400", "429"} <= errors or {"401", "429"} <= errors, (path, method)
        for code in errors:
            ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/Error", (path, method, code)


def test_the_move_request_body_is_documented():
    body = _schema()["components"]["schemas"]["MoveCreateRequest"]
    assert set(body["required"]) == {"step", "from", "to"}
    assert body["properties"]["from"]["type"] == "array"
    assert body["properties"]["step"]["maximum"] == 10**9


@pytest.mark.django_db
def test_the_docs_page_is_served_from_our_own_static_files():
    response = APIClient().get("/api/v1/swagger/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    # The default documentation page is ReDoc's.
    assert "redoc-container" in APIClient().get("/api/v1/docs/").content.decode()
    assert "cdn." not in page
    assert "unpkg" not in page
    assert APIClient().get("/api/v1/schema/").status_code == 200


# -- fuzzing -------------------------------------------------------------------


@pytest.fixture
def _keep_the_test_connection():
    """Let WSGI requests share the test's database transaction, as Django's test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(db, _keep_the_test_connection):
    with override_settings(ALLOWED_HOSTS=["localhost"]):
        yield schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())


@pytest.fixture
def owner(db) -> Player:
    return GameFactory.create().player


@pytest.fixture
def games_of_owner(owner: Player) -> list[Game]:
    """An active game, a lost one, an uploaded save file, an active and a finished planar game."""
    finished = play(GameFactory.create(player=owner, size=5))
    uploaded = legacy_import(player=owner, filename="tiny.csv", data=Z10_SAVE.encode()).game
    active = Game.objects.filter(player=owner, status="active").get()
    planar = PlanarGameFactory.create(player=owner, seed=5001)
    cleaned = play_planar(PlanarGameFactory.create(player=owner, seed=5000))
    return [active, finished, uploaded, planar, cleaned]


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES_PER_OPERATION = 25


def _rest_framework_without_throttles() -> dict:
    from django.conf import settings as django_settings

    return {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}}


@pytest.mark.slow
def test_fuzzing_the_api_from_its_schema_finds_no_server_error(api_schema, owner, games_of_owner):
    """Valid and invalid requests for every operation: no 5xx, and answers as documented."""
    headers = {"Authorization": f"Token {owner.token}"}
    sent: dict[str, int] = {}

    def run(operation, mode: GenerationMode) -> None:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def send(case) -> None:
            if case.path_parameters and "game_id" in case.path_parameters:
                # Mostly the player's own games, so that requests reach the game logic.
                choice = sum(map(ord, str(case.path_parameters["game_id"]))) % (
                    len(games_of_owner) + 1
                )
                if choice < len(games_of_owner):
                    case.path_parameters["game_id"] = str(games_of_owner[choice].pk)
            response = case.call(headers=headers)
            case.validate_response(response, checks=CHECKS)
            sent[operation.label] = sent.get(operation.label, 0) + 1

        send()

    paths = _schema()["paths"]

    def takes_input(operation) -> bool:
        described = paths[operation.path][operation.method.lower()]
        return bool(described.get("parameters") or described.get("requestBody"))

    with override_settings(
        ALLOWED_HOSTS=["localhost"], REST_FRAMEWORK=_rest_framework_without_throttles()
    ):
        for result in api_schema.get_all_operations():
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                # A request with no parameters and no body cannot be made invalid.
                if mode is GenerationMode.NEGATIVE and not takes_input(operation):
                    continue
                run(operation, mode)
    assert len(sent) == len(OPERATIONS)
