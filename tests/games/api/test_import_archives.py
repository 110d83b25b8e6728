"""POST /api/v1/imports/ with a zip archive: each file imported once, bombs refused."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from games.models import Event, Game
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

URL = "/api/v1/imports/"


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _post(api, data: bytes, name: str = "saves.zip"):
    upload = SimpleUploadedFile(name, data, content_type="application/zip")
    return api.post(URL, {"file": upload}, format="multipart")


# The files of one archive share the parse budget; this test is not about time
# (a busy machine reads the 480-step save slowly).
# What becomes of each file is the point here, not the time limits (tests/hostile has
# those): under coverage on a busy machine two files can take more than the default
# 3 s of processor time.
@override_settings(DECODOKU_SAVE_PARSE_SECONDS=600, DECODOKU_UPLOAD_CPU_SECONDS=600)
def test_a_zip_of_saves_imports_each_file_and_says_what_became_of_it(api):
    data = _zip({
        "saves/Z10_normal_480.csv": (SAVES / "Z10_normal_480.csv").read_bytes(),
        "saves/221.csv": (SAVES / "colors" / "221_justacae.csv").read_bytes(),
        "saves/again.csv": (SAVES / "Z10_normal_480.csv").read_bytes(),
        "saves/readme.txt": b"See https://example.org/decodoku\n",
        "saves/broken.csv": b"0\n,,,7(1),.,.,\n",
        "__MACOSX/saves/._221.csv": b"\x00\x05\x16\x07",
    })
    response = _post(api, data)
    assert response.status_code == 201, response.json()
    body = response.json()
    outcomes = {f["name"].split("/")[-1]: f["outcome"] for f in body["files"]}
    assert outcomes == {"Z10_normal_480.csv": "imported", "221.csv": "imported",
                        "again.csv": "already_imported", "readme.txt": "not_save",
                        "broken.csv": "invalid"}
    assert body["summary"] == {"imported": 2, "comments_merged": 0, "already_imported": 1,
                               "not_save": 1, "invalid": 1}
    assert Game.objects.count() == 2
    again = _post(api, data)
    assert again.status_code == 200
    assert again.json()["summary"]["imported"] == 0
    assert Game.objects.count() == 2


@override_settings(DECODOKU_UPLOAD_ZIP_MAX_FILES=3)
def test_an_archive_with_too_many_files_is_refused_and_nothing_is_stored(api):
    save = (SAVES / "Z10_normal_480.csv").read_bytes()
    response = _post(api, _zip({f"s{k}.csv": save for k in range(4)}))
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["reason"], error["limit"]) == ("upload_limit", "entries", 3)
    assert not Game.objects.exists()
    assert not Event.objects.exists()


@override_settings(DECODOKU_UPLOAD_ZIP_MAX_BYTES=100_000)
def test_a_zip_bomb_is_refused_before_it_is_unpacked(api):
    bomb = _zip({"a.csv": b"0" * 60_000, "b.csv": b"0" * 60_000})
    assert len(bomb) < 2_000
    response = _post(api, bomb)
    assert response.status_code == 422
    assert "unpacks to 120000 bytes" in response.json()["error"]["message"]
    assert not Game.objects.exists()


def test_a_broken_zip_is_refused(api):
    response = _post(api, b"PK\x03\x04 not really a zip")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "archive_refused"


def test_an_uploaded_colors_game_answers_a_variant_the_schema_lists(api):
    from games.api.serializers import RulesSerializer

    upload = SimpleUploadedFile("221.csv", (SAVES / "colors" / "221_justacae.csv").read_bytes(),
                                content_type="text/csv")
    response = api.post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    state = api.get(f"/api/v1/games/{game.pk}/")
    assert state.status_code == 200, state.json()
    variant = state.json()["rules"]["variant"]
    assert variant == "colors"
    assert variant in RulesSerializer().fields["variant"].choices
