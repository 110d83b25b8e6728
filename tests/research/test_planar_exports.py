"""Planar games in the research exports: their rule set, their events and their outcome."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from django.test import Client

from games.engine import Family, RuleSet
from games.models import Event, Game, Player
from games.recording import engine_event_fields, event_dict, fields_of_kind
from games.services import planar_bot_game
from research.exports.notebook import pandas_dates, pandas_dtypes
from research.exports.tables import all_tables
from tests.factories import PlanarGameFactory, play_planar
from tests.research.conftest import body_of, csv_rows, finish

pytestmark = pytest.mark.django_db

URL = "/research/export/{}.csv"


def export(client: Client, table: str, **params: str) -> list[dict[str, str]]:
    response = client.get(URL.format(table), params)
    assert response.status_code == 200, response.content
    return csv_rows(body_of(response))


@pytest.fixture
def planar_game(consenting_player: Player) -> Game:
    """A planar game cleaned by the clustering decoder with moves off the board: failed."""
    game = play_planar(PlanarGameFactory.create(player=consenting_player, seed=5001))
    assert (game.status, game.logical_failure) == ("finished", True)
    return game


def test_the_games_table_holds_a_planar_games_rule_set_and_logical_outcome(
    researcher_client, planar_game
):
    [row] = export(researcher_client, "games")
    assert row["game_id"] == str(planar_game.pk)
    assert (row["rules_key"], row["board_size"], row["variant"]) == (
        "z2-planar-L5-p0.100", "5", "planar")
    assert (row["family"], row["modulus"], row["error_rate"]) == ("planar", "2", "0.1")
    assert (row["noise_budget"], row["moves_per_round"], row["merge_label"]) == ("0", "0", "")
    assert (row["status"], row["logical_charge"], row["logical_failure"]) == (
        "finished", "1", "true")
    assert row["score"] == row["moves_count"] == str(planar_game.moves_count)


def test_an_original_game_has_no_family_and_no_logical_outcome(researcher_client, short_game):
    finish(short_game)  # exports hold finished games only
    [row] = export(researcher_client, "games")
    assert (row["family"], row["modulus"], row["error_rate"]) == ("", "", "")
    assert (row["logical_charge"], row["logical_failure"]) == ("", "")


def test_the_logical_outcomes_table_holds_the_outcome_event(researcher_client, planar_game):
    [row] = export(researcher_client, "logical_outcomes")
    event = Event.objects.get(game=planar_game, kind="logical_outcome")
    assert (row["game_id"], row["seq"], row["t"], row["round"]) == (
        str(planar_game.pk), str(event.seq), str(planar_game.moves_count), "1")
    assert (row["charge"], row["failed"]) == ("1", "true")
    assert row["family"] == "planar"


def test_the_event_tables_write_a_planar_games_sides_as_recorded(researcher_client, planar_game):
    types = engine_event_fields()
    for table, kind in (("noise_errors", "noise"), ("moves", "move")):
        rows = export(researcher_client, table)
        stored = list(Event.objects.filter(kind=kind).order_by("id"))
        assert len(rows) == len(stored) > 0
        for row, event in zip(rows, stored, strict=True):
            expected = event_dict(event)
            for name in fields_of_kind(kind):
                value = row[name] if types[name] is not bool else row[name] == "true"
                assert types[name](value) == expected[name], (table, name)
    noise = export(researcher_client, "noise_errors")
    assert {r["case"] for r in noise if r["col1"] == "-1" or r["col2"] == "5"} <= {"side"}
    moves = export(researcher_client, "moves")
    off = [r for r in moves if r["to_col"] in ("-1", "5")]
    assert off
    assert all((r["to_value_before"], r["to_value_after"]) == ("0", "0") for r in off)
    total = sum(len(export(researcher_client, table.name)) for table in all_tables().values()
                if table.model is Event)
    assert total == Event.objects.count()


def test_exported_planar_values_stay_within_the_documented_values(researcher_client,
                                                                  planar_game):
    book = researcher_client.get("/research/codebook.json").json()
    for entry in book["tables"]:
        allowed = {c["name"]: set(c["allowed_values"]) for c in entry["columns"]
                   if c["allowed_values"]}
        for row in csv_rows(body_of(researcher_client.get(URL.format(entry["name"])))):
            for name, value in row.items():
                if value and name in allowed and (entry["name"], name) != ("boards", "cells"):
                    assert value in allowed[name], (entry["name"], name, value)


def test_filters_select_planar_games_by_variant_and_large_sizes(researcher_client, planar_game,
                                                               short_game):
    assert [r["game_id"] for r in export(researcher_client, "games", variant="planar")] == [
        str(planar_game.pk)]
    bot = planar_bot_game(rules=RuleSet(size=20, family=Family.PLANAR, modulus=2,
                                        error_rate=0.05), bot_name="matching", seed=4)
    assert [r["game_id"] for r in export(researcher_client, "games", size="20")] == [
        str(bot.pk)]
    boards = export(researcher_client, "boards", size="20")
    assert all(len(r["cells"]) == 400 for r in boards)
    assert researcher_client.get(URL.format("games"), {"size": "65"}).status_code == 400


def test_the_planar_tables_load_into_pandas_with_the_codebook_types(researcher_client,
                                                                   planar_game):
    for name in ("games", "logical_outcomes", "moves"):
        table = all_tables()[name]
        body = body_of(researcher_client.get(URL.format(name)))
        frame = pd.read_csv(io.BytesIO(body), dtype=pandas_dtypes(table),
                            parse_dates=pandas_dates(table))
        parquet = pd.read_parquet(io.BytesIO(body_of(
            researcher_client.get(f"/research/export/{name}.parquet"))))
        assert list(frame.columns) == list(parquet.columns) == list(table.column_names)
        assert len(frame) == len(parquet) > 0


def test_a_planar_game_has_no_save_file_of_the_original_apps(researcher_client, planar_game):
    response = researcher_client.get(f"/research/games/{planar_game.pk}/save.txt")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    page = researcher_client.get(f"/research/games/{planar_game.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "charge 1: a logical error" in text
    assert "save.txt" not in text
