"""Fixtures of the puzzles tests: a player with a token client, researchers for the exports."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import Player
from tests.factories import PlayerFactory, api_token
from tests.research.conftest import researcher, researcher_client  # noqa: F401


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db) -> Player:
    return PlayerFactory.create()


@pytest.fixture
def api(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client
