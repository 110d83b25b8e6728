"""One definition of research data, and the three places that count it agree.

The dashboard's aggregates, the research exports and the sweeps' human
summaries must all count the same games: ``Game.objects.research_data()``.
"""

from __future__ import annotations

import datetime

import pytest

from dashboard.models import ALL_TIME, DailyCount, LifetimeCount
from dashboard.services import aggregates_refresh
from games.models import Game
from research.exports.filters import ExportFilters, filtered_queryset
from research.exports.tables import all_tables
from results.selectors import human_lifetimes
from tests.dashboard.helpers import finished_game, new_player

pytestmark = pytest.mark.django_db


def mixed_games() -> dict[str, Game]:
    """One finished game of every kind the definition has to decide on."""
    consenting, refusing = new_player(), new_player(consent=False)
    return {
        "normal": finished_game(player=consenting, rounds=4),
        "normal_abandoned": finished_game(player=consenting, rounds=3, lost=False),
        "unconsented": finished_game(player=refusing, rounds=5),
        "excluded": finished_game(player=consenting, rounds=6, excluded=True),
        "practice": finished_game(player=consenting, rounds=7, mode=Game.Mode.PRACTICE),
        "bot": finished_game(player=consenting, rounds=8, bot="greedy"),
        # A bot has nobody to ask: its games count without consent.
        "bot_unconsented": finished_game(player=refusing, rounds=9, bot="greedy", consent=False),
        "bot_excluded": finished_game(player=consenting, rounds=10, bot="greedy", excluded=True),
        "bot_practice": finished_game(
            player=consenting, rounds=11, bot="greedy", mode=Game.Mode.PRACTICE
        ),
    }


RESEARCH = {"normal", "normal_abandoned", "bot", "bot_unconsented"}
HUMAN_RESEARCH = {"normal", "normal_abandoned"}


def names(games: dict[str, Game], ids: set) -> set[str]:
    return {name for name, game in games.items() if game.pk in ids}


def test_research_data_is_not_excluded_consented_or_a_bot_and_not_practice() -> None:
    games = mixed_games()
    ids = set(Game.objects.research_data().values_list("pk", flat=True))
    assert names(games, ids) == RESEARCH
    humans = set(Game.objects.research_data().human().values_list("pk", flat=True))
    assert names(games, humans) == HUMAN_RESEARCH


def test_each_include_flag_drops_one_condition() -> None:
    games = mixed_games()

    def selected(**flags: bool) -> set[str]:
        return names(games, set(Game.objects.research_data(**flags).values_list("pk", flat=True)))

    assert selected(include_excluded=True) == RESEARCH | {"excluded", "bot_excluded"}
    assert selected(include_unconsented=True) == RESEARCH | {"unconsented"}
    assert selected(include_practice=True) == RESEARCH | {"practice", "bot_practice"}
    assert selected(
        include_excluded=True, include_unconsented=True, include_practice=True
    ) == set(games)


def test_the_dashboard_the_exports_and_the_sweeps_count_the_same_games() -> None:
    games = mixed_games()
    research = set(Game.objects.research_data().values_list("pk", flat=True))

    exported = {
        row.pk for row in filtered_queryset(table=all_tables()["games"], filters=ExportFilters())
    }

    report = aggregates_refresh(settle=datetime.timedelta(0))
    dashboard_games = sum(
        DailyCount.objects.filter(day=ALL_TIME).values_list("games", flat=True)
    )
    # Every game here has its own number of rounds: the lifetimes name the games.
    dashboard_rounds = sorted(
        LifetimeCount.objects.filter(day=ALL_TIME).values_list("rounds", flat=True)
    )

    human = human_lifetimes(size=7)

    assert exported == research
    assert report.counted_games == len(research) == dashboard_games
    assert sorted(
        rounds for rounds, _ in human
    ) == sorted(games[name].rounds for name in HUMAN_RESEARCH)
    assert dashboard_rounds == sorted(games[name].rounds for name in RESEARCH)
