"""Threshold sweeps of the rule families: shots in chunks, resumable, both estimates."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.engine.families import play_shot, shot_seed, threshold_rules
from results import tasks
from results.management.commands.threshold import parse_rates
from results.models import Sweep, SweepChunk, SweepGame, SweepPoint, SweepThreshold
from results.selectors import sweep_missing_chunks, sweep_progress, threshold_results
from results.services import SweepError, sweep_run_chunk, sweep_start, threshold_sweep_create

pytestmark = pytest.mark.django_db

GRID = {"family": "one_shot", "bots": ["greedy"], "sizes": [4, 5], "rates": [0.1, 0.25, 0.4]}


def _outcomes(sweep: Sweep) -> list[tuple[object, ...]]:
    return list(
        SweepGame.objects.filter(chunk__point__sweep=sweep)
        .order_by("chunk__point__bot_name", "chunk__point__size", "chunk__point__rate",
                  "game_index")
        .values_list("chunk__point__bot_name", "chunk__point__size", "chunk__point__rate",
                     "game_index", "seed", "rounds", "moves", "lost", "censored")
    )


def test_a_one_shot_sweep_stores_the_shots_the_seeds_replay():
    sweep = threshold_sweep_create(**GRID, shots_per_point=5, seed=17, chunk_size=2)
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.DONE
    outcomes = _outcomes(sweep)
    assert len(outcomes) == 2 * 3 * 5
    for bot, size, rate, index, seed, rounds, moves, lost, censored in outcomes:
        expected = shot_seed(seed=17, size=size, rate=rate, shot=index)
        assert seed % 2**64 == expected
        shot = play_shot(rules=threshold_rules(family="one_shot", size=size, rate=rate),
                         bot=bot, seed=expected)
        assert (rounds, moves, lost, censored) == (1, shot.moves, shot.failed, shot.censored)
    for point in SweepPoint.objects.filter(sweep=sweep):
        assert point.summarised
        assert point.trials == point.games_done - point.censored == 5
        assert point.failures == point.losses
        assert point.failure_ci_low <= point.failure_rate <= point.failure_ci_high
    threshold = SweepThreshold.objects.get(sweep=sweep)
    assert threshold.message
    assert threshold.note == threshold.message[:300]


def test_the_chunk_size_and_the_order_of_chunks_change_nothing():
    one = sweep_start(sweep=threshold_sweep_create(**GRID, shots_per_point=4, seed=9,
                                                   chunk_size=4))
    other = threshold_sweep_create(**GRID, shots_per_point=4, seed=9, chunk_size=1)
    for spec in reversed(sweep_missing_chunks(sweep=other)):  # as workers might finish them
        assert sweep_run_chunk(point_id=spec.point_id, index=spec.index)
    other.refresh_from_db()
    assert other.status == Sweep.Status.DONE
    assert _outcomes(one) == _outcomes(other)


def test_an_interrupted_threshold_sweep_resumes_with_only_its_missing_chunks():
    sweep = threshold_sweep_create(**GRID, shots_per_point=4, seed=5, chunk_size=2)
    missing = sweep_missing_chunks(sweep=sweep)
    assert len(missing) == 12
    for spec in missing[:3]:
        assert sweep_run_chunk(point_id=spec.point_id, index=spec.index)
    stored = dict(SweepChunk.objects.values_list("pk", "finished_at"))
    assert sweep_progress(sweep=sweep).chunks_done == 3
    out = io.StringIO()
    call_command("threshold", "--resume", str(sweep.pk), "--no-progress", stdout=out)
    sweep.refresh_from_db()
    assert sweep.status == Sweep.Status.DONE
    for pk, finished_at in stored.items():
        assert SweepChunk.objects.get(pk=pk).finished_at == finished_at
    assert SweepGame.objects.filter(chunk__point__sweep=sweep).count() == 6 * 4
    assert "greedy:" in out.getvalue()


def test_a_redelivered_chunk_task_stores_nothing_twice():
    sweep = threshold_sweep_create(family="one_shot", bots=["greedy"], sizes=[4], rates=[0.2],
                                   shots_per_point=3, seed=6)
    point = SweepPoint.objects.get(sweep=sweep)
    assert tasks.run_sweep_chunk.apply(args=[point.pk, 0]).get() is True
    assert tasks.run_sweep_chunk.apply(args=[point.pk, 0]).get() is False
    assert SweepGame.objects.filter(chunk__point=point).count() == 3
    sweep.refresh_from_db()
    assert sweep.status == Sweep.Status.DONE
    (threshold,) = SweepThreshold.objects.filter(sweep=sweep)
    assert threshold.crossing is None
    assert threshold.message.startswith("no threshold")


def test_a_sustained_sweep_measures_the_loss_rate_per_round():
    sweep = threshold_sweep_create(family="sustained", bots=["greedy"], sizes=[4, 5],
                                   rates=[0.05, 0.2], shots_per_point=6, seed=4,
                                   moves_per_cell=0.5, max_rounds=40)
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.DONE
    assert sweep.moves_per_cell == 0.5
    for point in SweepPoint.objects.filter(sweep=sweep):
        rounds = sum(SweepGame.objects.filter(chunk__point=point).values_list("rounds",
                                                                              flat=True))
        assert point.losses + point.censored == 6
        assert point.trials is not None
        assert 0 < point.trials <= rounds
        assert point.mean_rounds is not None
        if point.trials:
            assert point.failure_ci_low <= point.failure_rate <= point.failure_ci_high


def test_the_command_prints_both_estimates_and_writes_json(tmp_path: Path):
    out = io.StringIO()
    target = tmp_path / "threshold.json"
    call_command("threshold", "--family", "one-shot", "--bots", "greedy,random",
                 "--sizes", "4,5", "--rates", "0.1:0.4:3", "--shots", "4", "--seed", "8",
                 "--json", str(target), "--no-progress", stdout=out)
    text = out.getvalue()
    assert "family one_shot" in text
    assert "P(failure)" in text
    assert "crossing of adjacent-L curves" in text
    assert "finite-size scaling" in text
    results = json.loads(target.read_text())
    assert [r["bot"] for r in results] == ["greedy", "random"]
    for result in results:
        assert result["family"] == "one_shot"
        assert set(result["threshold"]) >= {"crossing", "scaling"}
        assert set(result["threshold"]["crossing"]) >= {"value", "lower", "upper"}
        assert set(result["threshold"]["scaling"]) >= {"p_th", "lower", "upper", "nu",
                                                       "chi2_dof"}
        assert [(p["size"], p["rate"]) for p in result["points"]] == [
            (4, 0.1), (4, 0.25), (4, 0.4), (5, 0.1), (5, 0.25), (5, 0.4)
        ]
        assert all(p["shots"] == 4 for p in result["points"])
        assert result["message"]
    sweep = Sweep.objects.get(family="one_shot")
    assert threshold_results(sweep=sweep) == results


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "--family is required"),
        (["--family", "one-shot", "--bots", "nobody"], "unknown bot"),
        (["--family", "one-shot", "--rates", "0.3:0.1:5"], "START must be below STOP"),
        (["--family", "one-shot", "--rates", "0.1:0.3"], "START:STOP:COUNT"),
        (["--family", "one-shot", "--rates", "a,b"], "not a comma-separated list"),
        (["--family", "one-shot", "--rates", "0.1,2.5"], "error_rate"),
        (["--family", "one-shot", "--sizes", "8,65"], "sizes must be integers from 3 to 64"),
        (["--family", "one-shot", "--sizes", "8,8"], "must not repeat"),
        (["--family", "one-shot", "--moves-per-cell", "2"], "sustained family"),
        (["--family", "sustained", "--moves-per-cell", "-1"], "moves_per_cell"),
        (["--family", "one-shot", "--shots", "0"], "shots per point"),
        (["--family", "one-shot", "--json", "/nonexistent/folder/x.json"], "does not exist"),
        (["--resume", "00000000-0000-0000-0000-000000000000"], "no threshold sweep"),
    ],
)
def test_the_command_explains_bad_arguments_in_one_line(arguments: list[str], message: str):
    with pytest.raises(CommandError, match=message) as caught:
        call_command("threshold", *arguments, "--no-progress", stdout=io.StringIO())
    assert "\n" not in str(caught.value)
    assert not Sweep.objects.exists()


def test_rates_are_parsed_as_a_range_or_a_list():
    assert parse_rates("0.10:0.30:11") == [0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26,
                                           0.28, 0.3]
    assert parse_rates("0.3, 0.1") == [0.1, 0.3]
    with pytest.raises(SweepError):
        threshold_sweep_create(family="two-shot", bots=["greedy"], sizes=[4], rates=[0.1],
                               shots_per_point=1, seed=1)


def test_a_chunk_past_the_task_time_limit_fails_the_sweep_saying_what_to_do(monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    from results.services import sweeps

    def too_slow(**kwargs: object) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(sweeps.run, "play_shot", too_slow)
    sweep = threshold_sweep_create(family="one_shot", bots=["greedy"], sizes=[4], rates=[0.2],
                                   shots_per_point=3, seed=6)
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.FAILED
    assert "took longer than the task time limit" in sweep.error
    assert "--resume" in sweep.error
    assert not SweepGame.objects.filter(chunk__point__sweep=sweep).exists()


def test_one_shot_shots_stop_after_3_moves_per_cell_by_default(monkeypatch):
    from games.engine.families import ShotOutcome
    from results.services import sweeps

    seen = []

    def going_round_in_circles(*, rules: object, bot: str, seed: int, max_rounds: int,
                               weights: object = None) -> ShotOutcome:
        # A decoder that never cleans the board plays until the stop: max_rounds L^2 moves.
        seen.append(max_rounds)
        moves = max_rounds * 12 * 12
        return ShotOutcome(seed=seed, failed=False, rounds=1, moves=moves, score=moves,
                           censored=True)

    monkeypatch.setattr(sweeps.run, "play_shot", going_round_in_circles)
    stuck = threshold_sweep_create(family="one_shot", bots=["clustering"], sizes=[12],
                                   rates=[0.26], shots_per_point=2, seed=2016)
    assert stuck.max_rounds == 3
    stuck = sweep_start(sweep=stuck)
    assert stuck.status == Sweep.Status.DONE
    assert seen == [3, 3]
    assert all(game.censored and game.moves == 3 * 12 * 12
               for game in SweepGame.objects.filter(chunk__point__sweep=stuck))
    point = SweepPoint.objects.get(sweep=stuck)
    assert (point.censored, point.trials) == (2, 0)
    assert "every game was censored" in SweepThreshold.objects.get(sweep=stuck).message
    sustained = threshold_sweep_create(family="sustained", bots=["greedy"], sizes=[4],
                                       rates=[0.1], shots_per_point=1, seed=1)
    assert sustained.max_rounds == 1000


def _command_json(tmp_path: Path, name: str, seed: int) -> list[dict[str, Any]]:
    target = tmp_path / f"{name}.json"
    call_command("threshold", "--family", "one-shot", "--bots", "clustering",
                 "--sizes", "8,12,16", "--rates", "0.22:0.38:3", "--shots", "6",
                 "--seed", str(seed), "--json", str(target), "--no-progress",
                 stdout=io.StringIO())
    results: list[dict[str, Any]] = json.loads(target.read_text())
    for result in results:
        result.pop("sweep")  # a new sweep each time
    return results


def test_the_same_seed_reproduces_the_clustering_sweep_and_its_estimates(tmp_path: Path):
    first = _command_json(tmp_path, "first", 2016)
    again = _command_json(tmp_path, "again", 2016)
    assert again == first
    assert [r["bot"] for r in first] == ["clustering"]
    assert len(first[0]["points"]) == 9
    other = _command_json(tmp_path, "other", 2017)
    assert [p["failures"] for p in other[0]["points"]] != [
        p["failures"] for p in first[0]["points"]]


def _known_threshold(monkeypatch: pytest.MonkeyPatch, p_th: float) -> None:
    """Shots that fail with probability 1 / (1 + exp(-4 L (p - p_th))), drawn from their seed."""
    import math

    from games.engine.families import ShotOutcome
    from results.services import sweeps

    def shot(*, rules: Any, bot: str, seed: int, max_rounds: int,
             weights: object = None) -> ShotOutcome:
        failure = 1 / (1 + math.exp(-4 * rules.size * (rules.error_rate - p_th)))
        return ShotOutcome(seed=seed, failed=(seed >> 11) / 2**53 < failure, rounds=1,
                           moves=10, score=10, censored=False)

    monkeypatch.setattr(sweeps.run, "play_shot", shot)


def _threshold_output(rates: str) -> str:
    out = io.StringIO()
    call_command("threshold", "--family", "one-shot", "--bots", "clustering", "--sizes", "8,16",
                 "--rates", rates, "--shots", "40", "--seed", "4", "--no-progress", stdout=out)
    return out.getvalue().split("\nclustering:\n", 1)[1]


def test_a_grid_that_stops_at_the_crossing_flags_it_at_the_edge(monkeypatch):
    _known_threshold(monkeypatch, 0.29)
    text = _threshold_output("0.10:0.30:11")
    assert "(at the edge of the range)" in text
    assert "widen the range" in text


def test_a_grid_below_the_crossing_gives_the_direction_and_no_number(monkeypatch):
    _known_threshold(monkeypatch, 0.29)
    text = _threshold_output("0.10:0.24:8")
    assert "crossing of adjacent-L curves: none" in text
    assert "no threshold between 0.1 and 0.24: failure falls with L" in text
    assert "threshold p =" not in text


def test_a_grid_that_brackets_the_crossing_finds_it_inside_by_both_methods(monkeypatch):
    _known_threshold(monkeypatch, 0.29)
    _threshold_output("0.22:0.36:8")
    (threshold,) = SweepThreshold.objects.all()
    assert not threshold.crossing_at_edge
    assert threshold.crossing_low < threshold.crossing < threshold.crossing_high
    assert threshold.crossing_low < 0.29 < threshold.crossing_high
    assert threshold.methods_agree
