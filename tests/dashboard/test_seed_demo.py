"""manage.py seed_demo: real bot games and a real sweep in an empty database, once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

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
        demo, "DEMO_THRESHOLDS",
        ({"family": "planar", "modulus": 2, "bots": ["matching"], "sizes": [4, 6],
          "rates": [0.08, 0.12], "shots_per_point": 20},
         {"family": "one_shot", "bots": ["greedy"], "sizes": [4, 5], "rates": [0.2, 0.4],
          "shots_per_point": 3}),
    )


@pytest.mark.django_db
def test_it_fills_an_empty_database_once(small_demo: None) -> None:
    first = run()

    assert "Demo data: 4 bot games" in first
    # It says first what it makes and how long that may take, then reports each step as it
    # ends, with the time so far: never "a few seconds" for what may take a minute.
    lines = first.splitlines()
    assert lines[0].startswith(
        "Making the demo data (once, for an empty database): 4 bot games, a budget sweep "
        "and 2 threshold sweeps, in 5 steps."
    )
    assert "to a minute on a busy one" in lines[0]
    assert "a few seconds" not in first
    steps = [line for line in lines if line.startswith("[")]
    assert [line.split("]")[0] + "]" for line in steps] == [f"[{n}/5]" for n in range(1, 6)]
    assert steps[0].startswith("[1/5] greedy bot games at 5x5: 2 games played so far (")
    assert steps[3].startswith("[4/5] planar threshold sweep (")
    assert all(line.endswith(" s)") for line in steps)
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
    # The planar code's sweep: the QEC threshold plot leads with it.
    planar = Sweep.objects.get(family="planar")
    assert planar.status == Sweep.Status.DONE
    assert planar.modulus == 2
    assert planar.bots == ["matching"]
    assert planar.points.count() == 4
    assert all(p.games_done == 20 for p in planar.points.all())
    assert DemoData.objects.get().sweep_id == sweep.pk
    counted = sum(
        row.lost + row.censored for row in LifetimeCount.objects.filter(day=ALL_TIME)
    )
    assert counted == 4

    assert "No demo data added" in run()
    assert Game.objects.count() == 4
    assert Sweep.objects.count() == 3


@pytest.mark.django_db
def test_the_demo_fills_both_threshold_plots(small_demo: None, client: Client) -> None:
    run()

    threshold = client.get("/dashboard/data/threshold/").json()
    assert threshold["criterion"] == "logical"
    assert threshold["sweep"]["family"] == "planar"
    assert threshold["modulus"] == 2
    assert threshold["hashing_bound"] == pytest.approx(0.11, abs=1e-3)
    assert {s["size"] for s in threshold["series"]} == {4, 6}
    spanning = client.get("/dashboard/data/spanning/").json()
    assert spanning["criterion"] == "spanning"
    assert spanning["sweep"]["family"] == "one_shot"


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
    planar = Sweep.objects.get(family="planar")
    assert planar.status == Sweep.Status.DONE
    assert planar.thresholds.get().crossing is not None
