"""The codebook covers every exported column, from the same definitions as the exports."""

from __future__ import annotations

import pytest

from games.models import Game
from games.recording import engine_event_fields
from games.research_tables import EVENT_FIELD_DOCS, EVENT_TABLES
from research.exports.columns import ColumnType
from research.exports.tables import all_tables
from tests.research.conftest import body_of, csv_rows

TABLES = list(all_tables())


@pytest.fixture
def book(researcher_client) -> dict:
    response = researcher_client.get("/research/codebook.json")
    assert response["Content-Type"] == "application/json"
    return response.json()


@pytest.mark.parametrize("table", TABLES)
def test_the_codebook_describes_every_column_the_export_writes(
    researcher_client, book, short_game, table
):
    body = body_of(researcher_client.get(f"/research/export/{table}.csv"))
    header = body.decode().splitlines()[0].split(",")
    [entry] = [entry for entry in book["tables"] if entry["name"] == table]
    assert [column["name"] for column in entry["columns"]] == header
    for column in entry["columns"]:
        assert column["meaning"].strip(), column["name"]
        assert column["type"] in book["types"]
    assert entry["filters"]
    assert entry["description"]


def test_the_codebook_lists_every_table_and_only_those(book):
    assert [entry["name"] for entry in book["tables"]] == TABLES
    expected = {"games", "players", "noise_errors", "moves", "merges", "jumps", "losses",
                "round_boundaries", "regenerations", "boards", "game_analyses",
                "round_analyses", "move_analyses", "move_bot_agreements", "sweeps",
                "sweep_points", "sweep_thresholds"}
    assert expected <= set(TABLES)


def test_every_engine_event_field_is_documented_and_exported():
    exported = {column.name for table in EVENT_TABLES for column in table.columns}
    for name in engine_event_fields():
        assert name in EVENT_FIELD_DOCS or any(
            key[1] == name for key in EVENT_FIELD_DOCS if isinstance(key, tuple)
        )
        assert name in exported


def test_allowed_values_match_the_models_choices(book):
    games = next(entry for entry in book["tables"] if entry["name"] == "games")
    columns = {column["name"]: column for column in games["columns"]}
    assert columns["source"]["allowed_values"] == list(Game.Source.values)
    assert columns["status"]["allowed_values"] == list(Game.Status.values)
    variants = {value for value, _ in Game._meta.get_field("variant").choices}
    assert set(columns["variant"]["allowed_values"]) == variants == {
        "z10", "phi_lambda", "colors", "planar"}
    families = {value for value, _ in Game._meta.get_field("family").choices} - {""}
    assert set(columns["family"]["allowed_values"]) == families == {"planar"}


def test_exported_values_stay_within_the_documented_values(researcher_client, lost_game, book):
    for entry in book["tables"]:
        allowed = {c["name"]: set(c["allowed_values"]) for c in entry["columns"]
                   if c["allowed_values"]}
        kinds = {c["name"]: c["type"] for c in entry["columns"]}
        body = body_of(researcher_client.get(f"/research/export/{entry['name']}.csv"))
        for row in csv_rows(body):
            for name, value in row.items():
                if value == "":
                    continue
                if name in allowed:
                    if (entry["name"], name) == ("boards", "cells"):
                        assert set(value) <= allowed[name]
                    else:
                        assert value in allowed[name], (entry["name"], name, value)
                if kinds[name] == ColumnType.BOOLEAN:
                    assert value in ("true", "false")
                if kinds[name] == ColumnType.INTEGER:
                    int(value)


def test_the_html_codebook_shows_every_table_and_column(researcher_client):
    page = researcher_client.get("/research/codebook/").content.decode()
    for table in all_tables().values():
        assert f'id="table-{table.name}"' in page
        for column in table.columns:
            assert f"<code>{column.name}</code>" in page
