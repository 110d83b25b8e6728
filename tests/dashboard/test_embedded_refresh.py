"""Without a broker no beat runs: dashboard requests keep the aggregates fresh themselves."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from core.pseudonyms import pseudonym
from core.sessions import PLAYER_SESSION_KEY
from dashboard.models import Watermark
from dashboard.services import GAMES, SETTLE, aggregates_refresh
from tests.dashboard.helpers import finished_game, new_player

pytestmark = pytest.mark.django_db


def _finished_a_moment_ago(**kwargs: object) -> datetime.datetime:
    """An end time just past the settle window, as for a game finished half a minute ago."""
    return timezone.now() - SETTLE - datetime.timedelta(seconds=5)


def _age_aggregates(seconds: float) -> None:
    Watermark.objects.filter(name=GAMES).update(
        updated_at=timezone.now() - datetime.timedelta(seconds=seconds)
    )


def test_a_finished_game_reaches_the_plots_and_the_leaderboard_with_no_beat(
    client: Client,
) -> None:
    aggregates_refresh()
    player = new_player(consent=True)
    finished_game(player=player, rounds=12, ended_at=_finished_a_moment_ago())
    _age_aggregates(60)

    survival = client.get("/dashboard/data/survival/").json()
    activity = client.get("/dashboard/data/activity/").json()

    assert survival["games"] == 1
    assert [row["player"] for row in activity["leaderboard"]] == [pseudonym(player.pk)]


def test_fresh_aggregates_are_not_refreshed_on_every_request(client: Client) -> None:
    aggregates_refresh()
    player = new_player(consent=True)
    finished_game(player=player, rounds=12, ended_at=_finished_a_moment_ago())

    # refreshed a moment ago: this request does not count the new game yet
    assert client.get("/dashboard/data/survival/").json()["games"] == 0
    _age_aggregates(60)
    assert client.get("/dashboard/data/survival/").json()["games"] == 1


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_with_a_broker_requests_leave_the_refresh_to_beat(client: Client) -> None:
    aggregates_refresh()
    player = new_player(consent=True)
    finished_game(player=player, rounds=12, ended_at=_finished_a_moment_ago())
    _age_aggregates(3600)

    assert client.get("/dashboard/data/survival/").json()["games"] == 0


def test_a_consenting_players_own_games_say_they_count(client: Client) -> None:
    player = new_player(consent=True)
    finished_game(player=player, rounds=12, ended_at=_finished_a_moment_ago())
    session = client.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()

    body = client.get("/dashboard/data/mine/").json()

    assert body["research_consent"] is True
    assert len(body["games"]) == 1


def test_a_player_without_consent_is_told_so(client: Client) -> None:
    player = new_player(consent=False)
    finished_game(player=player, rounds=12, ended_at=_finished_a_moment_ago())
    session = client.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()

    assert client.get("/dashboard/data/mine/").json()["research_consent"] is False
