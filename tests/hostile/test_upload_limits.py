"""Uploads that hold far more than they weigh: refused whole and early, nothing stored.

Each case replays a report against the upload endpoint: nested zips of
highly compressible files (a 10 KB zip holding 16 zips of 24 files of 2 MiB
used to take about a minute and 800 MiB), a workbook of 2,000,000 rows in a
zip, a workbook uploaded on its own (it used to be read as a zip of XML
parts), archives nested deep, a file of line breaks, an upload whose files
outlast its time. Every limit holds for the whole upload, archives inside
archives included. The uploads are built here, in memory
(``bench/upload_limits.py`` builds the same ones and measures their
processor time and memory); the tests check the answer, that nothing was
stored, and that the work stopped early: the bytes unpacked and the files
read.
"""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from rest_framework.test import APIClient

import games.services.legacy.reading as legacy_reading
from bench.upload_limits import (
    MIB,
    huge_workbook,
    many_entries,
    nested_zips,
    plain_save,
    sample_workbook,
    styles_workbook,
    zip_of,
)
from games.models import BoardSnapshot, Event, Game
from tests.factories import PlayerFactory, api_token
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

URL = "/api/v1/imports/"


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(PlayerFactory.create())}")
    return client


@dataclass
class Work:
    """What an upload made the server do: bytes unpacked, parts opened, files read."""

    unpacked: int = 0
    opened: list[str] = field(default_factory=list)
    read: int = 0

    def reset(self) -> None:
        """Forget what building the upload did: count only what the server does."""
        self.unpacked, self.opened, self.read = 0, [], 0


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Work:
    seen = Work()
    unpack = zipfile.ZipExtFile.read
    open_part = zipfile.ZipFile.open
    read_save = legacy_reading.read_save

    def counted_unpack(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        data = unpack(self, n)
        seen.unpacked += len(data)
        return data

    def counted_open(self: zipfile.ZipFile, name: Any, *args: Any, **kwargs: Any) -> Any:
        handle = open_part(self, name, *args, **kwargs)  # a part that is not there: KeyError
        seen.opened.append(name if isinstance(name, str) else name.filename)
        return handle

    def counted_read(*args: Any, **kwargs: Any) -> Any:
        seen.read += 1
        return read_save(*args, **kwargs)

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counted_unpack)
    monkeypatch.setattr(zipfile.ZipFile, "open", counted_open)
    monkeypatch.setattr(legacy_reading, "read_save", counted_read)
    return seen


def _post(api: APIClient, data: bytes, name: str, work: Work | None = None) -> Any:
    upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    if work is not None:
        work.reset()
    return api.post(URL, {"file": upload}, format="multipart")


def _nothing_stored() -> None:
    assert not Game.objects.exists()
    assert not Event.objects.exists()
    assert not BoardSnapshot.objects.exists()


def _refused(response: Any, reason: str) -> dict[str, Any]:
    assert response.status_code == 422, response.content[:500]
    error = response.json()["error"]
    assert (error["code"], error["reason"]) == ("upload_limit", reason), error
    _nothing_stored()
    return error


def _zip(files: dict[str, bytes]) -> bytes:
    return zip_of(files.items())


# -- nested archives: the limits hold for the whole upload ---------------------------------


def test_nested_zips_of_compressible_files_are_refused_before_their_files_are_unpacked(
    api: APIClient, work: Work
) -> None:
    bomb = nested_zips(copies=16, files=24, size=2 * MIB)
    assert len(bomb) < 12_000  # 16 x 24 x 2 MiB = 768 MiB unpacked
    error = _refused(_post(api, bomb, "bomb.zip", work), "ratio")
    assert error["limit"] == 100
    inner = zipfile.ZipFile(io.BytesIO(bomb)).infolist()[0].file_size
    assert work.unpacked <= inner  # the first inner zip, and none of the files in it
    assert work.read == 0


def test_two_hundred_nested_zips_are_refused_at_the_upload_s_file_count(
    api: APIClient, work: Work
) -> None:
    bomb = nested_zips(copies=200, files=24, size=2 * MIB)
    assert len(bomb) < 130_000  # would unpack to 9.4 GiB
    error = _refused(_post(api, bomb, "bomb.zip", work), "entries")
    assert error["limit"] == 200
    assert "224 files in the upload's archives" in error["message"]
    assert work.read == 0


