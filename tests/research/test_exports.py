"""The CSV exports of the research area: content, filters, streaming, gzip, failures."""

from __future__ import annotations

import gzip
import uuid
import zlib
from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings

from core.pseudonyms import pseudonym
from games.engine import ENGINE_VERSION
from games.models import BoardSnapshot, Event, Game
from games.recording import engine_event_fields, event_dict, fields_of_kind, parse_labels
from games.research_tables import EVENT_TABLES
from research import selectors
from research.exports import writer
from research.exports.writer import FAILURE_MARKER, ExportFailed
from tests.factories import GameFactory, PlayerFactory, platform_bot_player, play
from tests.research.conftest import body_of, csv_rows, finish

URL = "/research/export/{}.csv"


def export(client, table: str, **params) -> list[dict[str, str]]:
    response = client.get(URL.format(table), params)
    assert response.status_code == 200, response.content
    return csv_rows(body_of(response))


def parse_time(text: str) -> datetime:
    assert text.endswith("Z")
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def typed(text: str, kind: type):
    if kind is bool:
        assert text in ("true", "false")
        return text == "true"
    return kind(text)


# -- content -------------------------------------------------------------------


def test_it_exports_games_with_provenance_and_the_players_pseudonym(researcher_client, lost_game):
    response = researcher_client.get(URL.format("games"))
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="decodoku-games.csv"' in response["Content-Disposition"]
    [row] = csv_rows(body_of(response))
    game = Game.objects.get(pk=lost_game.pk)
    assert row["game_id"] == str(game.pk)
    assert row["player"] == pseudonym(game.player_id) != str(game.player_id)
    assert row["rules_key"] == "z10-L7-b6-m5-destination"
    assert (row["board_size"], row["variant"], row["noise_budget"]) == ("7", "z10", "6")
    assert (row["moves_per_round"], row["merge_label"]) == ("5", "destination")
    assert row["engine_version"] == str(ENGINE_VERSION)
    assert (row["status"], row["source"], row["mode"]) == ("lost", "api", "normal")
    assert row["score"] == str(game.score)
    assert row["rounds"] == str(game.rounds)
    assert row["moves_count"] == str(game.moves_count)
    assert row["seed"] == "7"
    assert parse_time(row["started_at"]) == game.started_at
    assert parse_time(row["ended_at"]) == game.ended_at
    assert row["research_consent"] == "true"
    assert row["excluded_from_research"] == "false"
    assert row["excluded_reason"] == ""
    assert row["bot_name"] == ""


# The event kinds each event table holds.
EVENT_KINDS = {
    "noise_errors": ("noise",),
    "moves": ("move",),
    "merges": ("merge",),
    "jumps": ("jump",),
    "losses": ("loss",),
    "round_boundaries": ("round_start", "round_end"),
    "regenerations": ("regenerated",),
    "logical_outcomes": ("logical_outcome",),
}


def test_every_event_table_is_listed_with_its_kinds() -> None:
    assert [table.name for table in EVENT_TABLES] == list(EVENT_KINDS)


@pytest.mark.parametrize("table", EVENT_TABLES, ids=lambda table: table.name)
def test_it_exports_each_event_kind_exactly_as_recorded(researcher_client, lost_game, table):
    kinds = EVENT_KINDS[table.name]
    stored = list(Event.objects.filter(kind__in=kinds).order_by("id"))
    rows = export(researcher_client, table.name)
    assert [int(row["event_id"]) for row in rows] == [event.id for event in stored]
    types = engine_event_fields()
    for row, event in zip(rows, stored, strict=True):
        assert row["game_id"] == str(lost_game.pk)
        assert row["rules_key"] == lost_game.rules_key
        assert row["engine_version"] == str(lost_game.engine_version)
        assert int(row["seq"]) == event.seq
        expected = event_dict(event)
        for name in fields_of_kind(event.kind):
            assert typed(row[name], types[name]) == expected[name], (event.kind, name)
        for name in set(row) - set(fields_of_kind(event.kind)) & set(types):
            assert row[name] == ""  # fields of the other kind in a shared table
        if event.kind == "move":
            assert parse_time(row["server_time"]) == event.server_time


def test_the_event_tables_together_hold_every_event(researcher_client, lost_game):
    total = sum(len(export(researcher_client, table.name)) for table in EVENT_TABLES)
    assert total == Event.objects.count() > 0


