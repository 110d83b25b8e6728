"""Parquet downloads: the same rows, columns and filters as the CSV, typed as the codebook says."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, datetime
from typing import Any

import pyarrow.parquet as pq
import pytest
from django.test import Client

from games.models import Game
from research.exports.columns import FORMULA_GUARD, FORMULA_STARTS, ColumnType
from research.exports.parquet import parquet_chunks
from research.exports.tables import all_tables
from research.selectors import export_filters, export_rows
from tests.factories import GameFactory, play
from tests.research.conftest import body_of, csv_rows


def typed(kind: ColumnType, cell: str) -> Any:
    """A CSV cell as the value the codebook's type names (an empty cell is no value)."""
    if cell == "":
        return None
    if kind is ColumnType.INTEGER:
        return int(cell)
    if kind is ColumnType.FLOAT:
        return float(cell)
    if kind is ColumnType.BOOLEAN:
        return {"true": True, "false": False}[cell]
    if kind is ColumnType.DATETIME:
        return datetime.strptime(cell, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    if kind is ColumnType.UUID:
        return str(uuid.UUID(cell))
    if kind is ColumnType.STRING and cell.startswith(FORMULA_GUARD) and cell[1:].startswith(
        FORMULA_STARTS
    ):
        return cell[1:]
    return cell


def csv_as_typed(client: Client, table: str, query: str) -> list[dict[str, Any]]:
    response = client.get(f"/research/export/{table}.csv{query}")
    assert response.status_code == 200
    kinds = {column.name: column.type for column in all_tables()[table].columns}
    return [{name: typed(kinds[name], cell) for name, cell in row.items()}
            for row in csv_rows(body_of(response))]


def parquet_of(client: Client, table: str, query: str) -> Any:
    response = client.get(f"/research/export/{table}.parquet{query}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/vnd.apache.parquet"
    assert response["Content-Disposition"] == f'attachment; filename="decodoku-{table}.parquet"'
    return pq.read_table(io.BytesIO(body_of(response)))


@pytest.fixture
def games(consenting_player) -> list[Game]:
    return [
        play(GameFactory.create(player=consenting_player, seed=7)),
        play(GameFactory.create(player=consenting_player, seed=11, size=5), moves=3),
        play(GameFactory.create(player=consenting_player, seed=12, size=5), moves=5),
    ]


@pytest.mark.parametrize("query", ["", "?size=5", "?size=5&status=lost", "?size=9"])
def test_noise_errors_in_parquet_equal_the_csv_row_for_row(
    researcher_client: Client, games: list[Game], query: str
) -> None:
    expected = csv_as_typed(researcher_client, "noise_errors", query)
    parquet = parquet_of(researcher_client, "noise_errors", query)
    assert parquet.column_names == [c.name for c in all_tables()["noise_errors"].columns]
    assert parquet.to_pylist() == expected
    if query == "":
        assert len(expected) > 10  # the games are noisy: the comparison covers real rows


@pytest.mark.parametrize("table", sorted(all_tables()))
def test_every_table_downloads_as_parquet_with_the_codebook_columns(
    researcher_client: Client, games: list[Game], table: str
) -> None:
    parquet = parquet_of(researcher_client, table, "")
    columns = all_tables()[table].columns
    assert parquet.column_names == [column.name for column in columns]
    assert parquet.to_pylist() == csv_as_typed(researcher_client, table, "")


def test_rows_are_written_one_row_group_at_a_time(games: list[Game]) -> None:
    table = all_tables()["noise_errors"]
    filters = export_filters(table=table, params={})
    chunks = parquet_chunks(table=table, queryset=export_rows(table=table, filters=filters),
                            rows_per_group=4)
    first = next(chunks)  # a row group is handed on before the rest is read
    assert first.startswith(b"PAR1")
    rest = list(chunks)
    data = first + b"".join(rest)
    metadata = pq.ParquetFile(io.BytesIO(data)).metadata
    assert metadata.num_row_groups == len(rest) == -(-metadata.num_rows // 4)
    assert metadata.num_rows > 8


def test_bad_filters_keep_the_json_error_body(researcher_client: Client, db: object) -> None:
    response = researcher_client.get("/research/export/noise_errors.parquet?size=99")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "size"
    response = researcher_client.get("/research/export/noise_errors.parquet?gzip=1")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "gzip"
    assert researcher_client.get("/research/export/nope.parquet").status_code == 404


def test_an_empty_selection_is_a_readable_file_with_the_columns(
    researcher_client: Client, db: object
) -> None:
    parquet = parquet_of(researcher_client, "noise_errors", "")
    assert parquet.num_rows == 0
    assert parquet.column_names == [c.name for c in all_tables()["noise_errors"].columns]
