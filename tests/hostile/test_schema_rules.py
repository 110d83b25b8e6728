"""The API schema says what the API enforces (Schemathesis: ST202 and ST201).

Schemathesis reported 14 schema-valid requests that the API refused (unknown
fields refused but allowed by the schema, consent versions, puzzle
difficulties and sizes, a planar game in practice mode, negative history
steps, impossible dates, integers written as 696758.0, empty uploads) and
``?page_size=null&page_size=null`` accepted although the schema calls it
invalid. The findings are replayed one by one, then Schemathesis itself runs
over every operation, with its boundary cases (coverage phase) and random
ones, valid and invalid:

* a request the schema calls **valid** is not refused with 400 or 422, unless
  for a reason no schema can state: the state of the game or attempt, what
  an uploaded file holds, an unknown recovery code, the word list of display
  names (``REFUSALS_NO_SCHEMA_CAN_STATE``, each one documented in the
  operation's description);
* a request the schema calls **invalid** is refused (Schemathesis's own
  ``negative_data_rejection`` check), and nothing gives a 5xx.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from referencing import Registry, Resource
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import negative_data_rejection

from tests.factories import GameFactory, PlayerFactory
from tests.games.api.test_schema import (  # noqa: F401 - fixtures used by name
    _keep_the_test_connection,
    _rest_framework_without_throttles,
    api_schema,
    games_of_owner,
    owner,
)

# Refusals of schema-valid requests that depend on stored state or on content
# that JSON Schema cannot describe, by operation; anything else is a rule the
# schema must declare.
MOVES = "POST /api/v1/games/{game_id}/moves/"
ACTIONS = "POST /api/v1/puzzles/{attempt_id}/actions/"
RESTORE = "POST /api/v1/players/restore/"
REFUSALS_NO_SCHEMA_CAN_STATE: dict[str, set[str]] = {
    # the game's board: which cells hold numbers, how large the grid is
    MOVES: {"illegal_move", "off_grid", "not_adjacent", "empty_source", "closed_side"},
    # a step past the game's last one
    "GET /api/v1/games/{game_id}/history/": {"invalid_step"},
    # no move with that index in the game
    "POST /api/v1/games/{game_id}/moves/{index}/note/": {"invalid_step"},
    # what the uploaded file holds
    "POST /api/v1/imports/": {
        "invalid_save", "invalid_save_file", "save_breaks_rules", "archive_refused",
    },
    # names are normalised (Unicode, spaces), checked against pseudonyms and a word list
    "POST /api/v1/me/display-name/": {
        "display_name_length", "display_name_characters", "display_name_offensive",
    },
    # the attempt's grid refuses the action
    ACTIONS: {"illegal_action"},
    # a rule set with no first board (the engine finds out when it draws one)
    "POST /api/v1/games/": {"unplayable_rule_set"},
    # the level a seed's puzzle reaches is known only once it is generated
    "POST /api/v1/puzzles/": {"level_not_reached"},
    # a player's puzzle: cages that overlap or are not contiguous, signs between cells that
    # are not neighbours, a cage target no filling meets, a puzzle without one solution
    "POST /api/v1/puzzles/check/": {"invalid_puzzle"},
    "POST /api/v1/puzzles/own/": {"invalid_puzzle"},
    "POST /api/v1/puzzles/from-id/": {"invalid_puzzle"},
}


def _refused_for_state_or_content(label: str, error: dict[str, Any]) -> bool:
    code = error.get("code")
    if code in REFUSALS_NO_SCHEMA_CAN_STATE.get(label, set()):
        return True
    if code != "invalid_request":
        return False
    if label == ACTIONS:
        # the attempt's puzzle kind has other actions or payloads (the engine says
        # so with the attempt's current_step; the request's shape is not in question)
        return "current_step" in error and "fields" not in error
    if label == RESTORE:
        # a well-formed recovery code that no player has
        return error.get("fields") == {"recovery_code": ["Unknown or malformed recovery code."]}
    return False


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _validator(schema: dict, component: str) -> jsonschema.Validator:
    resource = Resource.from_contents(
        {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema"}
    )
    registry = Registry().with_resource("urn:api", resource)
    return jsonschema.Draft202012Validator(
        {"$ref": f"urn:api#/components/schemas/{component}"}, registry=registry
    )


def _allowed(schema: dict, component: str, body: Any) -> bool:
    return _validator(schema, component).is_valid(body)


@pytest.fixture
def player(db):
    return PlayerFactory()


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    return client


# -- the findings, one by one: either the schema now refuses the request, or the API
# -- accepts it -------------------------------------------------------------------

REFUSED_BY_THE_SCHEMA_NOW = [
    pytest.param("MoveCreateRequest", {"step": 0, "from": [0, 0], "to": [0, 1], "x": 1},
                 id="move-unknown-field"),
    pytest.param("NoteRequest", {"note": "a", "[4": [1]}, id="note-unknown-field"),
    pytest.param("PlayerCreateRequest", {"consent_version": "0" * 31}, id="players-consent"),
    pytest.param("ConsentChangeRequest", {"consent_version": "0" * 31}, id="consent-version"),
    pytest.param("GameCreateRequest", {"family": "planar", "size": 5, "modulus": 2,
                                       "error_rate": 0.1, "mode": "practice"},
                 id="planar-practice"),
    pytest.param("GameCreateRequest", {"family": "planar", "variant": "z10", "modulus": 2,
                                       "error_rate": 0.1}, id="planar-variant"),
    pytest.param("GameCreateRequest", {"family": "planar", "modulus": 2}, id="planar-no-rate"),
    pytest.param("GameCreateRequest", {"modulus": 2}, id="modulus-without-planar"),
    pytest.param("PuzzleAttemptCreateRequest", {"kind": "kenken", "size": 4,
                                                "difficulty": "0" * 15},
                 id="puzzle-difficulty"),
    pytest.param("PuzzleAttemptCreateRequest", {"kind": "kenken", "number": 3},
                 id="puzzle-number-of-another-kind"),
    pytest.param("PuzzleAttemptCreateRequest", {"kind": "decodoku", "number": 3, "seed": 1},
                 id="puzzle-number-with-seed"),
    pytest.param("PuzzleAttemptCreateRequest", {"kind": "kenken", "size": 64},
                 id="puzzle-size-of-another-kind"),
    pytest.param("PuzzleAttemptCreateRequest", {"kind": "2mino", "difficulty": "easy"},
                 id="puzzle-difficulty-of-another-kind"),
]


@pytest.mark.parametrize(("component", "body"), REFUSED_BY_THE_SCHEMA_NOW)
def test_request_bodies_the_api_refuses_are_invalid_in_the_schema(schema, component, body):
    assert not _allowed(schema, component, body)


def test_the_rules_between_fields_still_allow_what_the_api_accepts(schema):
    for component, body in [
        ("GameCreateRequest", {}),
        ("GameCreateRequest", {"size": 5, "variant": "phi_lambda", "mode": "practice"}),
        ("GameCreateRequest", {"family": "planar", "size": 5, "modulus": 2, "error_rate": 0.1}),
        ("PuzzleAttemptCreateRequest", {"kind": "2mino", "size": 12, "difficulty": "unique"}),
        ("PuzzleAttemptCreateRequest", {"kind": "kenken", "size": 4, "difficulty": "hard"}),
        ("PlayerCreateRequest", {"consent_version": None}),
        ("PlayerCreateRequest", {}),
    ]:
        assert _allowed(schema, component, body), (component, body)


def _parameter(schema: dict, path: str, name: str) -> dict:
    parameters = schema["paths"][path]["get"]["parameters"]
    return next(p for p in parameters if p["name"] == name)["schema"]


def test_query_and_path_parameters_declare_their_bounds(schema):
    history = _parameter(schema, "/api/v1/games/{game_id}/history/", "step")
    assert history["minimum"] == 0
    day = _parameter(schema, "/api/v1/daily/{day}/", "day")
    assert day["format"] == "date"
    for path in ("/api/v1/games/", "/api/v1/puzzles/"):
        page_size = _parameter(schema, path, "page_size")
        assert (page_size["minimum"], page_size["maximum"]) == (1, 100)
        assert _parameter(schema, path, "page")["minimum"] == 1


def test_an_upload_may_not_be_empty_in_the_schema(schema):
    file = schema["components"]["schemas"]["ImportRequest"]["properties"]["file"]
    assert file["minLength"] == 1


def test_a_whole_number_written_with_a_fraction_is_an_integer(api, player):
    """Schemathesis sent "step": 696758.0, an integer in JSON Schema; now it is read as one."""
    game = GameFactory(player=player)
    response = api.post(
        f"/api/v1/games/{game.pk}/moves/", {"step": 5.0, "from": [0, 0], "to": [0, 1]},
        format="json",
    )
    assert response.status_code == 409  # read as step 5: the game is at step 0
    assert response.json()["error"]["code"] == "stale_step"
    fraction = api.post(
        f"/api/v1/games/{game.pk}/moves/", {"step": 0.5, "from": [0, 0], "to": [0, 1]},
        format="json",
    )
    assert fraction.status_code == 400
    assert "step" in fraction.json()["error"]["fields"]


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/puzzles/"])
@pytest.mark.parametrize(
    "query",
    [
        "page_size=null&page_size=null",
        "page_size=null",
        "page_size=1&page_size=100",
        "page_size=0",
        "page_size=101",
        "page_size=",
        "page=&page_size=1",
        "page=0",
        "page=last",
        "page=1&page=1",
    ],
)
def test_page_parameters_the_schema_calls_invalid_are_refused(api, path, query):
    response = api.get(f"{path}?{query}")
    assert response.status_code == 400, (query, response.content[:200])
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert set(error["fields"]) <= {"page", "page_size"}


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/puzzles/"])
def test_page_parameters_the_schema_allows_still_work(api, path):
    assert api.get(f"{path}?page=1&page_size=100").status_code == 200
    assert api.get(f"{path}?page_size=1").status_code == 200
    assert api.get(f"{path}?page=99").status_code == 404  # past the last page, as before


# -- Schemathesis over every operation ------------------------------------------------


def _error(response: Any) -> dict[str, Any]:
    try:
        error = json.loads(response.content)["error"]
    except (ValueError, KeyError, TypeError):
        return {}
    return error if isinstance(error, dict) else {}


def _check_positive(case: Any, response: Any) -> str | None:
    """Why a schema-valid request's answer is wrong, or None."""
    if response.status_code not in (400, 422):
        return None
    error = _error(response)
    if _refused_for_state_or_content(case.operation.label, error):
        return None
    return (
        f"{case.operation.label}: a request the schema calls valid was refused with "
        f"{response.status_code} {error.get('code')}; body {case.body!r}, query {case.query!r}, "
        f"path {case.path_parameters!r}: {response.content[:300]!r}"
    )


