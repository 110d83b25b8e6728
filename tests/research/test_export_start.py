"""An export that cannot run its query answers 503 before its download begins.

The first chunk of an export (header and the first rows) is read before the response
starts, so a table locked for longer than the database's lock_timeout, or a database
that cannot be reached, gives the site's usual 503 with Retry-After instead of a 200
whose download breaks off. On SQLite the failing fetch is simulated; on PostgreSQL a
second connection really holds the lock.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from django.db import OperationalError
from django.db.models.query import QuerySet

from decodoku_site.errors import RETRY_AFTER_SECONDS
from games.models import Game
from games.services.play import game_abandon
from tests.factories import GameFactory
from tests.results.analysis.test_worker import _database_url


def ended_game() -> Game:
    """A game the exports hold (they hold ended games)."""
    game = GameFactory.create()
    return game_abandon(game_id=game.pk, player=game.player)


def _assert_503_before_streaming(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert not response.streaming


@pytest.fixture
def first_fetch_fails(monkeypatch) -> None:
    """Every query iterated in chunks fails at its first fetch, as under a lock time-out."""

    def failing(self: QuerySet, chunk_size: int | None = None) -> Iterator[object]:
        raise OperationalError("canceling statement due to lock timeout")
        yield  # a generator, as QuerySet.iterator is: it fails when first read

    monkeypatch.setattr(QuerySet, "iterator", failing)


@pytest.mark.parametrize("path", ["games.csv", "games.csv?gzip=1", "moves.parquet"])
def test_an_export_whose_first_fetch_fails_answers_503_not_a_broken_200(
    researcher_client, first_fetch_fails, path
):
    ended_game()
    _assert_503_before_streaming(researcher_client.get(f"/research/export/{path}"))


def test_a_head_request_runs_no_export_query(researcher_client, first_fetch_fails):
    response = researcher_client.head("/research/export/games.csv")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b""
    response.close()  # as the server does: the export slot is given back


def test_an_export_still_streams_every_row_after_its_first_chunk_was_read(researcher_client):
    for _ in range(3):
        ended_game()
    response = researcher_client.get("/research/export/games.csv")
    assert response.status_code == 200
    assert response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 1 + 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_export_of_a_locked_table_answers_503_before_streaming(researcher_client):
    ended_game()
    with psycopg.connect(_database_url().replace("postgres://", "postgresql://", 1)) as holder:
        holder.execute("LOCK TABLE games_game IN ACCESS EXCLUSIVE MODE")
        try:
            response = researcher_client.get("/research/export/games.csv")
        finally:
            holder.rollback()
    _assert_503_before_streaming(response)
