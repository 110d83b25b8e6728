"""The documented pandas one-liners load a live export with the codebook's types."""

from __future__ import annotations

import csv
import io
import re

import pandas as pd
from django.conf import settings
from django.test import Client

from games.models import Game
from research.exports.columns import ColumnType
from research.exports.notebook import pandas_csv_line, pandas_dates, pandas_dtypes, r_csv_lines
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


R_LINE = re.compile(
    r'^(\w+) <- read\.csv\(url\("([^"]+)", headers = auth\), '
    r'colClasses = c\((.*)\), na\.strings = ""\)$'
)
R_PAIR = re.compile(r'"(\w+)" = "(\w+)"')
R_TYPES = {
    # What R's read.csv makes of each codebook type's cell text (documented in research-data.md).
    ColumnType.INTEGER: {"numeric"},
    ColumnType.FLOAT: {"numeric"},
    ColumnType.STRING: {"character"},
    ColumnType.BOOLEAN: {"logical"},
    ColumnType.DATETIME: {"character"},  # converted by the second line
    ColumnType.UUID: {"character"},
    ColumnType.PSEUDONYM: {"character"},
}


def documented_r_lines() -> dict[str, list[str]]:
    """The R block of research-data.md: each table's lines, by table name."""
    text = (settings.BASE_DIR / "docs" / "research-data.md").read_text(encoding="utf-8")
    block = text.split("```r\n", 1)[1].split("```", 1)[0]
    lines: dict[str, list[str]] = {}
    current = ""
    for line in block.splitlines():
        if line.startswith("# "):
            current = line[2:]
            lines[current] = []
        elif current:
            lines[current].append(line)
    return lines


def test_the_documentation_gives_todays_r_lines_of_every_table() -> None:
    documented = documented_r_lines()
    assert list(documented) == list(all_tables())
    for name, table in all_tables().items():
        url = f'url("https://decodoku.example.org/research/export/{name}.csv", headers = auth)'
        assert documented[name] == r_csv_lines(table, url=url, name=name), name


def test_the_r_col_classes_follow_the_codebook_types() -> None:
    for name, lines in documented_r_lines().items():
        table = all_tables()[name]
        match = R_LINE.match(lines[0])
        assert match is not None, lines[0]
        assert match.group(1) == name
        assert match.group(2).endswith(f"/research/export/{name}.csv")
        classes = dict(R_PAIR.findall(match.group(3)))
        assert list(classes) == [column.name for column in table.columns], name
        for column in table.columns:
            if column.type is ColumnType.INTEGER and column.name in ("seed", "sweep_seed"):
                # 64-bit seeds: a double would round them, R's integer would make them NA.
                assert classes[column.name] == "character", (name, column.name)
            else:
                assert classes[column.name] in R_TYPES[column.type], (name, column.name)
        times = [column.name for column in table.columns if column.type is ColumnType.DATETIME]
        if times:
            assert len(lines) == 2
            vector = "c(" + ", ".join(f'"{time}"' for time in times) + ")"
            assert lines[1].startswith(f"{name}[{vector}] <- lapply({name}[{vector}], as.POSIXct")
            assert 'format = "%Y-%m-%dT%H:%M:%OSZ", tz = "UTC"' in lines[1]
        else:
            assert len(lines) == 1


def test_the_r_column_names_are_a_live_exports_header(
    researcher_client: Client, lost_game: Game
) -> None:
    for name in ("games", "noise_errors", "moves", "players"):
        body = body_of(researcher_client.get(f"/research/export/{name}.csv"))
        header = next(csv.reader(io.StringIO(body.decode())))
        match = R_LINE.match(documented_r_lines()[name][0])
        assert match is not None
        assert [pair[0] for pair in R_PAIR.findall(match.group(3))] == header, name
