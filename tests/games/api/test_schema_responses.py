"""Every response the API documents matches what the API really answers.

The response bodies are built by the selectors (``games.selectors``,
``puzzles``) and described a second time by the serializers the schema is made
from. This test plays through every documented operation with real data
(factories and the API itself), and checks each JSON body against the schema
of its operation and status: every key returned is declared, every required
key is returned, and each value has the declared type (recursively, through
``$ref``, ``allOf`` / ``oneOf`` / ``anyOf``, arrays and nullable values).
An operation with a documented JSON body that no request here reaches fails
the test too, so a new endpoint gets a case.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games.consent import CONSENT_VERSION
from games.daily import today as daily_today
from games.models import Game, Player
from tests.factories import GameFactory, PlanarGameFactory, next_legal_move, play, play_planar
from tests.games.api.conftest import token_client
from tests.games.test_legacy_import import Z10_SAVE

pytestmark = pytest.mark.django_db

Schema = dict[str, Any]
JSON_TYPES: dict[str, Callable[[object], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


class ShapeChecker:
    """Checks a JSON value against an OpenAPI 3 schema; collects the differences."""

    def __init__(self, components: dict[str, Schema]) -> None:
        self.components = components

    def resolve(self, schema: Schema) -> Schema:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def problems(self, value: object, schema: Schema, where: str) -> list[str]:
        schema = self.resolve(schema)
        if value is None:
            nullable = schema.get("nullable") or any(
                self.resolve(s).get("type") == "null" or self.resolve(s).get("nullable")
                for s in schema.get("oneOf", []) + schema.get("anyOf", [])
            )
            types = schema.get("type")
            if isinstance(types, list) and "null" in types:
                nullable = True
            return (
                []
                if nullable or (schema.get("enum") and None in schema["enum"])
                else [f"{where}: null, not declared nullable"]
            )
        if "allOf" in schema:
            return [p for part in schema["allOf"] for p in self.problems(value, part, where)]
        for key in ("oneOf", "anyOf"):
            if key in schema:
                branches = [self.problems(value, part, where) for part in schema[key]]
                if any(not found for found in branches):
                    return []
                return [f"{where}: matches none of {key}: {min(branches, key=len)}"]
        declared = schema.get("type")
        if declared is None:
            return []  # any value
        types = declared if isinstance(declared, list) else [declared]
        if not any(JSON_TYPES[kind](value) for kind in types if kind != "null"):
            return [f"{where}: {type(value).__name__}, declared {declared}"]
        if "enum" in schema and value not in schema["enum"]:
            return [f"{where}: {value!r} not in {schema['enum']}"]
        if isinstance(value, list):
            items = schema.get("items", {})
            return [
                p
                for i, item in enumerate(value)
                for p in self.problems(item, items, f"{where}[{i}]")
            ]
        if isinstance(value, dict):
            return self._object_problems(value, schema, where)
        return []

    def _object_problems(self, value: dict[str, object], schema: Schema, where: str) -> list[str]:
        properties: dict[str, Schema] = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        found = [
            f"{where}: required key {key!r} missing"
            for key in schema.get("required", [])
            if key not in value
        ]
        for key, item in value.items():
            if key in properties:
                found += self.problems(item, properties[key], f"{where}.{key}")
            elif isinstance(extra, dict):
                found += self.problems(item, extra, f"{where}.{key}")
            elif extra is not True:
                found.append(f"{where}: key {key!r} returned but not declared")
        return found


@pytest.fixture(scope="module")
def schema() -> Schema:
    return SchemaGenerator().get_schema(request=None, public=True)


def documented_bodies(schema: Schema) -> dict[tuple[str, str, str], Schema]:
    """(path, method, status) -> the documented JSON body of every 2xx answer."""
    found = {}
    for path, item in schema["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in item.items():
            for status, answer in operation.get("responses", {}).items():
                body = answer.get("content", {}).get("application/json", {}).get("schema")
                if status.startswith("2") and body is not None:
                    found[(path, method, status)] = body
    return found


class Recorder:
    """Makes requests and keeps every answer under its documented path template."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, str, str, object]] = []

    def call(
        self, client: APIClient, method: str, template: str, url: str, expected: int, **kwargs: Any
    ) -> Any:
        response = getattr(client, method)(url, **kwargs)
        assert response.status_code == expected, (method, url, response.content[:300])
        body = json.loads(response.content) if response.content else None
        self.answers.append((template, method, str(expected), body))
        return body


