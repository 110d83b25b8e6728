"""The periodic tasks and commands that keep the aggregates current."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.core.management import call_command

from dashboard.models import LifetimeCount
from dashboard.tasks import rebuild_aggregates, refresh_aggregates
from tests.dashboard.helpers import finished_game, new_player


def test_it_schedules_the_refresh_and_the_rebuild() -> None:
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"dashboard.refresh_aggregates", "dashboard.rebuild_aggregates"} <= tasks


@pytest.mark.django_db
def test_it_absorbs_settled_games_from_the_task_and_the_command() -> None:
    # Ended long ago: past the settle time the periodic task leaves out.
    finished_game(player=new_player(), rounds=4)

    assert refresh_aggregates.delay().get() == {
        "games": 1, "counted_games": 1, "analyses": 0, "counted_analyses": 0,
    }
    assert refresh_aggregates.delay().get()["games"] == 0
    assert rebuild_aggregates.delay().get() == 1
    assert sum(row.lost for row in LifetimeCount.objects.all()) == 2  # a day row and all-time

    out = io.StringIO()
    call_command("dashboard_refresh", "--rebuild", stdout=out)
    assert "games read 1, counted 1" in out.getvalue()
