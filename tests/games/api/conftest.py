"""Fixtures of the play API tests: players with token clients, and their games."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import Game, Player
from tests.factories import GameFactory, PlayerFactory, api_token


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db) -> Player:
    return PlayerFactory.create()


def token_client(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client


@pytest.fixture
def api(player: Player) -> APIClient:
    """A client authenticated as ``player`` by token."""
    return token_client(player)


@pytest.fixture
def game(player: Player) -> Game:
    return GameFactory.create(player=player)


def games_url(game: Game | None = None, tail: str = "") -> str:
    if game is None:
        return "/api/v1/games/"
    return f"/api/v1/games/{game.pk}/{tail}"
