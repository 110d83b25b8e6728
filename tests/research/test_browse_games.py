"""The research games' browse page: filters, pages, links, and research data only."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client

from core.pseudonyms import pseudonym
from games.models import Game, Player
from research.browse import GAMES_PER_PAGE
from tests.factories import GameFactory, PlayerFactory

pytestmark = pytest.mark.django_db

DAY = datetime.datetime(2026, 11, 20, 12, tzinfo=datetime.UTC)


def ended(game: Game, *, day: int = 0, score: int = 10) -> Game:
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.LOST, ended_at=DAY + datetime.timedelta(days=day), score=score
    )
    game.refresh_from_db()
    return game


def listed(client: Client, **params: str) -> list[str]:
    response = client.get("/research/games/", params)
    assert response.status_code == 200, response.content
    return re.findall(r'href="/research/games/([0-9a-f-]{36})/"', response.content.decode())


def test_it_lists_research_data_only(researcher_client: Client) -> None:
    consenting = ended(GameFactory.create())
    unconsented = ended(GameFactory.create(player=PlayerFactory.create(consent_version=None)))
    excluded = ended(GameFactory.create())
    Game.objects.filter(pk=excluded.pk).update(excluded_from_research=True)
    practice = ended(GameFactory.create(mode=Game.Mode.PRACTICE))
    active = GameFactory.create()
    games = listed(researcher_client)
    assert games == [str(consenting.pk)]
    for hidden in (unconsented, excluded, practice, active):
        assert str(hidden.pk) not in games
    # Not even when asked for by the unconsented player's pseudonym.
    assert listed(researcher_client, player=pseudonym(unconsented.player_id)) == []


def test_the_filters(researcher_client: Client) -> None:
    ada, bob = PlayerFactory.create(), PlayerFactory.create()
    early = ended(GameFactory.create(player=ada), day=0, score=5)
    late = ended(GameFactory.create(player=ada, size=5), day=3, score=40)
    bobs = ended(GameFactory.create(player=bob), day=1, score=20)
    assert listed(researcher_client) == [str(late.pk), str(bobs.pk), str(early.pk)]
    ada_pseudonym = pseudonym(ada.pk)
    assert listed(researcher_client, player=ada_pseudonym) == [str(late.pk), str(early.pk)]
    assert listed(researcher_client, player=ada_pseudonym.upper()) == [str(late.pk), str(early.pk)]
    assert listed(researcher_client, rules=late.rules_key) == [str(late.pk)]
    assert listed(researcher_client, ended_from="2026-11-21", ended_to="2026-11-22") == [
        str(bobs.pk)
    ]
    assert listed(researcher_client, score_min="10", score_max="30") == [str(bobs.pk)]
    page = html.unescape(researcher_client.get("/research/games/").content.decode())
    assert ada_pseudonym in page
    assert "3 games" in page


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"player": "not-a-pseudonym"}, "player"),
        ({"rules": "no-such-rules"}, "rules"),
        ({"ended_from": "yesterday"}, "ended_from"),
        ({"ended_from": "2026-11-22", "ended_to": "2026-11-21"}, "ended_to"),
        ({"score_min": "-1"}, "score_min"),
        ({"score_min": "9", "score_max": "3"}, "score_max"),
    ],
)
def test_a_bad_filter_is_a_400_naming_the_field(
    researcher_client: Client, params: dict[str, str], field: str
) -> None:
    ended(GameFactory.create())
    response = researcher_client.get("/research/games/", params)
    assert response.status_code == 400
    assert f'id="id_{field}-error"' in response.content.decode()


def test_it_is_paginated_keeping_the_filters(researcher_client: Client) -> None:
    player = PlayerFactory.create()
    games = [ended(GameFactory.create(player=player), day=i) for i in range(GAMES_PER_PAGE + 2)]
    first = listed(researcher_client, player=pseudonym(player.pk))
    assert len(first) == GAMES_PER_PAGE
    page = researcher_client.get("/research/games/", {"player": pseudonym(player.pk)})
    assert f"player={pseudonym(player.pk)}&amp;page=2" in page.content.decode()
    second = listed(researcher_client, player=pseudonym(player.pk), page="2")
    assert second == [str(games[1].pk), str(games[0].pk)]


def test_it_needs_a_researcher(client: Client, db: None) -> None:
    response = client.get("/research/games/")
    assert response.status_code == 302
    assert "/research/login/" in response["Location"]


def test_every_listed_game_opens(researcher_client: Client) -> None:
    game = ended(GameFactory.create())
    (game_id,) = listed(researcher_client)
    assert researcher_client.get(f"/research/games/{game_id}/").status_code == 200
    assert Player.objects.filter(pk=game.player_id).exists()
