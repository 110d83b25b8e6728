"""Fixtures of the research data tests: researchers, and games with consent or without."""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterable

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client

from games.models import Game, Player
from research.selectors import RESEARCHERS_GROUP
from tests.factories import GameFactory, PlayerFactory, play


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def researcher(db) -> User:
    user = User.objects.create_user("ada", password="a-long-test-password")
    # A data migration makes the group; a transactional test before this one in the
    # same process flushes it away, so it is made again when missing.
    group, _ = Group.objects.get_or_create(name=RESEARCHERS_GROUP)
    user.groups.add(group)
    return user


@pytest.fixture
def researcher_client(researcher: User) -> Client:
    client = Client()
    client.force_login(researcher)
    return client


@pytest.fixture
def staff_user(db) -> User:
    return User.objects.create_user("grace", password="a-long-test-password", is_staff=True)


@pytest.fixture
def admin_user(db) -> User:
    return User.objects.create_superuser("root", password="a-long-test-password")


@pytest.fixture
def admin_client(admin_user: User) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.fixture
def consenting_player(db) -> Player:
    return PlayerFactory.create()


@pytest.fixture
def lost_game(consenting_player: Player) -> Game:
    """A whole game, played to its loss: every event kind but regenerations, usually."""
    return play(GameFactory.create(player=consenting_player, seed=7))


@pytest.fixture
def short_game(consenting_player: Player) -> Game:
    return play(GameFactory.create(player=consenting_player, seed=11, size=5), moves=3)


def finish(*games: Game) -> None:
    """Mark games as ended (abandoned): exports and game pages hold finished games only."""
    from django.utils import timezone

    Game.objects.filter(
        pk__in=[game.pk for game in games], status=Game.Status.ACTIVE
    ).update(status=Game.Status.ABANDONED, ended_at=timezone.now())


def body_of(response) -> bytes:
    return b"".join(response.streaming_content)


def csv_rows(data: bytes | Iterable[bytes]) -> list[dict[str, str]]:
    if not isinstance(data, bytes):
        data = b"".join(data)
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
