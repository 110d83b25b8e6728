"""Fixtures of the dashboard tests (the data they make is in ``tests/dashboard/helpers.py``)."""

from __future__ import annotations

import datetime

import pytest

from games.models import Player
from tests.dashboard.helpers import known_games


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Plot data is cached by the aggregates' version; every test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def known(db: object) -> dict[str, Player]:
    from dashboard.services import aggregates_refresh

    players = known_games()
    aggregates_refresh(settle=datetime.timedelta(0))
    return players

