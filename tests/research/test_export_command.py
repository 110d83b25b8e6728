"""``manage.py export_csv``: the same exports from the command line."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.management import CommandError, call_command

from core.pseudonyms import pseudonym
from research.exports import writer
from research.exports.columns import FORMATTERS, ColumnType
from tests.research.conftest import body_of, csv_rows, finish


def test_it_writes_the_same_bytes_as_the_download(researcher_client, lost_game, tmp_path):
    out = tmp_path / "moves.csv"
    call_command("export_csv", "moves", "--out", str(out), "--no-progress")
    assert out.read_bytes() == body_of(researcher_client.get("/research/export/moves.csv"))
    assert not (tmp_path / "moves.csv.partial").exists()


def test_filters_are_options(researcher_client, lost_game, short_game, tmp_path):
    finish(short_game)  # exports hold finished games only
    out = tmp_path / "games.csv.gz"
    call_command(
        "export_csv", "games", "--out", str(out), "--size", "5",
        "--player", pseudonym(short_game.player_id), "--gzip", "--no-progress",
        "--codebook", str(tmp_path / "codebook.json"),
    )
    rows = csv_rows(gzip.decompress(out.read_bytes()))
    assert [row["game_id"] for row in rows] == [str(short_game.pk)]
    book = json.loads((tmp_path / "codebook.json").read_text())
    assert any(table["name"] == "games" for table in book["tables"])


def test_incremental_pull_and_flags(lost_game, tmp_path):
    every = tmp_path / "all.csv"
    call_command("export_csv", "noise_errors", "--out", str(every), "--no-progress",
                 "--include-excluded", "--include-practice")
    rows = csv_rows(every.read_bytes())
    later = tmp_path / "later.csv"
    call_command("export_csv", "noise_errors", "--out", str(later), "--no-progress",
                 "--after-id", rows[4]["event_id"])
    assert csv_rows(later.read_bytes()) == rows[5:]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["games", "--size", "99"], "--size"),
        (["games", "--variant", "x"], "--variant"),
        (["games", "--after-id", "3"], "--after-id"),
        (["games", "--date-from", "soon"], "--date-from"),
        (["nothing"], "TABLE"),
    ],
)
def test_bad_options_are_named_in_a_clear_error(db, tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("export_csv", *args, "--out", str(tmp_path / "x.csv"), "--no-progress")
    assert not (tmp_path / "x.csv").exists()


def test_a_failed_export_keeps_only_a_partial_file_ending_with_the_marker(
    lost_game, tmp_path, monkeypatch
):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 256)
    original = FORMATTERS[ColumnType.INTEGER]
    calls = {"n": 0}

    def fail(value):
        calls["n"] += 1
        if calls["n"] > 200:
            raise RuntimeError("disk on fire")
        return original(value)

    monkeypatch.setitem(FORMATTERS, ColumnType.INTEGER, fail)
    out = tmp_path / "noise.csv"
    with pytest.raises(CommandError, match="incomplete file is kept"):
        call_command("export_csv", "noise_errors", "--out", str(out), "--portable",
                     "--no-progress")
    assert not out.exists()
    partial = (tmp_path / "noise.csv.partial").read_text().splitlines()
    assert partial[-1].startswith(writer.FAILURE_MARKER)
    assert len(partial) > 2


def test_the_progress_bar_counts_rows(lost_game, tmp_path, capsys):
    call_command("export_csv", "boards", "--out", str(tmp_path / "b.csv"))
    err = capsys.readouterr().err
    assert f"{lost_game.moves_count + 2}/{lost_game.moves_count + 2}" in err
    assert f"boards: {lost_game.moves_count + 1} rows written" in err