@override_settings(DECODOKU_UPLOAD_ZIP_MAX_FILES=5)
def test_the_file_limit_counts_the_files_of_every_archive_inside(
    api: APIClient, work: Work
) -> None:
    save = (SAVES / "Z10_normal_480.csv").read_bytes()
    # 4 zips of one file each: 8 files in all, each archive alone within 5.
    upload = _zip({"a.zip": _zip({"a.csv": save}), "b.zip": _zip({"b.txt": b"b"}),
                   "c.zip": _zip({"c.txt": b"c"}), "d.zip": _zip({"d.txt": b"d"})})
    error = _refused(_post(api, upload, "saves.zip", work), "entries")
    assert error["limit"] == 5
    assert work.read == 1  # the first save was read (and imported, then rolled back)


@override_settings(DECODOKU_UPLOAD_ZIP_MAX_BYTES=300_000, DECODOKU_SAVE_PARSE_SECONDS=600,
                   DECODOKU_UPLOAD_CPU_SECONDS=600)
def test_the_unpacked_size_limit_counts_every_level(api: APIClient) -> None:
    names = ["Z10_normal_480.csv", "Z10_normal_475.csv", "PL_annotated_336.csv"]
    inner = {f"{k}.zip": _zip({name: (SAVES / name).read_bytes()}) for k, name in enumerate(names)}
    # Each inner zip unpacks to about 110 KB: each alone is within 300,000 bytes, all are not.
    error = _refused(_post(api, _zip(inner), "saves.zip"), "unpacked_bytes")
    assert error["limit"] == 300_000


def test_archives_nested_deeper_than_allowed_are_refused(api: APIClient, work: Work) -> None:
    data = _zip({"save.csv": (SAVES / "Z10_normal_480.csv").read_bytes()})
    for level in range(3):
        data = _zip({f"level{level}.zip": data})
    error = _refused(_post(api, data, "deep.zip", work), "depth")
    assert error["limit"] == 3
    assert work.read == 0


def test_a_zip_of_many_empty_files_is_refused_at_its_directory(api: APIClient, work: Work) -> None:
    bomb = many_entries(20_000)
    assert len(bomb) < 2 * MIB
    _refused(_post(api, bomb, "many.zip", work), "entries")
    assert work.unpacked == 0


def test_a_file_that_unpacks_to_far_more_than_it_weighs_is_refused_unread(
    api: APIClient, work: Work
) -> None:
    bomb = _zip({"save.csv": b"\n" * (2 * MIB)})
    assert len(bomb) < 3_000
    error = _refused(_post(api, bomb, "saves.zip", work), "ratio")
    assert "a file may unpack to at most 100 times its compressed size" in error["message"]
    assert (work.unpacked, work.read) == (0, 0)


# -- the time budget -----------------------------------------------------------------------