EXAMPLES_PER_OPERATION = 20


@pytest.fixture
def attempt_of_owner(owner):  # noqa: F811
    from puzzles.services import attempt_start

    return attempt_start(player=owner, kind="kenken", size=4, seed=1)


@pytest.mark.slow
def test_schemathesis_finds_no_undeclared_rule_and_no_accepted_invalid_request(
    api_schema, owner, games_of_owner, attempt_of_owner  # noqa: F811
):
    headers = {"Authorization": f"Token {owner.token}"}
    problems: list[str] = []
    sent: dict[str, int] = {}

    def send(case: Any) -> None:
        parameters = case.path_parameters or {}
        if "game_id" in parameters:
            # Mostly the player's own games, so that requests reach the game logic.
            choice = sum(map(ord, str(parameters["game_id"]))) % (len(games_of_owner) + 1)
            if choice < len(games_of_owner):
                parameters["game_id"] = str(games_of_owner[choice].pk)
        if "attempt_id" in parameters and sum(map(ord, str(parameters["attempt_id"]))) % 2:
            parameters["attempt_id"] = str(attempt_of_owner.pk)
        response = case.call(headers=headers)
        sent[case.operation.label] = sent.get(case.operation.label, 0) + 1
        if response.status_code == 413:
            # Refused for its size before anything is read (an invalid batch of more
            # actions than allowed is also more than 64 KiB of JSON): not accepted.
            assert response.json()["error"]["code"] == "request_too_large"
            return
        mode = case.meta.generation.mode if case.meta is not None else None
        if mode is GenerationMode.POSITIVE:
            problem = _check_positive(case, response)
            if problem:
                problems.append(problem)
        try:
            case.validate_response(response, checks=[not_a_server_error, negative_data_rejection])
        except AssertionError as failure:  # schemathesis's failures are AssertionErrors
            problems.append(f"{case.operation.label}: {str(failure)[:600]}")

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]

    def takes_input(operation: Any) -> bool:
        described = paths[operation.path][operation.method.lower()]
        return bool(described.get("parameters") or described.get("requestBody"))

    with override_settings(
        ALLOWED_HOSTS=["localhost"], REST_FRAMEWORK=_rest_framework_without_throttles()
    ):
        for result in api_schema.get_all_operations():
            operation = result.ok()
            generation = api_schema.config.generation_for(operation=operation)
            for case in api_schema.iter_coverage_cases(
                operation,
                generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                generation_config=generation,
            ):
                send(case)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                # A request with no parameters and no body cannot be made invalid.
                if mode is GenerationMode.NEGATIVE and not takes_input(operation):
                    continue

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(
                    max_examples=EXAMPLES_PER_OPERATION,
                    deadline=None,
                    derandomize=True,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                )
                def fuzz(case: Any) -> None:
                    send(case)

                fuzz()
    assert len(sent) >= 28
    assert not problems, "\n\n".join(sorted(set(problems))[:20])