def _play_through_the_api(rec: Recorder, player: Player) -> None:
    api = token_client(player)
    anonymous = APIClient()
    created = rec.call(
        anonymous,
        "post",
        "/api/v1/players/",
        "/api/v1/players/",
        201,
        data={"consent_version": CONSENT_VERSION},
        format="json",
    )
    assert created["player_id"]
    rec.call(api, "get", "/api/v1/me/consent/", "/api/v1/me/consent/", 200)
    rec.call(
        api,
        "post",
        "/api/v1/me/consent/",
        "/api/v1/me/consent/",
        200,
        data={"consent_version": CONSENT_VERSION},
        format="json",
    )
    rec.call(
        api,
        "post",
        "/api/v1/me/display-name/",
        "/api/v1/me/display-name/",
        200,
        data={"display_name": "Shape Tester"},
        format="json",
    )
    rec.call(api, "get", "/api/v1/me/display-name/", "/api/v1/me/display-name/", 200)
    code = rec.call(api, "post", "/api/v1/me/recovery-code/", "/api/v1/me/recovery-code/", 201)[
        "recovery_code"
    ]
    restored = rec.call(
        APIClient(),
        "post",
        "/api/v1/players/restore/",
        "/api/v1/players/restore/",
        200,
        data={"recovery_code": code},
        format="json",
    )
    if restored.get("token"):  # the restore may issue a new token
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {restored['token']}")

    # Games: one created through the API and moved, one lost, one planar, one uploaded.
    started = rec.call(api, "post", "/api/v1/games/", "/api/v1/games/", 201, data={}, format="json")
    game = Game.objects.get(pk=started["id"])
    base = "/api/v1/games/{game_id}/"
    move = next_legal_move(game)
    body = {"step": 0, "from": [move[0], move[1]], "to": [move[2], move[3]]}
    rec.call(
        api,
        "post",
        base + "moves/",
        f"/api/v1/games/{game.pk}/moves/",
        201,
        data=body,
        format="json",
    )
    rec.call(
        api,
        "post",
        base + "moves/",
        f"/api/v1/games/{game.pk}/moves/",
        200,
        data=body,
        format="json",
    )  # the same move again: replayed
    rec.call(
        api,
        "post",
        base + "moves/{index}/note/",
        f"/api/v1/games/{game.pk}/moves/1/note/",
        200,
        data={"note": "a guess"},
        format="json",
    )
    rec.call(api, "get", base, f"/api/v1/games/{game.pk}/", 200)
    rec.call(api, "get", base + "history/", f"/api/v1/games/{game.pk}/history/?step=1", 200)
    rec.call(api, "post", base + "abandon/", f"/api/v1/games/{game.pk}/abandon/", 200)
    rec.call(api, "get", base, f"/api/v1/games/{game.pk}/", 200)  # ended: everything shown
    lost = play(GameFactory.create(player=player, size=5, seed=7))
    token = rec.call(api, "post", base + "share/", f"/api/v1/games/{lost.pk}/share/", 200)[
        "share_token"
    ]
    rec.call(anonymous, "get", "/api/v1/shared/{token}/", f"/api/v1/shared/{token}/", 200)
    planar = play_planar(PlanarGameFactory.create(player=player), 3)
    rec.call(api, "get", base, f"/api/v1/games/{planar.pk}/", 200)
    rec.call(api, "get", "/api/v1/games/", "/api/v1/games/", 200)
    upload = SimpleUploadedFile("save.csv", Z10_SAVE.encode(), content_type="text/csv")
    rec.call(
        api,
        "post",
        "/api/v1/imports/",
        "/api/v1/imports/",
        201,
        data={"file": upload},
        format="multipart",
    )
    again = SimpleUploadedFile("again.csv", Z10_SAVE.encode(), content_type="text/csv")
    rec.call(
        api,
        "post",
        "/api/v1/imports/",
        "/api/v1/imports/",
        200,
        data={"file": again},
        format="multipart",
    )
    rec.call(api, "get", "/api/v1/me/games/", "/api/v1/me/games/", 200)

    # The daily challenge.
    rec.call(api, "post", "/api/v1/daily/", "/api/v1/daily/", 201)
    rec.call(api, "get", "/api/v1/daily/", "/api/v1/daily/", 200)
    today = daily_today().isoformat()
    rec.call(api, "get", "/api/v1/daily/{day}/", f"/api/v1/daily/{today}/", 200)
    rec.call(api, "get", "/api/v1/daily/days/", "/api/v1/daily/days/", 200)


