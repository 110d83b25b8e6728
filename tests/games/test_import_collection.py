"""import_legacy on a whole collection: folders, zips, a workbook and notes, each game once."""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from games.engine.legacy.collection import (
    ArchiveLimits,
    ArchiveRefused,
    Entry,
    archive_entries,
    expand,
)
from games.models import Game
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

# The played games of the samples, with the score the published collection names each by.
REAL_GAMES = {
    "Z10_normal_475.csv": 475, "Z10_normal_480.csv": 480, "PL_normal_205.csv": 205,
    "PL_normal_321.csv": 321, "PL_annotated_336.csv": 336, "PL_hard_219.csv": 219,
    "colors/181_quantum_jim.csv": 181, "colors/221_justacae.csv": 221,
    "colors/306_xcombelle_explained.csv": 306, "colors/361_aeshe1988.csv": 361,
}
ILLUSTRATIONS = ["ReadMeWithExcel.csv", "colors/ReadMeWithExcel.csv"]  # not played games


def _workbook_from(csv_path: Path, target: Path) -> None:
    """The save typed into a workbook as a spreadsheet would hold it (numbers as numbers)."""
    book = Workbook()
    sheet = book.active
    sheet.title = "Game"
    text = csv_path.read_bytes().decode("utf-8")
    for row in csv.reader(io.StringIO(text, newline="")):
        sheet.append([int(v) if v.isdigit() else (v or None) for v in row])
    notes = book.create_sheet("Notes")
    notes.append(["Strategy write-up: https://example.org/decodoku/strategy"])
    book.save(target)


def _zip(target: Path, names: list[str]) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.write(SAVES / name, f"saves/{Path(name).name}")
            archive.writestr(f"__MACOSX/saves/._{Path(name).name}", b"\x00\x05\x16\x07junk")
        archive.writestr("saves/._hidden.csv", b"\x00\x05\x16\x07")


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    root = tmp_path / "player-results"
    shutil.copytree(SAVES, root, ignore=shutil.ignore_patterns("*.md"))
    (root / "archives").mkdir()
    _zip(root / "archives" / "z10.zip", ["Z10_normal_475.csv", "PL_hard_219.csv"])
    _zip(root / "archives" / "colors.zip", ["colors/221_justacae.csv"])
    _workbook_from(SAVES / "colors" / "361_aeshe1988.csv", root / "archives" / "361.xlsx")
    (root / "strategy.txt").write_text(
        "How I play: see https://www.reddit.com/r/decodoku/ and https://example.org/x\n"
    )
    return root


def test_a_collection_imports_each_game_once_and_reports_the_rest(collection: Path):
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_legacy", str(collection), stdout=out)
    text = out.getvalue()
    summary = "10 imported, 4 already imported, 2 not save files, 2 invalid"
    assert str(caught.value) == summary
    assert text.splitlines()[-1] == summary
    assert Game.objects.count() == len(REAL_GAMES)
    scores = sorted(Game.objects.values_list("score", flat=True))
    assert scores == sorted(REAL_GAMES.values())
    lines = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in text.splitlines()
             if ": " in line and not line.startswith("importing")}
    # The workbook and the CSV hold the same game: whichever comes first is imported.
    pair = sorted(lines[name].split(" as game")[0] for name in (
        f"{collection}/archives/361.xlsx[Game]", f"{collection}/colors/361_aeshe1988.csv"))
    assert pair == ["already imported", "imported"]
    assert lines[f"{collection}/archives/361.xlsx[Notes]"].startswith(
        "not a save file: a note with links")
    assert lines[f"{collection}/strategy.txt"].startswith("not a save file: a note with links")
    assert lines[f"{collection}/archives/z10.zip/saves/PL_hard_219.csv"].startswith(
        "already imported")
    assert not any("MACOSX" in name or "/._" in name for name in lines)
    for name in ILLUSTRATIONS:
        assert lines[f"{collection}/{name}"].startswith("REFUSED (save_breaks_rules")
    # verify_games replays every imported game from its stored boards.
    verified = StringIO()
    call_command("verify_games", stdout=verified)
    assert f"{len(REAL_GAMES)} games checked" in verified.getvalue()
    assert f"{len(REAL_GAMES)} match, 0 do not" in verified.getvalue()

    again = StringIO()
    with pytest.raises(CommandError):
        call_command("import_legacy", str(collection), stdout=again)
    assert again.getvalue().splitlines()[-1] == (
        "0 imported, 14 already imported, 2 not save files, 2 invalid")
    assert Game.objects.count() == len(REAL_GAMES)


def test_a_source_is_stored_and_can_mark_the_games_consented(tmp_path: Path):
    shutil.copy(SAVES / "Z10_normal_480.csv", tmp_path / "a.csv")
    call_command("import_legacy", str(tmp_path), "--source-name", "Decodoku player results",
                 "--source-url", "https://example.org/decodoku", "--consented-for-research",
                 stdout=StringIO())
    game = Game.objects.get()
    assert (game.source_name, game.source_url) == (
        "Decodoku player results", "https://example.org/decodoku")
    assert game.research_consent


def test_without_a_source_consent_stays_the_players(tmp_path: Path):
    shutil.copy(SAVES / "Z10_normal_480.csv", tmp_path / "a.csv")
    call_command("import_legacy", str(tmp_path), stdout=StringIO())
    game = Game.objects.get()
    assert (game.source_name, game.research_consent) == ("", False)
    with pytest.raises(CommandError, match="needs --source-name"):
        call_command("import_legacy", str(tmp_path), "--consented-for-research",
                     stdout=StringIO())


def _bomb(entries: int, size: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for k in range(entries):
            archive.writestr(f"f{k}.csv", b"0" * size)
    return buffer.getvalue()


def test_an_archive_beyond_the_limits_is_refused_before_unpacking():
    limits = ArchiveLimits(max_entries=5, max_entry_bytes=1000, max_total_bytes=3000)
    with pytest.raises(ArchiveRefused, match="at most 5"):
        archive_entries(_bomb(6, 10), "many.zip", limits)
    with pytest.raises(ArchiveRefused, match="per file"):
        archive_entries(_bomb(1, 2000), "big.zip", limits)
    with pytest.raises(ArchiveRefused, match="unpacks to 4000 bytes"):
        archive_entries(_bomb(4, 1000), "total.zip", limits)
    with pytest.raises(ArchiveRefused, match="not a readable zip"):
        archive_entries(b"PK\x03\x04 broken", "broken.zip", limits)
    refused = list(expand(Entry("big.zip", "save", _bomb(1, 2000)), limits))
    assert [e.kind for e in refused] == ["unreadable"]