def test_it_exports_the_board_after_every_step(researcher_client, lost_game):
    rows = export(researcher_client, "boards")
    boards = list(BoardSnapshot.objects.order_by("id"))
    assert len(rows) == len(boards) == lost_game.moves_count + 1
    for row, board in zip(rows, boards, strict=True):
        assert int(row["board_id"]) == board.id
        assert (int(row["step"]), int(row["t"])) == (board.step, board.t)
        assert row["cells"] == board.values
        assert len(row["cells"]) == 49
        assert [int(g) for g in row["groups"].split(" ")] == parse_labels(board.labels)
        assert row["game_id"] == str(lost_game.pk)
        assert row["board_size"] == "7"


def test_it_exports_players_with_the_number_of_selected_games(researcher_client, db):
    player = PlayerFactory.create()
    finish(
        GameFactory.create(player=player, size=5),
        GameFactory.create(player=player, size=7),
        GameFactory.create(size=7),  # another player
    )
    GameFactory.create(player=player, size=7)  # active: not exported yet
    rows = export(researcher_client, "players")
    by_pseudonym = {row["player"]: row for row in rows}
    assert len(rows) == 2
    mine = by_pseudonym[pseudonym(player.pk)]
    assert mine["games"] == "2"
    assert mine["consent_version"] == "2026-11-v1"
    assert parse_time(mine["consented_at"]) == player.consented_at
    only_l5 = export(researcher_client, "players", size=5)
    assert [(row["player"], row["games"]) for row in only_l5] == [(pseudonym(player.pk), "1")]


def test_notes_with_commas_quotes_and_line_breaks_stay_in_one_cell(researcher_client, short_game):
    note = 'first, "second"\nthird\r\nfourth é'
    Event.objects.filter(game=short_game, kind="move", index=1).update(note=note)
    finish(short_game)
    rows = export(researcher_client, "moves")
    assert [row["note"] for row in rows] == [note, "", ""]


# -- filters -------------------------------------------------------------------


@pytest.fixture
def assorted_games(db) -> dict[str, Game]:
    """Games that differ in one attribute each from the first."""
    consenting = PlayerFactory.create()
    games = {
        "base": GameFactory.create(player=consenting),
        "small": GameFactory.create(player=consenting, size=5),
        "phi": GameFactory.create(player=consenting, variant="phi_lambda"),
        "budget": GameFactory.create(player=consenting, noise_budget=4.0),
        "web": GameFactory.create(player=consenting, source=Game.Source.WEB),
        "other_player": GameFactory.create(),
        "excluded": GameFactory.create(player=consenting),
        "unconsented": GameFactory.create(player=PlayerFactory.create(consent_version=None)),
        "active": GameFactory.create(player=consenting),
    }
    # Exports hold finished games only: every game but "active" has ended.
    Game.objects.filter(pk__in=[g.pk for n, g in games.items() if n != "active"]).update(
        status=Game.Status.LOST, ended_at=datetime(2026, 6, 1, tzinfo=UTC)
    )
    Game.objects.filter(pk=games["excluded"].pk).update(
        excluded_from_research=True, excluded_reason="test game"
    )
    Game.objects.filter(pk=games["base"].pk).update(
        status=Game.Status.ABANDONED, ended_at=datetime(2026, 1, 2, tzinfo=UTC),
        started_at=datetime(2026, 1, 1, 12, tzinfo=UTC),
    )
    Game.objects.filter(pk=games["small"].pk).update(engine_version=ENGINE_VERSION + 1)
    return games


def _game_ids(client, table: str = "games", **params) -> set[str]:
    return {row["game_id"] for row in export(client, table, **params)}


def _ids(games: dict[str, Game], *names: str) -> set[str]:
    return {str(games[name].pk) for name in names}


DEFAULT = ("base", "small", "phi", "budget", "web", "other_player")


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, DEFAULT),
        ({"variant": "phi_lambda"}, ("phi",)),
        ({"size": "5"}, ("small",)),
        ({"rules_key": "z10-L7-b4-m5-destination"}, ("budget",)),
        ({"engine_version": str(ENGINE_VERSION + 1)}, ("small",)),
        ({"source": "web"}, ("web",)),
        ({"status": "abandoned"}, ("base",)),
        ({"date_from": "2026-01-01", "date_to": "2026-01-01"}, ("base",)),
        ({"date_to": "2026-01-01T12:00:00Z"}, ()),
        ({"date_to": "2026-01-01T12:00:01+00:00"}, ("base",)),
        ({"date_from": "2026-01-02"}, tuple(name for name in DEFAULT if name != "base")),
        ({"include_excluded": "1"}, (*DEFAULT, "excluded")),
        ({"include_excluded": "1", "include_practice": "1", "size": "7",
          "source": "api", "variant": "z10"},
         ("base", "budget", "other_player", "excluded")),
    ],
)
def test_each_filter_selects_exactly_its_games(researcher_client, assorted_games, params, expected):
    assert _game_ids(researcher_client, **params) == _ids(assorted_games, *expected)
    # The same filters select the same games in the event and board tables.
    assert _game_ids(researcher_client, "round_boundaries", **params) == _ids(
        assorted_games, *expected
    )
    assert _game_ids(researcher_client, "boards", **params) == _ids(assorted_games, *expected)