def _leaping(step: float) -> Callable[[], float]:
    """A clock that moves ``step`` seconds every time it is read."""
    ticks = iter(range(10_000_000))
    return lambda: float(next(ticks)) * step


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=1)
def test_an_archive_stops_when_the_upload_s_time_is_spent(
    api: APIClient, work: Work, monkeypatch: pytest.MonkeyPatch
) -> None:
    upload = _zip({f"{k}.csv": plain_save(64 * 1024) for k in range(5)})
    monkeypatch.setattr(time, "monotonic", _leaping(10.0))
    error = _refused(_post(api, upload, "saves.zip", work), "too_slow")
    assert "the time one upload may take" in error["message"]
    assert work.read <= 1


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=600, DECODOKU_UPLOAD_CPU_SECONDS=1)
def test_the_processor_time_of_an_archive_is_bounded(
    api: APIClient, work: Work, monkeypatch: pytest.MonkeyPatch
) -> None:
    upload = _zip({f"{k}.csv": plain_save(64 * 1024) for k in range(5)})
    monkeypatch.setattr(time, "thread_time", _leaping(10.0))
    _refused(_post(api, upload, "saves.zip", work), "too_slow")
    assert work.read <= 1


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=600, DECODOKU_UPLOAD_CPU_SECONDS=1)
def test_the_processor_time_of_a_single_save_is_bounded(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(time, "thread_time", _leaping(10.0))
    response = _post(api, (SAVES / "Z10_normal_480.csv").read_bytes(), "save.csv")
    assert response.status_code == 422, response.content[:300]
    error = response.json()["error"]
    assert (error["code"], error["reason"]) == ("invalid_save_file", "too_slow")
    _nothing_stored()


# -- workbooks ------------------------------------------------------------------------------


def test_a_workbook_of_two_million_rows_in_a_zip_is_refused_before_its_sheet_is_read(
    api: APIClient, work: Work
) -> None:
    book = huge_workbook(rows=2_000_000)
    assert len(book) < 400_000  # its sheet is 106 MB of XML
    upload = _zip({"book.xlsx": book})
    error = _refused(_post(api, upload, "saves.zip", work), "entry_bytes")
    assert "xl/worksheets/sheet1.xml" in error["message"]
    assert work.unpacked <= len(book)  # the workbook itself, none of its parts
    assert not any(name.startswith("xl/") for name in work.opened)


def test_the_same_workbook_uploaded_on_its_own_is_refused_too(api: APIClient) -> None:
    _refused(_post(api, huge_workbook(rows=2_000_000), "book.xlsx"), "entry_bytes")


def _sheet_workbook(sheet_xml: bytes) -> bytes:
    """A workbook whose one sheet is ``sheet_xml`` (inside <sheetData>)."""
    source = zipfile.ZipFile(io.BytesIO(sample_workbook()))
    head = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            b"<sheetData>")
    return zip_of(
        (info.filename, head + sheet_xml + b"</sheetData></worksheet>"
         if info.filename == "xl/worksheets/sheet1.xml" else source.read(info))
        for info in source.infolist()
    )


def test_a_sheet_of_more_rows_than_any_save_is_read_no_further(api: APIClient) -> None:
    # One cell in the last row Excel has: openpyxl gives every empty row before it.
    book = _sheet_workbook(b'<row r="1048576"><c r="A1048576" t="n"><v>1</v></c></row>')
    response = _post(api, book, "book.xlsx")
    assert response.status_code == 200, response.content[:300]
    (sheet,) = response.json()["files"]
    assert sheet["outcome"] == "invalid"
    assert "more than 100000 rows" in sheet["message"]


def test_a_sheet_with_a_row_of_thousands_of_cells_is_not_given_to_openpyxl(
    api: APIClient, work: Work
) -> None:
    # openpyxl holds a whole row at once: 500,000 cells made 160 MiB of it.
    row = b'<row r="1">' + b"".join(b'<c r="%s1"/>' % name
                                     for name in [b"A", b"B", b"C", b"D"] * 500) + b"</row>"
    response = _post(api, _zip({"book.xlsx": _sheet_workbook(row)}), "saves.zip", work)
    assert response.status_code == 200, response.content[:300]
    (book,) = response.json()["files"]
    assert book["outcome"] == "invalid"
    assert "a row of more than 1024 cells" in book["message"]
    assert work.opened.count("xl/worksheets/sheet1.xml") == 1  # scanned, never parsed


@pytest.mark.parametrize("name", ["save.xlsx", "upload.bin"])
def test_a_workbook_uploaded_on_its_own_is_read_as_one(api: APIClient, name: str) -> None:
    response = _post(api, sample_workbook(), name)
    assert response.status_code == 201, response.content[:500]
    body = response.json()
    assert [(f["name"], f["outcome"]) for f in body["files"]] == [
        (f"{name}[Game]", "imported")]
    assert Game.objects.get().score == 480


def test_a_workbook_s_style_sheet_is_never_unpacked(api: APIClient, work: Work) -> None:
    response = _post(api, styles_workbook(2 * MIB - 4096), "book.xlsx", work)
    assert response.status_code == 201, response.content[:500]
    assert "xl/worksheets/sheet1.xml" in work.opened
    assert "xl/styles.xml" not in work.opened


# -- a single file ----------------------------------------------------------------------------


def test_a_file_of_line_breaks_is_refused_before_it_is_split_into_lines(api: APIClient) -> None:
    response = _post(api, b"\n" * (2 * MIB), "save.csv")
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["reason"], error["line"]) == (
        "invalid_save_file", "too_many_lines", 100_001)
    _nothing_stored()
