"""Sweeps: run in process, resumable chunk by chunk, summarised per point and per bot."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games.engine import RuleSet, play_shot
from games.models import Game
from games.services import game_abandon
from results import tasks
from results.analysis.sweeps import game_seed
from results.models import Sweep, SweepChunk, SweepGame, SweepPoint, SweepPointCurve
from results.selectors import (
    human_lifetimes,
    human_points,
    sweep_latest_done,
    sweep_missing_chunks,
    sweep_points,
    sweep_progress,
    sweep_thresholds,
)
from results.services import (
    SweepError,
    sweep_create,
    sweep_run,
    sweep_run_chunk,
    sweep_start,
)
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db

GRID = {"bots": ["greedy", "random"], "sizes": [5, 7], "budgets": [4.0, 6.0]}


def _outcomes(sweep: Sweep) -> list[tuple]:
    return list(
        SweepGame.objects.filter(chunk__point__sweep=sweep)
        .order_by("chunk__point__bot_name", "chunk__point__size", "chunk__point__noise_budget",
                  "game_index")
        .values_list("chunk__point__bot_name", "chunk__point__size",
                     "chunk__point__noise_budget", "game_index", "seed", "rounds", "lost")
    )


def test_a_sweep_runs_every_point_and_reports_progress():
    seen = []
    sweep = sweep_run(**GRID, games_per_point=6, seed=3, chunk_size=4, max_rounds=60,
                      progress=lambda done, total: seen.append((done, total)))
    assert sweep.status == Sweep.Status.DONE
    assert sweep.finished_at is not None
    points = list(sweep_points(sweep=sweep))
    assert len(points) == 2 * 2 * 2
    assert all(p.games_done == p.games_target == 6 for p in points)
    assert all(p.mean_rounds is not None and p.mean_ci_low <= p.mean_rounds <= p.mean_ci_high
               for p in points)
    # Two chunks (4 + 2 games) per point.
    assert SweepChunk.objects.filter(point__sweep=sweep).count() == 16
    assert seen[-1] == (48, 48)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    for point in points:
        rows = list(SweepPointCurve.objects.filter(point=point))
        longest = max(SweepGame.objects.filter(chunk__point=point).values_list("rounds",
                                                                              flat=True))
        assert [r.round for r in rows] == list(range(1, longest + 1))
        assert rows[0].at_risk == 6
        assert sum(r.events for r in rows) == point.losses
    assert sorted(t.bot_name for t in sweep_thresholds(sweep=sweep)) == ["greedy", "random"]
    assert sweep_latest_done() == sweep


def test_the_stored_outcomes_are_the_games_the_seeds_replay():
    sweep = sweep_run(bots=["clustering"], sizes=[5], budgets=[6.0], games_per_point=5, seed=11,
                      chunk_size=2)
    for _, size, budget, index, seed, rounds, lost in _outcomes(sweep):
        assert seed == game_seed(sweep_seed=11, bot_name="clustering", size=size,
                                 noise_budget=budget, index=index)
        again = play_shot(rules=RuleSet(size=size, noise_budget=budget), bot="clustering",
                          seed=seed, max_rounds=sweep.max_rounds)
        assert (again.rounds, again.failed) == (rounds, lost)


def test_the_chunk_size_changes_nothing_but_the_tasks():
    one = sweep_run(**GRID, games_per_point=5, seed=4, chunk_size=5, max_rounds=40)
    other = sweep_run(**GRID, games_per_point=5, seed=4, chunk_size=2, max_rounds=40)
    assert [row[3:] for row in _outcomes(one)] == [row[3:] for row in _outcomes(other)]
    means = [p.mean_rounds for p in sweep_points(sweep=one)]
    assert means == [p.mean_rounds for p in sweep_points(sweep=other)]


def test_an_interrupted_sweep_resumes_with_only_its_missing_chunks():
    sweep = sweep_create(**GRID, games_per_point=4, seed=5, chunk_size=2, max_rounds=40)
    missing = sweep_missing_chunks(sweep=sweep)
    assert len(missing) == 16
    # A crash after three chunks were stored.
    for spec in missing[:3]:
        assert sweep_run_chunk(point_id=spec.point_id, index=spec.index)
    stored = dict(SweepChunk.objects.values_list("pk", "finished_at"))
    assert sweep_progress(sweep=sweep).chunks_done == 3
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.DONE
    # The three stored chunks were kept as they were, the others were run once.
    for pk, finished_at in stored.items():
        assert SweepChunk.objects.get(pk=pk).finished_at == finished_at
    assert SweepChunk.objects.filter(point__sweep=sweep).count() == 16
    assert SweepGame.objects.filter(chunk__point__sweep=sweep).count() == 8 * 4
    assert sweep_missing_chunks(sweep=sweep) == []


def test_a_point_stored_whole_but_not_summarised_is_summarised_when_the_sweep_resumes():
    sweep = sweep_create(bots=["greedy"], sizes=[5, 7], budgets=[6.0], games_per_point=2,
                         seed=8, chunk_size=2, max_rounds=40)
    first, _ = sweep_missing_chunks(sweep=sweep)
    assert sweep_run_chunk(point_id=first.point_id, index=first.index)
    # A crash after the point's last chunk was stored, before its summary was.
    SweepPoint.objects.filter(pk=first.point_id).update(summarised=False, mean_rounds=None)
    sweep = sweep_start(sweep=sweep)
    # Resuming ran only the missing chunk and summarised both points: the sweep is done
    # (before, the first point waited for a chunk that would never run again).
    assert sweep.status == Sweep.Status.DONE
    assert SweepChunk.objects.filter(point__sweep=sweep).count() == 2
    assert all(point.summarised for point in SweepPoint.objects.filter(sweep=sweep))
    assert SweepPoint.objects.get(pk=first.point_id).mean_rounds is not None


def test_a_redelivered_chunk_task_stores_nothing_twice():
    sweep = sweep_create(bots=["greedy"], sizes=[5], budgets=[6.0], games_per_point=3, seed=6)
    point = SweepPoint.objects.get(sweep=sweep)
    assert tasks.run_sweep_chunk.apply(args=[point.pk, 0]).get() is True
    assert tasks.run_sweep_chunk.apply(args=[point.pk, 0]).get() is False
    assert SweepGame.objects.filter(chunk__point=point).count() == 3
    point.refresh_from_db()
    assert point.games_done == 3
    assert point.mean_rounds is not None
    sweep.refresh_from_db()
    assert sweep.status == Sweep.Status.DONE
    thresholds = list(sweep_thresholds(sweep=sweep))
    assert len(thresholds) == 1
    assert thresholds[0].threshold_budget is None
    assert "two budgets" in thresholds[0].note


def test_a_chunk_beyond_the_point_is_refused():
    sweep = sweep_create(bots=["greedy"], sizes=[5], budgets=[6.0], games_per_point=3, seed=6)
    point = SweepPoint.objects.get(sweep=sweep)
    with pytest.raises(SweepError, match="beyond"):
        sweep_run_chunk(point_id=point.pk, index=1)


@pytest.mark.parametrize(("change", "message"), [
    ({"bots": ["nobody"]}, "unknown bot"),
    ({"bots": []}, "at least one"),
    ({"sizes": [2]}, "sizes must be"),
    ({"sizes": [5, 5]}, "must not repeat"),
    ({"budgets": [0.0]}, "budgets must be"),
    ({"budgets": [float("nan")]}, "budgets must be"),
    ({"games_per_point": 0}, "games per point"),
    ({"seed": -1}, "seed"),
    ({"chunk_size": 0}, "chunk size"),
])
def test_bad_sweeps_are_refused_with_the_reason(change, message):
    arguments = {**GRID, "games_per_point": 2, "seed": 1, **change}
    with pytest.raises(SweepError, match=message):
        sweep_create(**arguments)
    assert not Sweep.objects.exists()


def test_an_unplayable_rule_set_fails_the_sweep_with_the_reason(monkeypatch):
    from games.engine import EngineError

    def unplayable(**kwargs):
        raise EngineError("the first board spanned 10000 times in a row")

    monkeypatch.setattr("results.services.sweeps.run.play_shot", unplayable)
    sweep = sweep_run(bots=["greedy"], sizes=[3], budgets=[6.0], games_per_point=2, seed=1)
    assert sweep.status == Sweep.Status.FAILED
    assert "spanned" in sweep.error


def test_the_command_prints_the_table_and_the_thresholds():
    out, err = io.StringIO(), io.StringIO()
    call_command("sweep", "--bots", "greedy", "--sizes", "5,7", "--budgets", "5,7", "--games",
                 "8", "--seed", "2", "--max-rounds", "50", stdout=out, stderr=err)
    text = out.getvalue()
    assert "mean rounds" in text
    assert text.count("greedy ") >= 4
    assert "greedy:" in text
    sweep = Sweep.objects.get()
    assert f"sweep id: {sweep.pk}" in text
    assert "8/8" in err.getvalue() or "32/32" in err.getvalue()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--sizes", "5,seven"], "not a comma-separated list of integers"),
    (["--budgets", ""], "needs a comma-separated list"),
    (["--bots", "nobody"], "unknown bot"),
    (["--games", "0"], "games per point"),
    (["--resume", "00000000-0000-0000-0000-000000000000"], "no sweep"),
])
def test_the_command_explains_bad_input(arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("sweep", *arguments, "--no-progress", stdout=io.StringIO())


def test_the_command_resumes_a_sweep():
    sweep = sweep_create(bots=["greedy"], sizes=[5, 6], budgets=[6.0], games_per_point=2, seed=8)
    out = io.StringIO()
    call_command("sweep", "--resume", str(sweep.pk), "--no-progress", stdout=out)
    sweep.refresh_from_db()
    assert sweep.status == Sweep.Status.DONE
    assert "greedy:" in out.getvalue()


def test_human_games_are_placed_on_the_curves():
    lost = [play(GameFactory(seed=100 + i)) for i in range(3)]
    active = GameFactory(seed=200)
    abandoned = game_abandon(game_id=active.pk, player=active.player)
    play(GameFactory(seed=300, size=8))
    GameFactory(seed=400)  # still active: not counted
    pairs = human_lifetimes(size=7)
    assert sorted(pairs) == sorted([(g.rounds, True) for g in lost] + [(abandoned.rounds, False)])
    points = {p.size: p for p in human_points(n_resamples=50)}
    assert points[7].games == 4
    assert points[8].games == 1
    assert points[7].summary.losses == 3
    assert Game.objects.filter(source=Game.Source.BOT).count() == 0