def test_the_player_filter_takes_a_pseudonym(researcher_client, assorted_games):
    other = assorted_games["other_player"]
    key = pseudonym(other.player_id)
    assert _game_ids(researcher_client, player=key) == _ids(assorted_games, "other_player")
    assert _game_ids(researcher_client, "noise_errors", player=key) == _ids(
        assorted_games, "other_player"
    )


def test_incremental_pulls_return_the_rows_after_a_row_id_in_order(researcher_client, lost_game):
    every = export(researcher_client, "moves")
    ids = [int(row["event_id"]) for row in every]
    assert ids == sorted(ids)
    cut = ids[9]
    later = export(researcher_client, "moves", after_id=str(cut))
    assert [int(row["event_id"]) for row in later] == ids[10:]
    assert later == every[10:]
    assert export(researcher_client, "moves", after_id=str(ids[-1])) == []
    boards = export(researcher_client, "boards")
    after = export(researcher_client, "boards", after_id=boards[0]["board_id"])
    assert after == boards[1:]


@pytest.mark.parametrize(
    ("table", "params", "field"),
    [
        ("games", {"size": "2"}, "size"),
        ("games", {"size": "seven"}, "size"),
        ("games", {"variant": "z11"}, "variant"),
        ("games", {"status": "won"}, "status"),
        ("games", {"source": "email"}, "source"),
        ("games", {"date_from": "yesterday"}, "date_from"),
        ("games", {"date_from": "2026-02-30"}, "date_from"),
        ("games", {"date_from": "2026-02-02", "date_to": "2026-02-01"}, "date_to"),
        ("games", {"player": "not-a-pseudonym"}, "player"),
        ("games", {"player": "0" * 24}, "player"),
        ("games", {"engine_version": "-1"}, "engine_version"),
        ("games", {"include_excluded": "maybe"}, "include_excluded"),
        ("games", {"after_id": "5"}, "after_id"),
        ("games", {"sweep": str(uuid.uuid4())}, "sweep"),
        ("games", {"colour": "red"}, "colour"),
        ("games", {"gzip": "perhaps"}, "gzip"),
        ("moves", {"after_id": "-3"}, "after_id"),
        ("moves", {"after_id": "1e3"}, "after_id"),
        ("moves", {"size": ""}, "size"),
        ("sweep_points", {"variant": "z10"}, "variant"),
    ],
)
def test_invalid_filters_are_refused_with_a_400_naming_them(
    researcher_client, short_game, table, params, field
):
    response = researcher_client.get(URL.format(table), params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_filter"
    assert error["field"] == field
    assert field in error["message"]


def test_a_filter_given_twice_is_refused(researcher_client, db):
    response = researcher_client.get(URL.format("games") + "?size=5&size=7")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "size"


def test_an_unknown_table_is_a_404_in_the_error_format(researcher_client, db):
    response = researcher_client.get(URL.format("secrets"))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


# -- pseudonyms ----------------------------------------------------------------


def test_pseudonyms_are_stable_across_exports_and_never_reveal_player_ids(
    researcher_client, lost_game, short_game
):
    player_id = str(lost_game.player_id)
    first = export(researcher_client, "games")
    second = export(researcher_client, "games", size="7")
    players = export(researcher_client, "players")
    expected = pseudonym(lost_game.player_id)
    assert {row["player"] for row in first} == {expected}
    assert second[0]["player"] == expected
    assert players[0]["player"] == expected
    for table in ("games", "players", "moves", "boards", "noise_errors"):
        body = body_of(researcher_client.get(URL.format(table)))
        assert player_id.encode() not in body
        assert player_id.replace("-", "").encode() not in body


def test_the_pseudonym_key_decides_the_pseudonyms(researcher_client, short_game):
    finish(short_game)
    before = export(researcher_client, "games")[0]["player"]
    with override_settings(DECODOKU_PSEUDONYM_KEY="another-key"):
        changed = export(researcher_client, "games")[0]["player"]
    assert before != changed
    assert len(changed) == 24
    assert export(researcher_client, "games")[0]["player"] == before


# -- gzip, streaming and failures ----------------------------------------------


def test_gzip_gives_a_csv_gz_file_with_the_same_csv(researcher_client, lost_game):
    plain = body_of(researcher_client.get(URL.format("moves")))
    response = researcher_client.get(URL.format("moves"), {"gzip": "1"})
    assert response["Content-Type"] == "application/gzip"
    assert 'filename="decodoku-moves.csv.gz"' in response["Content-Disposition"]
    assert "Content-Encoding" not in response
    assert gzip.decompress(body_of(response)) == plain


def test_exports_stream_in_chunks(researcher_client, lost_game, monkeypatch):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 512)
    monkeypatch.setattr(writer, "FETCH_ROWS", 7)
    chunks = list(researcher_client.get(URL.format("noise_errors")).streaming_content)
    assert len(chunks) > 5
    assert all(chunk.endswith(b"\n") for chunk in chunks)
    assert len(csv_rows(b"".join(chunks))) == Event.objects.filter(kind="noise").count()


