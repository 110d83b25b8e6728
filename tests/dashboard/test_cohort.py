"""A cohort is one rule group (``games.rulesets.RULE_GROUP_FIELDS``) and one source."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from dashboard.filters import Filters
from dashboard.models import ALL_TIME, HUMAN, Cohort, DailyCount, LifetimeCount, Watermark
from dashboard.selectors import cohort_histograms, cohort_label
from dashboard.selectors.mine import player_marks
from dashboard.selectors.survival import plot_survival
from dashboard.selectors.view import plot_view
from dashboard.services import GAMES, aggregates_refresh
from games.engine import RuleSet
from games.models import Game, Player
from games.rulesets import RULE_GROUP_FIELDS
from tests.dashboard.helpers import finished_game, new_player

NOW = datetime.timedelta(0)


def with_moves(game: Game, moves_per_round: int) -> Game:
    """``game`` played with ``moves_per_round`` moves between noise rounds."""
    rules = RuleSet(size=game.size, noise_budget=game.noise_budget, moves_per_round=moves_per_round)
    Game.objects.filter(pk=game.pk).update(moves_per_round=moves_per_round, rules_key=rules.key)
    game.refresh_from_db()
    return game


def two_rule_sets(player: Player) -> None:
    """Two games at L=7, b=6 (5 moves a round, lost after 4 rounds) and one with 3 moves a
    round (lost after 9): the same rules but for the moves per round."""
    finished_game(player=player, rounds=4)
    finished_game(player=player, rounds=4)
    with_moves(finished_game(player=player, rounds=9), 3)


def test_every_rule_group_field_is_part_of_a_cohorts_unique_key() -> None:
    fields = {field.name for field in Cohort._meta.get_fields()}
    (unique,) = Cohort._meta.constraints
    assert set(RULE_GROUP_FIELDS) <= fields
    assert set(unique.fields) == {*RULE_GROUP_FIELDS, "source"}  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_games_differing_only_in_moves_per_round_land_in_two_cohorts() -> None:
    two_rule_sets(new_player())
    aggregates_refresh(settle=NOW)

    cohorts = {c.moves_per_round: c for c in Cohort.objects.filter(source=HUMAN)}
    assert sorted(cohorts) == [3, 5]
    games = {
        moves: DailyCount.objects.get(cohort=cohort, day=ALL_TIME).games
        for moves, cohort in cohorts.items()
    }
    assert games == {3: 1, 5: 2}
    rounds = {
        moves: sorted(
            LifetimeCount.objects.filter(cohort=cohort, day=ALL_TIME).values_list("rounds", "lost")
        )
        for moves, cohort in cohorts.items()
    }
    assert rounds == {3: [(9, 1)], 5: [(4, 2)]}


@pytest.mark.django_db
def test_the_plots_label_a_cohort_of_other_moves_per_round() -> None:
    two_rule_sets(new_player())
    aggregates_refresh(settle=NOW)

    cohorts, _ = cohort_histograms(filters=Filters())
    labels = sorted(f"{c.moves_per_round}: {c}" for c in cohorts.values())
    assert labels == ["3: z10 L=7 budget=6 moves=3 human", "5: z10 L=7 budget=6 moves=5 human"]
    assert sorted(cohort_label(c) for c in cohorts.values()) == [
        "human L=7 b=6",
        "human L=7 b=6 m=3",
    ]


@pytest.mark.django_db
def test_the_survival_plot_offers_each_rule_set_as_a_family_of_its_own() -> None:
    two_rule_sets(new_player())
    aggregates_refresh(settle=NOW)

    data = plot_survival(filters=Filters()).data
    view = plot_view(name="survival", data=data, filters=Filters())
    # The original rules' key reads as it did before moves per round told cohorts apart.
    assert sorted((f["key"], f["label"], f["games"]) for f in view["families"]) == [
        ("human|z10|6.0", "players, b=6", 2),
        ("human|z10|6.0|3", "players, b=6 m=3", 1),
    ]


@pytest.mark.django_db
def test_a_players_game_is_placed_among_the_games_of_its_own_moves_per_round() -> None:
    player = new_player()
    two_rule_sets(player)
    aggregates_refresh(settle=NOW)

    marks = {
        mark["label"]: mark["percentile"]
        for mark in player_marks(player=player, filters=Filters())["games"]
    }
    # Alone in its cohort, the 9-round game ties with itself (50%); pooled with the two
    # 4-round games it would have outlasted them (83.3%).
    assert marks == {"human L=7 b=6": 50.0, "human L=7 b=6 m=3": 50.0}


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_everything_again_by_the_new_cohorts() -> None:
    """dashboard 0003: the old cohorts mixed move counts; their counts are emptied and the
    watermark moved back, so the next refresh counts every game by its whole rule group."""
    two_rule_sets(new_player())
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("dashboard", "0002_player_days_count_players")])
        old = executor.loader.project_state(("dashboard", "0002_player_days_count_players")).apps
        old_cohort = old.get_model("dashboard", "Cohort").objects.create(
            variant="z10", size=7, noise_budget=6.0, source=HUMAN
        )
        old.get_model("dashboard", "DailyCount").objects.create(
            cohort=old_cohort, day=ALL_TIME, games=3
        )
        old.get_model("dashboard", "Watermark").objects.create(
            name=GAMES,
            last_at=datetime.datetime.now(tz=datetime.UTC),
            last_id="00000000-0000-0000-0000-000000000000",
            absorbed=3,
        )
        executor = MigrationExecutor(connection)
        executor.migrate([("dashboard", "0003_cohort_moves_per_round")])
        assert not Cohort.objects.exists()
        assert not DailyCount.objects.exists()
        assert Watermark.objects.get(name=GAMES).last_at is None
        aggregates_refresh(settle=NOW)
        assert sorted(Cohort.objects.values_list("moves_per_round", flat=True)) == [3, 5]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
