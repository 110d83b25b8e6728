"""The web page for uploading the original apps' save files (``/me/uploads/``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from core.sessions import PLAYER_SESSION_KEY
from games.errors import ConsentChoiceRequired
from games.models import Game, Player
from games.services import player_create
from games.services.uploads import upload_save_files

pytestmark = pytest.mark.django_db

SAVES = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves"
SEVEN = "7 \N{MULTIPLICATION SIGN} 7"  # a board's size, as the pages write it


def _browser_of(player: Player) -> Client:
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    return browser


def _file(name: str, data: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data if data is not None else (SAVES / name).read_bytes())


def _zip(*names: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            archive.writestr(name, (SAVES / name).read_bytes())
    return out.getvalue()


def test_a_save_file_and_an_archive_are_imported_with_a_report_per_file(player):
    browser = _browser_of(player)
    page = browser.post(
        "/me/uploads/",
        {
            "files": [
                _file("Z10_normal_475.csv"),
                _file("saves.zip", _zip("PL_normal_205.csv", "Z10_normal_480.csv")),
                _file("notes.csv", b"just some text\n"),
            ]
        },
    )
    assert page.status_code == 200
    html = page.content.decode()
    games = Game.objects.filter(player=player, source=Game.Source.LEGACY_UPLOAD)
    assert games.count() == 3
    assert html.count('data-outcome="imported"') == 3
    assert 'data-name="saves.zip"' in html
    assert "2 files, 2 imported" in html
    # A file that is not a save is refused on its own; the others still count.
    notes = html[html.index('data-name="notes.csv"') :]
    assert 'data-outcome="refused"' in notes[: notes.index("</li>")]
    # The page lists the uploads, and My games does too.
    assert "Z10_normal_475.csv" in html[html.index('id="uploads-title"') :]
    me = browser.get("/me/").content.decode()
    assert me.count("· uploaded") == 3


def test_the_same_file_again_makes_no_new_game(player):
    browser = _browser_of(player)
    browser.post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    again = browser.post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    assert again.status_code == 200
    assert 'data-outcome="already_imported"' in again.content.decode()
    assert Game.objects.filter(player=player).count() == 1


def test_only_refused_files_answer_422_and_store_nothing(player):
    page = _browser_of(player).post("/me/uploads/", {"files": [_file("x.csv", b"\x00\x01")]})
    assert page.status_code == 422
    assert "Nothing was stored from this file." in page.content.decode()
    assert not Game.objects.exists()


@override_settings(DECODOKU_MAX_UPLOAD_BYTES=100)
def test_a_file_over_the_size_limit_is_refused_alone(player):
    page = _browser_of(player).post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    assert page.status_code == 422
    assert "at most 100 bytes" in page.content.decode()


def test_no_files_no_player_and_too_many_files_are_clear_400s(player):
    assert _browser_of(player).post("/me/uploads/", {}).status_code == 400
    nobody = Client().post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    assert nobody.status_code == 400
    assert "no player in this browser" in nobody.content.decode()
    many = [_file(f"{n}.csv", b"x") for n in range(21)]
    too_many = _browser_of(player).post("/me/uploads/", {"files": many})
    assert too_many.status_code == 400
    assert "At most 20 files" in too_many.content.decode()
    assert not Game.objects.exists()


def test_the_home_page_and_my_games_link_to_the_upload_page(player):
    assert 'href="/me/uploads/"' in Client().get("/").content.decode()
    assert 'href="/me/uploads/"' in _browser_of(player).get("/me/").content.decode()
    assert "No uploads yet." in _browser_of(player).get("/me/uploads/").content.decode()


def _never_asked() -> Player:
    player, _token = player_create(consent_version=None, consent_decided=False)
    return player


def _upload_section(html: str) -> str:
    start = html.index('id="upload-section"')
    return html[start : html.index(">", start)]


def test_an_upload_of_a_player_never_asked_is_refused_409_and_stores_nothing():
    browser = _browser_of(_never_asked())
    page = browser.post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    assert page.status_code == 409
    html = page.content.decode()
    assert 'data-error-code="consent_choice_required"' in html
    assert "Nothing was imported" in html
    assert not Game.objects.exists()
    # The page answering the refusal asks the question again.
    assert 'id="consent-yes"' in html


def test_the_upload_service_refuses_a_player_never_asked_before_reading_a_file():
    with pytest.raises(ConsentChoiceRequired):
        upload_save_files(player=_never_asked(), files=[("x.csv", b"not read")])
    assert not Game.objects.exists()


def test_a_newcomer_is_asked_on_the_upload_page_before_the_form_shows():
    html = Client().get("/me/uploads/").content.decode()
    assert 'id="consent-yes"' in html
    assert 'id="consent-no"' in html
    assert html.index('id="consent-yes"') < html.index('id="upload-form"')
    assert " hidden" in _upload_section(html)
    assert "play a game" not in html.lower()
    assert 'src="/static/games/js/uploads.js"' in html


def test_a_player_never_asked_is_asked_on_the_upload_page():
    html = _browser_of(_never_asked()).get("/me/uploads/").content.decode()
    assert 'id="consent-yes"' in html
    assert " hidden" in _upload_section(html)


def test_a_player_who_answered_sees_the_form_without_the_question(player):
    html = _browser_of(player).get("/me/uploads/").content.decode()
    assert 'id="consent-ask"' not in html
    assert " hidden" not in _upload_section(html)


def test_a_newcomer_who_answers_no_can_upload_without_playing_a_game():
    browser = Client()
    answer = browser.post(
        "/api/v1/players/", {"consent_version": None}, content_type="application/json"
    )
    assert answer.status_code == 201
    page = browser.post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    assert page.status_code == 200
    uploaded = Game.objects.get(source=Game.Source.LEGACY_UPLOAD)
    assert uploaded.player.consent_decided
    assert uploaded.research_consent is False


def test_the_upload_report_speaks_plainly_and_links_each_game_to_its_replay(player):
    browser = _browser_of(player)
    page = browser.post(
        "/me/uploads/",
        {"files": [_file("PL_hard_219.csv"), _file("saves.zip", _zip("Z10_normal_480.csv"))]},
    )
    assert page.status_code == 200
    html = page.content.decode()
    # The check_save verdict is for the admin and the API, not for the player.
    assert "Phi-Lambda record" not in html
    assert "partially observed" not in html
    assert "imported as game" not in html
    assert f"A {SEVEN} game of Φ and Λ, hard mode: score 219, 220 boards in the file." in html
    assert "not the number itself" in html
    assert f"A {SEVEN} game of Numbers (Z10): score 480" in html
    # Every game made has a replay link, in the report and in the list of uploads.
    for game in Game.objects.filter(player=player, source=Game.Source.LEGACY_UPLOAD):
        assert html.count(f'href="/play/?game={game.pk}"') == 2
    again = browser.post("/me/uploads/", {"files": [_file("PL_hard_219.csv")]}).content.decode()
    assert "imported as game" not in again
    report = again[again.index('id="upload-report"') : again.index('id="uploads-title"')]
    game = Game.objects.get(player=player, legacy_filename="PL_hard_219.csv")
    assert f'href="/play/?game={game.pk}"' in report


def test_my_games_links_uploaded_games_to_their_replay(player):
    browser = _browser_of(player)
    browser.post("/me/uploads/", {"files": [_file("Z10_normal_475.csv")]})
    game = Game.objects.get(player=player, source=Game.Source.LEGACY_UPLOAD)
    me = browser.get("/me/").content.decode()
    assert f'href="/play/?game={game.pk}">Replay</a>' in me


def test_my_games_without_a_player_offers_the_upload_page_as_well_as_play():
    html = Client().get("/me/").content.decode()
    assert "No player in this browser yet" in html
    start = html.index('id="none-title"')
    card = html[start : html.index("</section>", start)]
    assert 'href="/me/uploads/"' in card


@pytest.mark.parametrize(
    ("missing", "words"),
    [
        ([], ""),
        ([[4, 4]], "Step 4 is missing"),
        ([[41, 43]], "Steps 41 to 43 are missing"),
        ([[2, 2], [41, 43]], "Steps 2, 41 to 43 are missing"),
    ],
)
def test_the_upload_summary_names_the_missing_steps(missing, words):
    from games.services.uploads import upload_summary

    text = upload_summary(
        {
            "variant": "z10",
            "size": 7,
            "score": 12,
            "steps_read": 30,
            "observed": "values",
            "missing_steps": missing,
        }
    )
    assert text.startswith(f"A {SEVEN} game of Numbers (Z10): score 12, 30 boards in the file.")
    assert ("missing" in text) == bool(words)
    assert words in text
