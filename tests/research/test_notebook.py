"""The documented pandas one-liners load a live export with the codebook's types."""

from __future__ import annotations

import io

import pandas as pd
from django.conf import settings
from django.test import Client

from games.models import Game
from research.exports.notebook import pandas_csv_line, pandas_dates, pandas_dtypes
from research.exports.tables import all_tables
from tests.factories import GameFactory, play
from tests.research.conftest import body_of


def test_the_csv_and_the_parquet_load_into_the_same_frame(
    researcher_client: Client, consenting_player: object
) -> None:
    games: list[Game] = [
        play(GameFactory.create(player=consenting_player, seed=7)),
        play(GameFactory.create(player=consenting_player, seed=11, size=5), moves=3),
    ]
    assert games
    table = all_tables()["noise_errors"]
    csv_body = body_of(researcher_client.get("/research/export/noise_errors.csv"))
    parquet_body = body_of(researcher_client.get("/research/export/noise_errors.parquet"))
    from_csv = pd.read_csv(
        io.BytesIO(csv_body), dtype=pandas_dtypes(table), parse_dates=pandas_dates(table)
    )
    from_parquet = pd.read_parquet(io.BytesIO(parquet_body))
    assert len(from_csv) > 10
    assert list(from_csv.columns) == [column.name for column in table.columns]
    for name in pandas_dates(table):
        assert str(from_csv[name].dt.tz) == "UTC"
    pd.testing.assert_frame_equal(
        from_csv, from_parquet.astype(pandas_dtypes(table)), check_datetimelike_compat=True
    )


def test_the_documentation_gives_todays_one_liner_of_every_table() -> None:
    text = (settings.BASE_DIR / "docs" / "research-data.md").read_text(encoding="utf-8")
    for name, table in all_tables().items():
        base = f'"https://decodoku.example.org/research/export/{name}'
        assert pandas_csv_line(table, url=f'{base}.csv", storage_options=auth') in text, name
        assert f'pd.read_parquet({base}.parquet", storage_options=auth)' in text, name
