"""Sharing through the API, and the public replay page with its preview image."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from games.models import Game, Player
from tests.factories import GameFactory, PlayerFactory, play
from tests.games.api.conftest import games_url, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def lost(player: Player) -> Game:
    return play(GameFactory.create(player=player, size=5))


def _share(api: APIClient, game: Game) -> dict:
    response = api.post(games_url(game, "share/"))
    assert response.status_code == 200, response.content
    return response.json()


def test_sharing_a_finished_game_gives_a_public_link_and_a_text(api, lost):
    body = _share(api, lost)
    token = body["share_token"]
    assert body["url"] == f"http://testserver/shared/{token}/"
    assert body["image_url"] == f"http://testserver/shared/{token}/image.png"
    assert f"I scored {lost.score} in Decodoku (Z10, 5\u00d75" in body["text"]
    assert body["text"].endswith(body["url"])
    assert str(lost.pk) not in body["url"]
    assert str(lost.player_id) not in body["url"]
    # The game's own view tells its player that it is shared.
    assert api.get(games_url(lost)).json()["share_token"] == token
    # Sharing again returns the same link.
    assert _share(api, lost)["share_token"] == token


def test_sharing_an_active_game_is_a_409_and_changes_nothing(api, game):
    play(game, moves=1)
    before = api.get(games_url(game)).json()
    response = api.post(games_url(game, "share/"))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_not_finished"
    game.refresh_from_db()
    assert game.share_token is None
    assert api.get(games_url(game)).json() == before


def test_another_players_game_cannot_be_shared_or_unshared(lost):
    other = token_client(PlayerFactory.create())
    assert other.post(games_url(lost, "share/")).status_code == 404
    assert other.delete(games_url(lost, "share/")).status_code == 404
    lost.refresh_from_db()
    assert lost.share_token is None


def test_sharing_needs_a_player(lost):
    assert APIClient().post(games_url(lost, "share/")).status_code == 401


def test_the_public_api_shows_the_replay_to_anybody(api, lost):
    token = _share(api, lost)["share_token"]
    response = APIClient().get(f"/api/v1/shared/{token}/")
    assert response.status_code == 200
    body = response.json()
    assert body["score"] == lost.score
    assert len(body["replay"]) == lost.moves_count + 1
    assert str(lost.pk) not in response.content.decode()
    assert str(lost.player_id) not in response.content.decode()


def test_unsharing_makes_the_link_a_404_everywhere(api, lost):
    token = _share(api, lost)["share_token"]
    assert api.delete(games_url(lost, "share/")).status_code == 204
    anybody = Client()
    assert anybody.get(f"/api/v1/shared/{token}/").status_code == 404
    assert anybody.get(f"/shared/{token}/").status_code == 404
    assert anybody.get(f"/shared/{token}/image.png").status_code == 404
    assert api.get(games_url(lost)).json()["share_token"] is None


@pytest.mark.parametrize("token", ["0" * 22, "nope", "x" * 40, "%00" * 8])
def test_unknown_links_are_404_with_nothing_shown(token: str, lost):
    anybody = Client()
    api_answer = anybody.get(f"/api/v1/shared/{token}/")
    assert api_answer.status_code == 404
    assert api_answer.json()["error"]["code"] == "not_found"
    page = anybody.get(f"/shared/{token}/")
    assert page.status_code == 404
    assert b"No shared game here" in page.content
    assert b'id="board"' not in page.content
    assert anybody.get(f"/shared/{token}/image.png").status_code == 404


def test_a_token_on_an_active_game_is_refused_by_the_database(lost):
    active = GameFactory.create(player=lost.player, size=5)
    Game.objects.filter(pk=active.pk).update(share_token=None)
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=active.pk).update(share_token="A" * 22)


class _Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        key = values.get("property") or values.get("name")
        if tag == "meta" and key:
            self.meta[key] = values.get("content") or ""


def test_the_replay_page_has_open_graph_tags_and_no_player(api, lost):
    token = _share(api, lost)["share_token"]
    response = Client().get(f"/shared/{token}/")
    assert response.status_code == 200
    html = response.content.decode()
    parser = _Meta()
    parser.feed(html)
    meta = parser.meta
    assert meta["og:title"] == f"Decodoku: a score of {lost.score} (Z10, 5 \u00d7 5)"
    assert f"after {lost.moves_count} move" in meta["og:description"]
    assert meta["og:image"] == f"http://testserver/shared/{token}/image.png"
    assert meta["og:url"] == f"http://testserver/shared/{token}/"
    assert meta["twitter:card"] == "summary_large_image"
    assert meta["robots"] == "noindex"
    for secret in (str(lost.pk), str(lost.player_id), str(lost.seed)):
        assert secret not in html
    assert re.search(r'data-token="' + re.escape(token) + '"', html)


def test_the_replay_page_links_its_style_sheets_and_runs_no_inline_script(api, lost):
    from tests.browser.test_pages import SHARED_PAGE_SHEETS, _Assets

    token = _share(api, lost)["share_token"]
    parser = _Assets()
    parser.feed(Client().get(f"/shared/{token}/").content.decode())
    assert [url.rsplit("/", 1)[-1] for url in parser.style_sheets] == SHARED_PAGE_SHEETS
    assert parser.scripts
    for script in parser.scripts:
        assert script.get("src") or script.get("type") == "importmap", script


def test_the_preview_image_is_a_png_of_1200_by_630(api, lost):
    token = _share(api, lost)["share_token"]
    response = Client().get(f"/shared/{token}/image.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert "public" in response["Cache-Control"]
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (1200, 630)


def test_the_share_endpoint_refuses_other_methods(api, lost):
    assert api.get(games_url(lost, "share/")).status_code == 405
    lost.refresh_from_db()
    assert lost.share_token is None
