"""An explained copy of a save keeps its explanation, whichever copy comes first.

The published collection holds some games twice: the plain save
(``306.csv``) and the same game with the player's written explanation
(``306.explain.csv``: header lines before the first board and comments
beside the boards). Their boards are the same, so the game is imported
once; the notes the second copy adds are merged into it (outcome
``comments_merged``) instead of being dropped as "already imported".
"""

from __future__ import annotations

import io
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from rest_framework.test import APIClient

from games.engine.legacy import read_save
from games.models import BoardSnapshot, Game
from games.services.legacy import legacy_import
from tests.factories import PlayerFactory, api_token
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

EXPLAINED = (SAVES / "colors" / "306_xcombelle_explained.csv").read_bytes()


def _plain_copy(data: bytes) -> bytes:
    """The same game as the app saved it without notes: step numbers and boards only."""
    lines = []
    for step in read_save(data).steps:
        lines.append(str(step.t))
        lines += [",,," + ",".join(cell.text or "." for cell in row.cells) + ","
                  for row in step.rows]
        lines += ["", ""]
    return ("\n".join(lines) + "\n").encode()


PLAIN = _plain_copy(EXPLAINED)
EXPLAINED_SAVE = read_save(EXPLAINED)
HEADER = [line.text for line in EXPLAINED_SAVE.header if line.text.strip(", \t")]
COMMENTS = {step.t: "\n".join(step.comments) for step in EXPLAINED_SAVE.steps if step.comments}


def test_the_two_copies_record_the_same_game():
    plain = read_save(PLAIN)
    assert plain.boards_digest() == EXPLAINED_SAVE.boards_digest()
    assert (plain.comments, plain.header) == ([], [])
    assert len(EXPLAINED_SAVE.comments) == 38
    assert sum(text.count("\n") + 1 for text in HEADER) >= 20  # the written explanation


def _notes(game: Game) -> tuple[list[str], dict[int, str]]:
    comments = {s.t: s.comment for s in BoardSnapshot.objects.filter(game=game) if s.comment}
    return game.import_report["header"], comments


def _zip(target: Path, files: list[tuple[str, bytes]]) -> Path:
    target.write_bytes(_zip_bytes(files))
    return target


def _zip_bytes(files: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("plain_first", [True, False], ids=["plain first", "explained first"])
def test_import_legacy_keeps_the_explanation_whichever_copy_comes_first(
    tmp_path: Path, plain_first: bool
):
    # Entries are read in name order: the folder names set which copy comes first.
    first, second = ("a", "b") if plain_first else ("b", "a")
    archive = _zip(tmp_path / "306.zip", [(f"{first}/306.csv", PLAIN),
                                          (f"{second}/306.explain.csv", EXPLAINED)])
    out = StringIO()
    call_command("import_legacy", str(archive), stdout=out)
    game = Game.objects.get()
    assert _notes(game) == (HEADER, COMMENTS)
    assert game.import_report["comments"] == 38
    lines = out.getvalue().splitlines()
    explained_line = next(line for line in lines if "306.explain.csv" in line)
    if plain_first:
        assert f"the same game as game {game.pk}, imported before" in explained_line
        assert "notes of this file merged into it" in explained_line
        assert lines[-1] == ("1 imported, 1 comments merged, 0 already imported, "
                             "0 not save files, 0 invalid")
        assert [m["filename"] for m in game.import_report["merged"]] == ["306.explain.csv"]
    else:
        assert lines[-1] == "1 imported, 1 already imported, 0 not save files, 0 invalid"

    again = StringIO()
    call_command("import_legacy", str(archive), stdout=again)  # nothing new the second time
    assert again.getvalue().splitlines()[-1] == (
        "0 imported, 2 already imported, 0 not save files, 0 invalid")
    game.refresh_from_db()
    assert _notes(game) == (HEADER, COMMENTS)


def test_an_upload_merges_the_explanation_into_the_player_s_own_game_only():
    owner, other = PlayerFactory.create(), PlayerFactory.create()
    game = legacy_import(player=owner, filename="306.csv", data=PLAIN).game
    assert _notes(game) == ([], {})

    def upload(player, name: str, data: bytes):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
        return client.post("/api/v1/imports/", {"file": SimpleUploadedFile(name, data)},
                           format="multipart")

    # Another player's copy is not merged into the owner's game: it becomes the
    # other player's own game, and the answer does not say the owner has it.
    buffer = _zip_bytes([("306.explain.csv", EXPLAINED)])
    response = upload(other, "saves.zip", buffer)
    assert response.status_code == 201, response.content[:300]
    files = response.json()["files"]
    assert [f["outcome"] for f in files] == ["imported"]
    assert str(game.pk) not in response.content.decode()
    copy = Game.objects.get(player=other)
    assert copy.copy_of == game
    assert _notes(copy) == (HEADER, COMMENTS)
    game.refresh_from_db()
    assert _notes(game) == ([], {})

    response = upload(owner, "saves.zip", buffer)
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert [(f["outcome"], f["game_id"]) for f in body["files"]] == [
        ("comments_merged", str(game.pk))]
    assert body["summary"]["comments_merged"] == 1
    game.refresh_from_db()
    assert _notes(game) == (HEADER, COMMENTS)
    assert Game.objects.count() == 2  # the owner's game and the other player's copy


def test_a_single_upload_of_the_explained_copy_adds_its_notes_to_the_game():
    player = PlayerFactory.create()
    game = legacy_import(player=player, filename="306.csv", data=PLAIN).game
    result = legacy_import(player=player, filename="306.explain.csv", data=EXPLAINED)
    assert (result.created, result.game.pk) == (False, game.pk)
    game.refresh_from_db()
    assert _notes(game) == (HEADER, COMMENTS)
    assert result.report["merged"] == [{
        "filename": "306.explain.csv", "sha256": result.report["merged"][0]["sha256"],
        "header_lines": len(HEADER), "comments": 38,
    }]
    # The plain copy again changes nothing.
    again = legacy_import(player=player, filename="306.csv", data=PLAIN)
    assert again.game.pk == game.pk
    game.refresh_from_db()
    assert _notes(game) == (HEADER, COMMENTS)
