"""Hostile save files: each is refused with the API's error body, never a 5xx or a stall.

Each case replays a finding against the upload endpoint (and ``check_save``):
an unclosed quote followed by thousands of line breaks (it used to take
minutes), a NUL character in a comment, and a step number or group id too
large for the database's 32-bit columns (they used to reach the database
and answer 500).
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from rest_framework.test import APIClient

from games.engine.legacy import LegacyFormatError, read_save
from games.engine.legacy.errors import LegacyTimeout
from games.models import BoardSnapshot, Event, Game
from tests.factories import PlayerFactory, api_token
from tests.games.test_legacy_import import Z10_SAVE

pytestmark = pytest.mark.django_db

URL = "/api/v1/imports/"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(PlayerFactory.create())}")
    return client


def _upload(api: APIClient, data: bytes) -> dict:
    response = api.post(
        URL, {"file": SimpleUploadedFile("save.csv", data, content_type="text/csv")},
        format="multipart",
    )
    assert response.status_code == 422, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    assert not Game.objects.exists()
    assert not Event.objects.exists()
    assert not BoardSnapshot.objects.exists()
    return response.json()["error"]


UNCLOSED_QUOTE = b'0\n"' + b"\n" * 25_000
WITH_NUL_COMMENT = Z10_SAVE.replace("1\n", "1,,,,a note\x00with a NUL\n", 1).encode()
HUGE_STEP = Z10_SAVE.replace("\n1\n", "\n2147483648\n").encode()
HUGE_GROUP = Z10_SAVE.replace("4(1)", "4(2147483648)").replace("6(1)", "6(2147483648)").encode()


def test_the_hostile_samples_are_otherwise_valid_saves():
    # Without the hostile part, each sample reads: the refusals below are about it.
    assert read_save(Z10_SAVE).score == 1
    assert read_save(Z10_SAVE.replace("\n1\n", "\n2147483647\n")).score == 2147483647
    assert b"\x00" in WITH_NUL_COMMENT


def test_an_unclosed_quote_before_many_line_breaks_is_refused_as_such(api):
    error = _upload(api, UNCLOSED_QUOTE)
    assert error["code"] == "invalid_save_file"
    assert error["reason"] == "unclosed_quote"
    assert error["line"] == 2


def test_a_nul_character_in_a_comment_is_refused_before_the_database(api):
    error = _upload(api, WITH_NUL_COMMENT)
    assert error["code"] == "invalid_save_file"
    assert error["reason"] == "nul_character"
    assert error["line"] == 9


def test_a_step_number_of_2_to_the_31_is_refused(api):
    error = _upload(api, HUGE_STEP)
    assert error["reason"] == "number_too_large"
    assert error["line"] == 9
    assert "2147483648" in error["message"]


def test_a_group_id_of_2_to_the_31_is_refused(api):
    error = _upload(api, HUGE_GROUP)
    assert error["reason"] == "number_too_large"
    assert error["line"] == 2
    assert error["step"] == 0


def test_a_number_with_thousands_of_digits_is_refused_not_crashed_on(api):
    error = _upload(api, Z10_SAVE.replace("4(1)", "4(" + "9" * 5000 + ")").encode())
    assert error["reason"] == "number_too_large"


@override_settings(DECODOKU_SAVE_PARSE_SECONDS=1)
def test_an_upload_is_refused_once_its_time_budget_is_spent(api, monkeypatch):
    # A clock that leaps forward: every reading of it is 10 s after the last.
    ticks = iter(range(0, 10_000_000, 10))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    error = _upload(api, Z10_SAVE.encode())
    assert error["reason"] == "too_slow"


def test_the_reader_stops_at_a_deadline_already_past():
    with pytest.raises(LegacyTimeout):
        read_save(Z10_SAVE * 1 + "\n" * 600, deadline=time.monotonic() - 1)


@pytest.mark.parametrize(("data", "reason"), [
    (WITH_NUL_COMMENT, "NUL"),
    (HUGE_STEP, "too large"),
    (HUGE_GROUP, "too large"),
])
def test_check_save_names_the_file_and_line_of_a_hostile_save(tmp_path, capsys, data, reason):
    path = tmp_path / "hostile.csv"
    path.write_bytes(data)
    with pytest.raises(CommandError):
        call_command("check_save", str(path))
    out = capsys.readouterr().out
    assert str(path) in out
    assert "line " in out
    assert reason in out


def test_reading_errors_are_format_errors_not_crashes():
    for data in (UNCLOSED_QUOTE, WITH_NUL_COMMENT, HUGE_STEP, HUGE_GROUP):
        with pytest.raises(LegacyFormatError):
            read_save(data)
