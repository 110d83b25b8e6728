"""manage.py seed_demo: real bot games and a real sweep in an empty database, once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from dashboard import demo
from dashboard.models import ALL_TIME, DemoData, LifetimeCount
from games.models import Event, Game
from results.models import Sweep
from tests.dashboard.helpers import finished_game, new_player


def run() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def small_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A smaller grid than the real demo, so that the test stays quick."""
    monkeypatch.setattr(demo, "DEMO_BOTS", ("greedy", "random"))
    monkeypatch.setattr(demo, "DEMO_SIZES", (5,))
    monkeypatch.setattr(demo, "DEMO_BUDGETS", (6.0,))
    monkeypatch.setattr(demo, "DEMO_MAX_MOVES", 30)
    monkeypatch.setattr(
        demo, "DEMO_SWEEP",
        {"bots": ["greedy"], "sizes": [5, 7], "budgets": [6.0, 8.0], "games_per_point": 3,
         "max_rounds": 10},
    )
    monkeypatch.setattr(
        demo, "DEMO_THRESHOLD",
        {"family": "one_shot", "bots": ["greedy"], "sizes": [4, 5], "rates": [0.2, 0.4],
         "shots_per_point": 3},
    )


@pytest.mark.django_db
def test_it_fills_an_empty_database_once(small_demo: None) -> None:
    first = run()

    assert "Demo data: 4 bot games" in first
    assert "Running a small one-shot threshold sweep" in first
    games = Game.objects.all()
    assert games.count() == 4
    assert {g.bot_name for g in games} == {"greedy", "random"}
    assert all(g.client_info == demo.DEMO_MARK for g in games)
    assert all(g.status != Game.Status.ACTIVE for g in games)
    # Played for real through the services: every game has its events.
    assert Event.objects.filter(kind="move").count() == sum(g.moves_count for g in games)
    sweep = Sweep.objects.get(family="")
    assert sweep.status == Sweep.Status.DONE
    threshold = Sweep.objects.get(family="one_shot")
    assert threshold.status == Sweep.Status.DONE
    assert threshold.points.count() == 4
    assert DemoData.objects.get().sweep_id == sweep.pk
    counted = sum(
        row.lost + row.censored for row in LifetimeCount.objects.filter(day=ALL_TIME)
    )
    assert counted == 4

    assert "No demo data added" in run()
    assert Game.objects.count() == 4
    assert Sweep.objects.count() == 2


@pytest.mark.django_db
def test_it_leaves_a_database_with_games_alone(small_demo: None) -> None:
    finished_game(player=new_player(), rounds=3)

    assert "already holds games" in run()
    assert Game.objects.count() == 1
    assert not DemoData.objects.exists()


@pytest.mark.slow
@pytest.mark.django_db
def test_it_makes_the_full_demo() -> None:
    assert "Demo data: 24 bot games" in run()
    assert {g.bot_name for g in Game.objects.all()} == set(demo.DEMO_BOTS)
