"""Heavy requests take turns (core.concurrency): a burst of them cannot take every thread.

Each kind of heavy work (uploads, puzzles, exports) has DECODOKU_HEAVY_REQUESTS slots per
process. These tests hold a kind's slots themselves and check what a request of that kind
then gets (503 busy, Retry-After, nothing stored) and that other requests are not held
up. bench/request_budgets.py measures the effect under load.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from core import concurrency
from core.concurrency import EXPORT, PUZZLE, UPLOAD, Busy, acquire_heavy_slot
from core.sessions import PLAYER_SESSION_KEY
from games.models import Game, Player
from puzzles.models import Attempt, Puzzle
from research.selectors import RESEARCHERS_GROUP
from tests.factories import GameFactory, PlayerFactory, api_token
from tests.games.test_legacy_import import Z10_SAVE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_waiting(settings) -> Iterator[None]:
    """One slot per kind, refused at once when taken; throttle counters start empty."""
    settings.DECODOKU_HEAVY_REQUESTS = 1
    settings.DECODOKU_HEAVY_WAIT_SECONDS = 0
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player() -> Player:
    return PlayerFactory.create()


@pytest.fixture
def api(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client


@pytest.fixture
def held() -> Iterator[list]:
    """Slots taken by the test (given back at its end)."""
    releases: list = []
    yield releases
    for release in releases:
        release()


def hold(held: list, kind: str) -> None:
    held.append(acquire_heavy_slot(kind=kind))


def assert_busy(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(concurrency.BUSY_RETRY_AFTER_SECONDS)


def assert_busy_json(response, kind: str) -> None:
    assert_busy(response)
    error = response.json()["error"]
    assert error["code"] == "busy"
    assert error["kind"] == kind
    assert error["retry_after"] == concurrency.BUSY_RETRY_AFTER_SECONDS


def test_a_slot_taken_is_refused_until_given_back_and_giving_back_twice_is_harmless():
    release = acquire_heavy_slot(kind=PUZZLE)
    with pytest.raises(Busy):
        acquire_heavy_slot(kind=PUZZLE)
    # Another kind has slots of its own.
    acquire_heavy_slot(kind=UPLOAD)()
    release()
    release()
    again = acquire_heavy_slot(kind=PUZZLE)
    with pytest.raises(Busy):
        acquire_heavy_slot(kind=PUZZLE)
    again()


def test_the_setting_gives_each_kind_that_many_slots(settings):
    settings.DECODOKU_HEAVY_REQUESTS = 3
    releases = [acquire_heavy_slot(kind=EXPORT) for _ in range(3)]
    with pytest.raises(Busy):
        acquire_heavy_slot(kind=EXPORT)
    for release in releases:
        release()


def test_an_unknown_kind_of_heavy_work_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown kind"):
        acquire_heavy_slot(kind="everything")


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/puzzles/", {"kind": "futoshiki-adjacent", "size": 16}),
        ("/api/v1/puzzles/check/", {"kind": "futoshiki", "size": 4}),
        ("/api/v1/puzzles/own/", {"kind": "futoshiki", "size": 4}),
        ("/api/v1/puzzles/from-id/", {"id": "futoshiki:4:eJyrrgUAAXUA-Q"}),
    ],
)
def test_puzzle_requests_get_503_busy_while_every_puzzle_slot_is_taken(api, held, url, body):
    hold(held, PUZZLE)
    response = api.post(url, body, format="json")
    assert_busy_json(response, PUZZLE)
    assert not Puzzle.objects.exists()
    assert not Attempt.objects.exists()


def test_cheap_requests_are_answered_while_every_heavy_slot_is_taken(api, player, held):
    for kind in (UPLOAD, PUZZLE, EXPORT):
        hold(held, kind)
    GameFactory.create(player=player)
    assert api.get("/api/v1/games/").status_code == 200
    assert api.get("/api/v1/puzzles/").status_code == 200


def test_a_puzzle_starts_once_the_slot_is_given_back(api, held):
    kenken = {"kind": "kenken", "size": 4}
    hold(held, PUZZLE)
    assert api.post("/api/v1/puzzles/", kenken, format="json").status_code == 503
    held.pop()()
    assert api.post("/api/v1/puzzles/", kenken, format="json").status_code == 201


def test_an_api_upload_gets_503_busy_while_every_upload_slot_is_taken(api, held):
    hold(held, UPLOAD)
    upload = SimpleUploadedFile("save.csv", Z10_SAVE.encode(), content_type="text/csv")
    response = api.post("/api/v1/imports/", {"file": upload}, format="multipart")
    assert_busy_json(response, UPLOAD)
    assert not Game.objects.exists()


def test_the_upload_page_answers_503_to_a_post_but_still_shows_itself(player, held):
    hold(held, UPLOAD)
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    upload = SimpleUploadedFile("save.csv", Z10_SAVE.encode(), content_type="text/csv")
    posted = browser.post("/me/uploads/", {"files": [upload]})
    assert_busy(posted)
    assert b"busy" in posted.content.lower()
    assert not Game.objects.exists()
    assert browser.get("/me/uploads/").status_code == 200


@pytest.fixture
def researcher_client() -> Client:
    user = User.objects.create_user("ada", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def test_an_export_gets_503_busy_while_every_export_slot_is_taken(researcher_client, held):
    hold(held, EXPORT)
    response = researcher_client.get("/research/export/games.csv")
    assert_busy_json(response, EXPORT)


def test_a_streamed_export_holds_its_slot_until_the_download_is_closed(researcher_client):
    response = researcher_client.get("/research/export/games.csv")
    assert response.status_code == 200
    with pytest.raises(Busy):
        acquire_heavy_slot(kind=EXPORT)
    assert b"".join(response.streaming_content)  # the header line at least
    response.close()
    acquire_heavy_slot(kind=EXPORT)()


def test_a_refused_export_gives_its_slot_back(researcher_client):
    assert researcher_client.get("/research/export/no-such-table.csv").status_code == 404
    acquire_heavy_slot(kind=EXPORT)()
