"""The time an upload may take holds where the time is spent, and for a whole request.

- openpyxl parses XML between the importer's own checks: opening a workbook
  parses every sheet that lacks its dimension, and a sheet's XML after its
  last row is parsed before the sheet's rows end. Every part is now read
  through a reader that checks the deadline before each 16 KiB it hands over.
- The web page's request of many files shares one time budget: the files
  after it is spent are refused unread, each with its own message.
- Each file of a request counts against the upload rate.

The workbooks are built here, small but of many sheets; the deadlines are
switched or clocks moved by the tests, so nothing depends on the machine's speed.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from openpyxl import Workbook

import games.engine.legacy.collection as collection
import games.services.uploads as uploads_service
from core.sessions import PLAYER_SESSION_KEY
from games.engine.legacy.collection import PART_CHUNK, ArchiveLimits, Budget, workbook_sheets
from games.engine.legacy.errors import Deadline, LegacyTimeout
from games.models import BoardSnapshot, Game, Player

pytestmark = pytest.mark.django_db

SAVES = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves"


def _workbook_without_dimensions(sheets: int, rows: int, columns: int = 12) -> bytes:
    """A workbook of ``sheets`` sheets of numbers whose XML names no dimension, so
    that opening it makes openpyxl parse every sheet to find its size."""
    book = Workbook()
    book.remove(book.active)
    for index in range(sheets):
        sheet = book.create_sheet(f"S{index}")
        for row in range(rows):
            sheet.append([row * columns + column for column in range(columns)])
    written = io.BytesIO()
    book.save(written)
    source = zipfile.ZipFile(io.BytesIO(written.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            part = source.read(info)
            if info.filename.startswith("xl/worksheets/"):
                part = re.sub(rb"<dimension[^>]*/>", b"", part)
            target.writestr(info.filename, part)
    return out.getvalue()


class SwitchedDeadline(Deadline):
    """A deadline that passes when the test says so."""

    __slots__ = ("over",)

    def __init__(self) -> None:
        super().__init__()
        self.over = False

    def passed(self) -> bool:
        return self.over


def test_opening_a_workbook_stops_within_a_chunk_once_the_time_is_spent(monkeypatch):
    book = _workbook_without_dimensions(sheets=12, rows=300)
    deadline = SwitchedDeadline()
    package = collection._values_package
    read_after = [0]
    unpack = zipfile.ZipExtFile.read

    def values_then_time_spent(*args: Any, **kwargs: Any) -> bytes:
        # The parts are unpacked and checked; the time runs out as openpyxl starts.
        kept = package(*args, **kwargs)
        deadline.over = True
        return kept

    def counted(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        data = unpack(self, n)
        if deadline.over:
            read_after[0] += len(data)
        return data

    monkeypatch.setattr(collection, "_values_package", values_then_time_spent)
    monkeypatch.setattr(zipfile.ZipExtFile, "read", counted)
    budget = Budget(ArchiveLimits(), deadline=deadline)
    with pytest.raises(LegacyTimeout):
        list(workbook_sheets(book, "book.xlsx", budget))
    # Before, openpyxl parsed all twelve sheets (over a megabyte of XML) unchecked.
    assert read_after[0] <= PART_CHUNK


def test_a_workbook_of_many_sheets_is_read_whole_while_the_time_lasts():
    book = _workbook_without_dimensions(sheets=4, rows=20, columns=3)
    budget = Budget(ArchiveLimits(), deadline=Deadline.after(seconds=600, cpu_seconds=600))
    entries = list(workbook_sheets(book, "book.xlsx", budget))
    assert [entry.name for entry in entries] == [f"book.xlsx[S{k}]" for k in range(4)]
    first_lines = entries[0].data.decode().splitlines()
    assert first_lines[:2] == ["0,1,2", "3,4,5"]
    assert len(first_lines) == 20


# -- the web page: one budget per request --------------------------------------------------


def _browser_of(player: Player) -> Client:
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    return browser


def _files(*names: str) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(name, (SAVES / name).read_bytes()) for name in names]


class ProcessorClock:
    """``time.thread_time`` as the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=600, DECODOKU_UPLOAD_CPU_SECONDS=3.0)
def test_the_files_of_one_request_share_one_budget_and_the_rest_are_refused_unread(
    player, monkeypatch
):
    clock = ProcessorClock()
    monkeypatch.setattr(time, "thread_time", clock)
    import_one = uploads_service.legacy_import

    def two_seconds_each(**kwargs: Any) -> Any:
        result = import_one(**kwargs)
        clock.now += 2.0  # each file spends 2 s of the request's 3
        return result

    monkeypatch.setattr(uploads_service, "legacy_import", two_seconds_each)
    names = ("Z10_normal_475.csv", "Z10_normal_480.csv", "PL_normal_205.csv")
    page = _browser_of(player).post("/me/uploads/", {"files": _files(*names)})
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('data-outcome="imported"') == 2
    assert "Not read: the files before it used up the time one upload may take" in html
    stored = Game.objects.filter(player=player)
    assert sorted(stored.values_list("legacy_filename", flat=True)) == sorted(names[:2])
    assert not BoardSnapshot.objects.exclude(game__in=stored).exists()


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=600, DECODOKU_UPLOAD_CPU_SECONDS=3.0)
def test_an_archive_after_the_budget_is_spent_is_refused_whole(player, monkeypatch):
    clock = ProcessorClock()
    monkeypatch.setattr(time, "thread_time", clock)
    import_one = uploads_service.legacy_import

    def four_seconds(**kwargs: Any) -> Any:
        result = import_one(**kwargs)
        clock.now += 4.0
        return result

    monkeypatch.setattr(uploads_service, "legacy_import", four_seconds)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("a.csv", (SAVES / "PL_normal_205.csv").read_bytes())
    files = [*_files("Z10_normal_475.csv"), SimpleUploadedFile("more.zip", archive.getvalue())]
    page = _browser_of(player).post("/me/uploads/", {"files": files})
    html = page.content.decode()
    assert html.count('data-outcome="imported"') == 1
    assert "Not read" in html
    assert Game.objects.filter(player=player).count() == 1


# -- the web page: each file is an upload for the rate limit ---------------------------------


def _upload_rate(rate: str) -> Any:
    framework: dict[str, Any] = dict(settings.REST_FRAMEWORK)
    rates = {**framework["DEFAULT_THROTTLE_RATES"], "upload": rate}
    return override_settings(REST_FRAMEWORK={**framework, "DEFAULT_THROTTLE_RATES": rates})


def test_each_file_of_a_request_counts_against_the_upload_rate(player):
    browser = _browser_of(player)
    with _upload_rate("3/hour"):
        first = browser.post("/me/uploads/", {"files": _files("Z10_normal_475.csv",
                                                               "Z10_normal_480.csv")})
        assert first.status_code == 200
        second = browser.post("/me/uploads/", {"files": _files("PL_normal_205.csv",
                                                                "PL_normal_321.csv")})
    assert second.status_code == 429
    assert "Nothing was imported" in second.content.decode()
    assert Game.objects.filter(player=player).count() == 2


def test_a_request_of_more_files_than_the_rate_allows_is_refused_whole(player):
    with _upload_rate("2/hour"):
        page = _browser_of(player).post(
            "/me/uploads/",
            {"files": _files("Z10_normal_475.csv", "Z10_normal_480.csv", "PL_normal_205.csv")},
        )
    assert page.status_code == 429
    assert not Game.objects.exists()