def _fail_midway(monkeypatch, *, after_chunks: int) -> None:
    """Make the CSV stream (either path) fail after some chunks were sent."""
    original = selectors.csv_chunks

    def failing(**kwargs):
        for count, chunk in enumerate(original(**kwargs)):
            if count == after_chunks:
                raise RuntimeError("the database went away")
            yield chunk

    monkeypatch.setattr(selectors, "csv_chunks", failing)


def _consume_until_failure(response) -> bytes:
    received = []
    with pytest.raises(ExportFailed):
        received.extend(response.streaming_content)  # keeps what came before the failure
    return b"".join(received)


def test_an_export_failing_midway_ends_with_a_marker_and_aborts(
    researcher_client, lost_game, monkeypatch
):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 256)
    _fail_midway(monkeypatch, after_chunks=6)
    response = researcher_client.get(URL.format("noise_errors"))
    assert response.status_code == 200  # the failure comes after the headers were sent
    received = _consume_until_failure(response)
    lines = received.decode().splitlines()
    assert lines[0].startswith("event_id,")
    assert len(lines) > 3  # rows were sent before the failure
    assert lines[-1].startswith(FAILURE_MARKER + ",")
    assert "incomplete" in lines[-1]
    assert sum(line.startswith(FAILURE_MARKER) for line in lines) == 1


def test_a_failing_gzip_export_is_not_a_valid_gzip_file(researcher_client, lost_game, monkeypatch):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 256)
    _fail_midway(monkeypatch, after_chunks=6)
    received = _consume_until_failure(
        researcher_client.get(URL.format("noise_errors"), {"gzip": "1"})
    )
    with pytest.raises(EOFError):
        gzip.decompress(received)
    partial = zlib.decompressobj(31).decompress(received).decode()
    assert partial.splitlines()[-1].startswith(FAILURE_MARKER)


def test_games_with_no_rows_give_just_the_header(researcher_client, db):
    body = body_of(researcher_client.get(URL.format("losses")))
    assert body.decode().splitlines() == [body.decode().strip()]
    assert body.startswith(b"event_id,game_id,")


def test_times_are_utc_with_a_z(researcher_client, short_game):
    local = datetime(2026, 3, 1, 10, 0, tzinfo=UTC) + timedelta(microseconds=5)
    Game.objects.filter(pk=short_game.pk).update(started_at=local)
    finish(short_game)
    row = export(researcher_client, "games")[0]
    assert row["started_at"] == "2026-03-01T10:00:00.000005Z"


def test_bot_games_and_their_fields_are_exported(researcher_client, db):
    game = GameFactory.create(player=platform_bot_player(), source=Game.Source.BOT)
    Game.objects.filter(pk=game.pk).update(bot_name="greedy", bot_version="2")
    finish(game)
    row = export(researcher_client, "games", source="bot")[0]
    assert (row["bot_name"], row["bot_version"]) == ("greedy", "2")


def test_a_played_out_short_game_keeps_its_moves_in_order(researcher_client, consenting_player):
    game = play(GameFactory.create(player=consenting_player, size=4, seed=3), moves=6)
    rows = export(researcher_client, "moves")
    assert [int(row["index"]) for row in rows] == list(range(1, game.moves_count + 1))


def test_head_gives_the_headers_without_running_the_export(researcher_client, short_game,
                                                           monkeypatch):
    _fail_midway(monkeypatch, after_chunks=0)  # any row read would fail
    response = researcher_client.head(URL.format("moves"), {"size": "5"})
    assert response.status_code == 200
    assert 'filename="decodoku-moves.csv"' in response["Content-Disposition"]
    assert b"".join(response.streaming_content) == b""
    assert researcher_client.head(URL.format("moves"), {"size": "1"}).status_code == 400
