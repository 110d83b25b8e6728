"""Research data and the daily challenge: daily games are marked, display names never appear."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.daily import today
from games.models import DailyChallenge, Game
from games.services import game_abandon, game_start, player_set_display_name
from games.services.daily import daily_challenge_get_or_create, daily_start
from research.exports.tables import all_tables
from tests.factories import GameFactory, PlayerFactory, play
from tests.research.conftest import body_of, csv_rows

pytestmark = pytest.mark.django_db
NAME = "Quillon Zed"


@pytest.fixture
def named_player_games(db) -> dict[str, Game]:
    """A consenting player with a display name: an ordinary game, today's and yesterday's daily."""
    player = PlayerFactory.create()
    player_set_display_name(player=player, display_name=NAME)
    ordinary = play(GameFactory.create(player=player, seed=7), moves=6)
    ordinary = game_abandon(game_id=ordinary.pk, player=player)  # exports hold ended games
    open_day = daily_start(player=player)
    open_day = game_abandon(game_id=play(open_day, moves=3).pk, player=player)
    closed = daily_challenge_get_or_create(day=today() - timedelta(days=1))
    closed_game = play(game_start(player=player, rules=closed.rules, daily=closed), moves=4)
    closed_game = game_abandon(game_id=closed_game.pk, player=player)
    return {"ordinary": ordinary, "open": open_day, "closed": closed_game}


def test_no_export_table_holds_a_display_name(researcher_client, named_player_games):
    for name, table in all_tables().items():
        params = (
            {"include_excluded": "true", "include_practice": "1"}
            if table.game_path is not None else {}
        )
        for suffix in ("csv", "parquet"):
            response = researcher_client.get(f"/research/export/{name}.{suffix}", params)
            assert response.status_code == 200, (name, suffix)
            body = body_of(response) if response.streaming else response.content
            assert NAME.lower().encode() not in body.lower(), (name, suffix)
        columns = table.columns
        assert not any("display" in column.name or "name_key" in column.name
                       for column in columns), name
        assert not any(isinstance(column.source, str) and "display_name" in column.source
                       for column in columns), name
    games = csv_rows(body_of(researcher_client.get("/research/export/games.csv")))
    # The named player's games are in the export, without the name (the open day's
    # game waits for its day to end).
    assert len(games) == 2


def test_the_codebook_never_mentions_a_display_name_column(researcher_client):
    book = researcher_client.get("/research/codebook.json").json()
    names = {column["name"] for table in book["tables"] for column in table["columns"]}
    assert not any("display" in name for name in names)
    assert "display_name" not in str(book)


def test_the_games_export_marks_daily_games_and_hides_an_open_days_seed(
    researcher_client, named_player_games
):
    rows = {
        row["game_id"]: row
        for row in csv_rows(body_of(researcher_client.get("/research/export/games.csv")))
    }
    ordinary, open_day, closed = (
        named_player_games["ordinary"], named_player_games["open"], named_player_games["closed"]
    )
    assert rows[str(ordinary.pk)]["daily_date"] == ""
    assert rows[str(closed.pk)]["daily_date"] == (today() - timedelta(days=1)).isoformat()
    assert rows[str(closed.pk)]["seed"] == str(closed.seed)
    # The open day's game has ended, yet its rows (its noise is everyone's noise today)
    # wait for the day to end; its seed stays hidden for as long.
    assert open_day.status == Game.Status.ABANDONED
    assert str(open_day.pk) not in rows
    DailyChallenge.every_day.filter(pk=open_day.daily_id).update(date=today() - timedelta(days=2))
    rows = {
        row["game_id"]: row
        for row in csv_rows(body_of(researcher_client.get("/research/export/games.csv")))
    }
    assert rows[str(open_day.pk)]["seed"] == str(open_day.seed)


def test_the_codebook_documents_the_daily_column(researcher_client):
    book = researcher_client.get("/research/codebook.json").json()
    [games] = [table for table in book["tables"] if table["name"] == "games"]
    [column] = [column for column in games["columns"] if column["name"] == "daily_date"]
    assert "daily challenge" in column["meaning"]


@pytest.mark.postgres
def test_copy_and_portable_paths_agree_on_daily_games(named_player_games):
    from research.exports import writer
    from research.exports.filters import filtered_queryset, parse_filters

    table = all_tables()["games"]
    queryset = filtered_queryset(table=table, filters=parse_filters({}, table=table))
    portable = b"".join(writer.portable_chunks(table=table, queryset=queryset))
    fast = b"".join(writer.copy_chunks(table=table, queryset=queryset))
    assert portable == fast
    rows = {row["game_id"]: row for row in csv_rows(fast)}
    assert str(named_player_games["open"].pk) not in rows
    assert rows[str(named_player_games["closed"].pk)]["seed"] == str(
        named_player_games["closed"].seed
    )
