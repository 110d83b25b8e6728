"""What the dashboard says in words and figures: plurals, the demo note, rounding once."""

from __future__ import annotations

import datetime
import html as html_lib
import re

import pytest
from django.test import Client

from dashboard.models import DemoData
from dashboard.services import aggregates_refresh
from results.models import SweepThreshold
from tests.dashboard.helpers import DAY, add_threshold_sweep, finished_game, new_player

pytestmark = pytest.mark.django_db

NOW = datetime.timedelta(0)


def _activity_caption(client: Client) -> str:
    body = client.get("/dashboard/data/activity/").json()
    return str(body["view"]["families"][0]["caption"])


def test_one_players_game_is_singular(client: Client) -> None:
    finished_game(player=new_player(), rounds=3)
    finished_game(player=new_player(), rounds=4, bot="greedy")
    aggregates_refresh(settle=NOW)
    caption = _activity_caption(client)
    assert caption.startswith("1 player's game and 1 bot game over 1 day"), caption
    assert "players' games" not in caption


def test_several_players_games_are_plural(client: Client) -> None:
    finished_game(player=new_player(), rounds=3)
    finished_game(player=new_player(), rounds=5)
    finished_game(player=new_player(), rounds=4, bot="greedy")
    finished_game(player=new_player(), rounds=6, bot="greedy")
    aggregates_refresh(settle=NOW)
    assert _activity_caption(client).startswith("2 players' games and 2 bot games")


def test_the_demo_note_counts_the_players_games(client: Client) -> None:
    DemoData.objects.create(id=1, created_at=DAY, games=24)
    html = " ".join(html_lib.unescape(client.get("/dashboard/").content.decode()).split())
    assert "24 bot games" in html
    assert "there are no players' games in the plots" in html

    finished_game(player=new_player(), rounds=3)
    # Not research data: no consent. The note counts what the plots count.
    finished_game(player=new_player(consent=False), rounds=3)
    html = " ".join(html_lib.unescape(client.get("/dashboard/").content.decode()).split())
    assert "The plots also count 1 player's game played here since." in html
    assert "no players' games" not in html

    finished_game(player=new_player(), rounds=4)
    html = " ".join(html_lib.unescape(client.get("/dashboard/").content.decode()).split())
    assert "The plots also count 2 players' games played here since." in html


def test_the_threshold_table_and_message_read_the_same_chi2(client: Client) -> None:
    sweep = add_threshold_sweep()
    # A value whose two-decimal rounding differs from the rounding of its 3-decimal rounding.
    SweepThreshold.objects.filter(sweep=sweep).update(
        scaling_chi2_dof=1.2553, message="finite-size scaling (chi2/dof = 1.26)"
    )
    body = client.get("/dashboard/data/spanning/").json()
    (threshold,) = body["thresholds"]
    in_text = re.search(r"chi2/dof = ([0-9.]+)", threshold["message"])
    assert in_text is not None
    # The table formats the value with two decimals (dashboard.js: toFixed(2)).
    assert f"{threshold['chi2_dof']:.2f}" == in_text.group(1) == "1.26"


def _curve(source: str, size: int, games: int, survival: list[float], budget: float) -> dict:
    rounds = list(range(1, len(survival) + 1))
    hazard = [0.0 if s == 1.0 else 0.5 for s in survival]
    return {
        "source": source,
        "variant": "z10",
        "size": size,
        "noise_budget": budget,
        "label": f"{source} L={size} b={budget:g}",
        "games": games,
        "rounds": rounds,
        "survival": survival,
        "lower": survival,
        "upper": survival,
        "hazard": hazard,
        "at_risk": [games] * len(rounds),
        "plateau": None,
    }


@pytest.mark.parametrize("plot", ["survival", "hazard"])
def test_the_plot_opens_on_curves_that_show_a_loss(plot: str) -> None:
    """As many games in a family with no loss (a flat 100% line) as in one with losses."""
    from dashboard.filters import Filters
    from dashboard.selectors.view import plot_view

    flat = [1.0, 1.0, 1.0]
    curves = [
        _curve("clustering", 5, 2, flat, 4.0),
        _curve("clustering", 7, 2, flat, 4.0),
        _curve("random", 5, 2, [1.0, 0.5, 0.0], 4.0),
        _curve("random", 7, 2, flat, 4.0),
    ]
    view = plot_view(name=plot, data={"curves": curves}, filters=Filters())
    assert [f["label"] for f in view["families"]] == ["clustering, b=4", "random, b=4"]
    assert view["default"] == 1
    # With no loss anywhere, the most games still open first.
    view = plot_view(name=plot, data={"curves": curves[:2] + curves[3:]}, filters=Filters())
    assert view["default"] == 0
