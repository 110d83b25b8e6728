"""Requests at the same time: one daily game per player, one holder per display name.

PostgreSQL only, where the requests really run in parallel, each thread with
its own connection.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Game, Player
from games.names import display_name_key
from tests.factories import PlayerFactory, api_token
from tests.games.test_concurrency import _client, _in_threads, _no_throttles

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
THREADS = 8


def test_one_player_starting_the_daily_challenge_many_times_at_once_gets_one_game():
    player = PlayerFactory.create()
    token = api_token(player)
    with _no_throttles():
        statuses = _in_threads(
            lambda _: _client(token).post("/api/v1/daily/").status_code, count=THREADS
        )
    assert Counter(statuses) == {201: 1, 409: THREADS - 1}
    assert Game.objects.filter(player=player).count() == 1


def test_players_claiming_one_name_at_once_leave_it_to_one_of_them():
    players = [PlayerFactory.create() for _ in range(THREADS)]
    tokens = [api_token(player) for player in players]
    with _no_throttles():
        statuses = _in_threads(
            lambda i: _client(tokens[i]).post(
                "/api/v1/me/display-name/", {"display_name": f"Same {'nAmE' if i % 2 else 'Name'}"},
                format="json",
            ).status_code,
            count=THREADS,
        )
    assert Counter(statuses) == {200: 1, 409: THREADS - 1}
    assert Player.objects.filter(display_name_key=display_name_key("Same Name")).count() == 1
