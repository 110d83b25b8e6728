"""The API schema as a generated client reads it (the findings of a client
generated from /api/v1/schema/): uploads as binary, nullable objects with a
type, enums, the ErrorDetail fields, the token's prefix."""

from __future__ import annotations

import dataclasses

import pytest
from rest_framework.test import APIClient

from games.engine import EVENT_TYPES, Variant


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get(
            "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
        )
    assert response.status_code == 200
    return response.json()


def _component(schema: dict, name: str) -> dict:
    return schema["components"]["schemas"][name]


def _enum(schema: dict, prop: dict) -> list[str]:
    if "$ref" in prop:
        prop = _component(schema, prop["$ref"].rsplit("/", 1)[1])
    return prop["enum"]


def test_a_save_file_is_uploaded_as_binary(schema):
    body = schema["paths"]["/api/v1/imports/"]["post"]["requestBody"]["content"]
    file = body["multipart/form-data"]["schema"]
    properties = _component(schema, file["$ref"].rsplit("/", 1)[1])["properties"]
    assert properties["file"] == {**properties["file"], "type": "string", "format": "binary"}


@pytest.mark.parametrize("name", ["loss", "board"])
def test_nullable_objects_say_null_as_a_type(schema, name):
    prop = _component(schema, "GameState")["properties"][name]
    assert "allOf" not in prop
    assert "nullable" not in prop
    assert {"type": "null"} in prop["oneOf"]


def test_a_game_event_is_one_typed_shape_per_kind(schema):
    """GameEvent was seq + kind + untyped extras; now one shape per kind, found by kind."""
    event = _component(schema, "GameEvent")
    mapping = event["discriminator"]["mapping"]
    assert event["discriminator"]["propertyName"] == "kind"
    assert set(mapping) == set(EVENT_TYPES)
    assert sorted(ref["$ref"] for ref in event["oneOf"]) == sorted(mapping.values())
    for kind, ref in mapping.items():
        shape = _component(schema, ref.rsplit("/", 1)[1])
        properties = shape["properties"]
        assert properties["kind"]["const"] == kind
        engine_fields = {f.name for f in dataclasses.fields(EVENT_TYPES[kind])}
        assert {"seq", "kind", *engine_fields} <= set(properties) <= set(shape["required"])
        for name in engine_fields:
            prop = properties[name]
            assert "type" in prop or "$ref" in prop or "oneOf" in prop, (kind, name)


def test_game_events_are_lists_of_game_events(schema):
    for component, name in (("GameState", "events"), ("MoveResult", "events")):
        prop = _component(schema, component)["properties"][name]
        assert prop["items"] == {"$ref": "#/components/schemas/GameEvent"}


def test_no_component_name_clashes_with_a_generated_inline_name(schema):
    """openapi-python-client names an inline object or enum of component X, field y, "XY":
    Action.result became "ActionResult", clashed with the component ActionResult and
    every puzzles model was dropped from the client."""
    components = schema["components"]["schemas"]
    for name, component in components.items():
        for field, prop in component.get("properties", {}).items():
            types = prop.get("type", [])
            if "object" in ([types] if isinstance(types, str) else types) or "enum" in prop:
                generated = name + "".join(part.capitalize() for part in field.split("_"))
                assert generated not in components, (name, field, generated)


def test_fixed_sets_of_values_are_enums(schema):
    assert set(_enum(schema, _component(schema, "Loss")["properties"]["axis"])) == {
        "top_bottom", "left_right", "both",
    }
    # Uploaded Decodoku: Colors saves are games of their own variant, and so are planar games.
    assert set(_enum(schema, _component(schema, "Rules")["properties"]["variant"])) == {
        v.value for v in Variant
    } | {"colors", "planar"}


def test_error_details_list_every_field_an_error_may_carry(schema):
    properties = _component(schema, "ErrorDetail")["properties"]
    assert {"code", "message", "limit", "retry_after", "current_step", "fields"} <= set(
        properties
    )


def test_the_token_scheme_names_its_prefix(schema):
    token = schema["components"]["securitySchemes"]["playerToken"]
    assert token["in"] == "header"
    assert token["name"] == "Authorization"
    assert "Token <token>" in token["description"]
    assert "not `Bearer`" in token["description"]


def test_every_operation_documents_the_common_errors(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert {"414", "500", "503"} <= set(operation["responses"]), (method, path)
