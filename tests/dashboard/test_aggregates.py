"""The aggregate tables: counts from known games, incremental runs, concurrency."""

from __future__ import annotations

import datetime
import random
import threading

import pytest
from django.db import connection

from dashboard.models import (
    ALL_TIME,
    HUMAN,
    Cohort,
    DailyCount,
    LifetimeCount,
    PlayerBest,
    PlayerDay,
    Watermark,
)
from dashboard.services import (
    AGGREGATE_MODELS,
    GAMES,
    aggregates_rebuild,
    aggregates_refresh,
    source_kind,
)
from games.models import Game
from tests.dashboard.helpers import DAY, finished_game, new_player

NOW = datetime.timedelta(0)
NEXT_DAY = DAY + datetime.timedelta(days=1)


def lifetimes(day: datetime.date = ALL_TIME, source: str = HUMAN) -> dict[int, tuple[int, int]]:
    counts: dict[int, tuple[int, int]] = {}
    for row in LifetimeCount.objects.filter(day=day, cohort__source=source):
        lost, censored = counts.get(row.rounds, (0, 0))
        counts[row.rounds] = (lost + row.lost, censored + row.censored)
    return counts


def daily(day: datetime.date, source: str = HUMAN) -> dict[str, int]:
    row = DailyCount.objects.get(day=day, cohort__source=source)
    return {
        name: getattr(row, name)
        for name in ("games", "lost", "moves", "score_sum", "rounds_sum")
    }


def snapshot() -> dict[str, list[tuple]]:
    """Every aggregate row as plain values, cohorts by their key rather than their id."""
    keys = {c.pk: (c.variant, c.size, c.noise_budget, c.source) for c in Cohort.objects.all()}
    tables = {}
    for model in AGGREGATE_MODELS:
        fields = [f.attname for f in model._meta.concrete_fields if f.attname != "id"]
        rows = []
        for values in model.objects.values_list(*fields):
            row = dict(zip(fields, values, strict=True))
            if "cohort_id" in row:
                row["cohort_id"] = keys[row["cohort_id"]]
            rows.append(tuple(sorted(row.items(), key=lambda item: item[0])))
        tables[model.__name__] = sorted(rows, key=repr)
    return tables


@pytest.mark.django_db
def test_it_counts_lifetimes_games_and_players_of_known_games() -> None:
    alice, bob = new_player(), new_player()
    finished_game(player=alice, rounds=2, moves=9)
    finished_game(player=alice, rounds=3, moves=14)
    finished_game(player=bob, rounds=3, lost=False, moves=12)
    finished_game(player=bob, rounds=5, moves=24, ended_at=NEXT_DAY)

    report = aggregates_refresh(settle=NOW)

    assert (report.games, report.counted_games) == (4, 4)
    assert lifetimes() == {2: (1, 0), 3: (1, 1), 5: (1, 0)}
    assert lifetimes(DAY.date()) == {2: (1, 0), 3: (1, 1)}
    assert lifetimes(NEXT_DAY.date()) == {5: (1, 0)}
    assert daily(DAY.date()) == {
        "games": 3, "lost": 2, "moves": 35, "score_sum": 35, "rounds_sum": 8,
    }
    assert daily(NEXT_DAY.date()) == {
        "games": 1, "lost": 1, "moves": 24, "score_sum": 24, "rounds_sum": 5,
    }
    assert daily(ALL_TIME)["games"] == 4
    best = {row.player_id: (row.games, row.best_score, row.best_rounds)
            for row in PlayerBest.objects.all()}
    assert best == {alice.pk: (2, 14, 3), bob.pk: (2, 24, 5)}
    days = {(row.player_id, row.day): (row.games, row.best_score, row.best_rounds)
            for row in PlayerDay.objects.all()}
    assert days == {
        (alice.pk, DAY.date()): (2, 14, 3),
        (bob.pk, DAY.date()): (1, 12, 3),
        (bob.pk, NEXT_DAY.date()): (1, 24, 5),
    }


@pytest.mark.django_db
def test_it_leaves_out_games_that_are_not_research_data() -> None:
    consenting, refusing = new_player(), new_player(consent=False)
    finished_game(player=consenting, rounds=4)
    finished_game(player=refusing, rounds=5)
    finished_game(player=consenting, rounds=6, excluded=True)
    finished_game(player=consenting, rounds=7, mode=Game.Mode.PRACTICE)
    # A bot needs no consent.
    finished_game(player=refusing, rounds=8, bot="greedy", consent=False)

    report = aggregates_refresh(settle=NOW)

    assert (report.games, report.counted_games) == (5, 2)
    assert lifetimes() == {4: (1, 0)}
    assert lifetimes(source="greedy") == {8: (1, 0)}


