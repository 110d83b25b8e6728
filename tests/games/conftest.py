"""Fixtures of the games app tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.models import Game, Player
from tests.factories import GameFactory, PlayerFactory


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
def game(player: Player) -> Game:
    return GameFactory.create(player=player)