def _solve_a_puzzle_step(rec: Recorder, player: Player) -> None:
    from tests.puzzles.test_twomino_api import SEED, bars_for, board_of, toggle_payload

    api = token_client(player)
    base = "/api/v1/puzzles/{attempt_id}/"
    attempt = rec.call(
        api,
        "post",
        "/api/v1/puzzles/",
        "/api/v1/puzzles/",
        201,
        data={"kind": "2mino", "size": 4, "seed": SEED},
        format="json",
    )
    from puzzles.engines import twomino

    puzzle = board_of(attempt)
    tiling = next(twomino.solve(4, puzzle.grid, puzzle.locked, limit=1))
    bar = bars_for(puzzle, tiling)[0]
    action = {"step": 0, "kind": "toggle", "payload": toggle_payload(bar)}
    url = f"/api/v1/puzzles/{attempt['id']}/"
    rec.call(api, "post", base + "actions/", url + "actions/", 201, data=action, format="json")
    rec.call(api, "post", base + "actions/", url + "actions/", 200, data=action, format="json")
    batch = {"step": 1, "actions": [{"kind": "toggle", "payload": toggle_payload(bar)}]}
    batch_url = url + "actions/batch/"
    rec.call(api, "post", base + "actions/batch/", batch_url, 201, data=batch, format="json")
    rec.call(api, "post", base + "actions/batch/", batch_url, 200, data=batch, format="json")
    rec.call(api, "get", base, url, 200)
    rec.call(api, "get", "/api/v1/puzzles/", "/api/v1/puzzles/", 200)
    rec.call(api, "post", base + "finish/", url + "finish/", 200)
    _check_an_own_puzzle(rec, player)


def _check_an_own_puzzle(rec: Recorder, player: Player) -> None:
    from tests.puzzles.test_own_puzzles import CHECK, OWN_URL, futoshiki_missing_one

    api = token_client(player)
    definition = futoshiki_missing_one()
    rec.call(api, "post", CHECK, CHECK, 200, data={**definition, "reveal": True}, format="json")
    own = rec.call(api, "post", OWN_URL, OWN_URL, 201, data=definition, format="json")
    from_id = "/api/v1/puzzles/from-id/"
    text = own["puzzle_id"]
    rec.call(api, "post", from_id, from_id, 201, data={"id": text}, format="json")
    levels = "/api/v1/puzzles/levels/"
    rec.call(api, "get", levels, levels, 200)


def test_every_documented_response_has_the_shape_of_a_real_one(schema: Schema) -> None:
    from tests.factories import PlayerFactory

    player = PlayerFactory.create()
    rec = Recorder()
    _play_through_the_api(rec, player)
    _solve_a_puzzle_step(rec, player)
    documented = documented_bodies(schema)
    checker = ShapeChecker(schema["components"]["schemas"])
    problems = []
    for path, method, status, body in rec.answers:
        declared = documented.get((path, method, status))
        if declared is None:
            problems.append(f"{method.upper()} {path} {status}: no documented JSON body")
            continue
        problems += [
            f"{method.upper()} {path} {status} {p}"
            for p in checker.problems(body, declared, "body")
        ]
    reached = {(path, method, status) for path, method, status, _ in rec.answers}
    problems += [
        f"{method.upper()} {path} {status}: documented, never checked here"
        for path, method, status in sorted(set(documented) - reached)
    ]
    assert problems == [], "\n".join(problems)


def test_the_checker_sees_undeclared_missing_and_mistyped_keys() -> None:
    components = {
        "Thing": {
            "type": "object",
            "required": ["a"],
            "properties": {"a": {"type": "integer"}, "b": {"type": "string", "nullable": True}},
        }
    }
    checker = ShapeChecker(components)
    ref = {"$ref": "#/components/schemas/Thing"}
    assert checker.problems({"a": 1, "b": None}, ref, "x") == []
    assert checker.problems({"b": "y", "c": 2}, ref, "x") == [
        "x: required key 'a' missing",
        "x: key 'c' returned but not declared",
    ]
    assert checker.problems({"a": "1"}, ref, "x") == ["x.a: str, declared integer"]
    assert checker.problems({"a": True}, ref, "x") == ["x.a: bool, declared integer"]