@pytest.mark.django_db
def test_it_keeps_one_cohort_per_rule_set_and_source() -> None:
    player = new_player()
    finished_game(player=player, rounds=2)
    finished_game(player=player, rounds=2, size=8)
    finished_game(player=player, rounds=2, budget=4.0)
    finished_game(player=player, rounds=2, variant="phi_lambda")
    finished_game(player=player, rounds=2, bot="clustering")
    finished_game(player=player, rounds=3, bot="clustering")

    aggregates_refresh(settle=NOW)

    assert sorted(Cohort.objects.values_list("variant", "size", "noise_budget", "source")) == [
        ("phi_lambda", 7, 6.0, HUMAN),
        ("z10", 7, 4.0, HUMAN),
        ("z10", 7, 6.0, "clustering"),
        ("z10", 7, 6.0, HUMAN),
        ("z10", 8, 6.0, HUMAN),
    ]
    assert source_kind(source="bot", bot_name="") == "bot"
    assert source_kind(source="api", bot_name="") == HUMAN


@pytest.mark.django_db
def test_it_absorbs_only_new_games_and_is_idempotent() -> None:
    player = new_player()
    finished_game(player=player, rounds=2)
    aggregates_refresh(settle=NOW)
    assert lifetimes() == {2: (1, 0)}

    again = aggregates_refresh(settle=NOW)
    assert (again.games, again.counted_games) == (0, 0)
    assert lifetimes() == {2: (1, 0)}

    finished_game(player=player, rounds=2, ended_at=NEXT_DAY)
    later = aggregates_refresh(settle=NOW)
    assert later.games == 1
    assert lifetimes() == {2: (2, 0)}
    assert Watermark.objects.get(name=GAMES).absorbed == 2


@pytest.mark.django_db
def test_it_waits_for_recent_games_to_settle() -> None:
    from django.utils import timezone

    player = new_player()
    finished_game(player=player, rounds=2, ended_at=timezone.now())
    assert aggregates_refresh().games == 0
    assert aggregates_refresh(settle=NOW).games == 1


@pytest.mark.django_db
def test_it_gives_the_same_counts_incrementally_as_in_one_go() -> None:
    rng = random.Random(7)
    players = [new_player() for _ in range(6)]
    # Games end in time order, as they do on the site (the settle time covers
    # commits in flight); some end at the very same moment.
    moments = sorted(DAY + datetime.timedelta(hours=rng.randrange(0, 24 * 5)) for _ in range(120))
    moments[10:20] = [moments[9]] * 10
    for index, moment in enumerate(moments):
        finished_game(
            player=rng.choice(players),
            rounds=rng.randint(1, 12),
            lost=rng.random() < 0.8,
            ended_at=moment,
            size=rng.choice([5, 7]),
            bot=rng.choice(["", "", "greedy"]),
        )
        following = moments[index + 1] if index + 1 < len(moments) else None
        # Several small runs between arrivals, never in the middle of a tie.
        if following != moment and rng.random() < 0.15:
            aggregates_refresh(settle=NOW, batch_size=rng.choice([1, 3, 7]))
    aggregates_refresh(settle=NOW, batch_size=5)
    incremental = snapshot()

    aggregates_rebuild(settle=NOW)
    assert snapshot() == incremental
    total = sum(lost + censored for lost, censored in lifetimes().values())
    assert total == Game.objects.filter(source=Game.Source.WEB).count()


@pytest.mark.django_db
def test_it_forgets_excluded_games_on_a_rebuild() -> None:
    player = new_player()
    game = finished_game(player=player, rounds=3)
    finished_game(player=player, rounds=4)
    aggregates_refresh(settle=NOW)
    Game.objects.filter(pk=game.pk).update(excluded_from_research=True)

    aggregates_rebuild(settle=NOW)

    assert lifetimes() == {4: (1, 0)}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_counts_each_game_once_under_concurrent_runs() -> None:
    players = [new_player() for _ in range(3)]
    for i in range(200):
        finished_game(
            player=players[i % 3],
            rounds=1 + i % 9,
            ended_at=DAY + datetime.timedelta(minutes=i),
        )
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def run() -> None:
        try:
            start.wait()
            aggregates_refresh(settle=NOW, batch_size=13)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sum(lost + censored for lost, censored in lifetimes().values()) == 200
    assert Watermark.objects.get(name=GAMES).absorbed == 200
    assert daily(ALL_TIME)["games"] == 200
    assert sorted(PlayerBest.objects.values_list("games", flat=True)) == [66, 67, 67]
    assert sum(PlayerDay.objects.values_list("games", flat=True)) == 200
