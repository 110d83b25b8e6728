"""Writes of threshold sweeps: create, dispatch, run chunks, summarise.

A sweep's games are split into chunks of ``chunk_size`` games of one point;
each chunk is one Celery task. A chunk's outcomes and its ``SweepChunk`` row
are written in one transaction, and the row is unique per (point, index): a
redelivered chunk finds its row and does nothing, and resuming a sweep after
a crash dispatches exactly the chunks without a row.

Completion is counted in the database rather than by a Celery chord: the
worker that stores the last chunk of a point summarises the point, and the
one that completes the last point estimates the thresholds. A chord would
need a result backend and loses its count if that backend is flushed; the
rows are the truth either way, and every step is safe to repeat.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from games.engine import ENGINE_VERSION, InvalidRuleSet, RuleSet
from games.engine.bots import BOTS
from games.engine.rules import MAX_BUDGET, MAX_SIZE, MIN_SIZE
from results.analysis.sweeps import game_seed, play_game, point_stats
from results.models import (
    Sweep,
    SweepChunk,
    SweepGame,
    SweepPoint,
    SweepPointCurve,
    SweepThreshold,
)
from results.selectors import sweep_missing_chunks, sweep_point_lifetimes, sweep_progress
from results.stats import ThresholdPoint, estimate_threshold

logger = logging.getLogger(__name__)

DEFAULT_CHUNK_SIZE = 25
DEFAULT_MAX_ROUNDS = 300
MAX_GAMES_PER_POINT = 1_000_000
MAX_SEED = 2**63 - 1
BOOTSTRAP_RESAMPLES = 1000

Progress = Callable[[int, int], None]
"""Called with (games done, games in the sweep) as chunks finish."""


class SweepError(ValueError):
    """A sweep that cannot be made or run; the message says why."""


def _rules(*, size: int, noise_budget: float, moves_per_round: int) -> RuleSet:
    return RuleSet(size=size, noise_budget=noise_budget, moves_per_round=moves_per_round)


def _validate(*, bots: Sequence[str], sizes: Sequence[int], budgets: Sequence[float],
              games_per_point: int, seed: int, chunk_size: int, max_rounds: int,
              moves_per_round: int) -> None:
    if not bots or not sizes or not budgets:
        raise SweepError("a sweep needs at least one bot, one size and one budget")
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise SweepError(f"unknown bot {unknown[0]!r}; known: {', '.join(sorted(BOTS))}")
    for name, values in (("bots", bots), ("sizes", sizes), ("budgets", budgets)):
        if len(set(values)) != len(values):
            raise SweepError(f"{name} must not repeat a value")
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise SweepError(f"sizes must be integers from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
    for budget in budgets:
        if (isinstance(budget, bool) or not isinstance(budget, int | float)
                or not math.isfinite(budget) or not 0 < budget <= MAX_BUDGET):
            raise SweepError(f"budgets must be numbers above 0 and at most {MAX_BUDGET:g}, "
                             f"got {budget!r}")
    for name, value, low, high in (
        ("games per point", games_per_point, 1, MAX_GAMES_PER_POINT),
        ("seed", seed, 0, MAX_SEED),
        ("chunk size", chunk_size, 1, 100_000),
        ("max rounds", max_rounds, 1, 1_000_000),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SweepError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    try:
        _rules(size=sizes[0], noise_budget=budgets[0], moves_per_round=moves_per_round)
    except InvalidRuleSet as exc:
        raise SweepError(str(exc)) from exc


@transaction.atomic
def sweep_create(
    *,
    bots: Sequence[str],
    sizes: Sequence[int],
    budgets: Sequence[float],
    games_per_point: int,
    seed: int,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    moves_per_round: int = 5,
) -> Sweep:
    """Store a pending sweep and its points (nothing runs yet)."""
    _validate(bots=bots, sizes=sizes, budgets=budgets, games_per_point=games_per_point,
              seed=seed, chunk_size=chunk_size, max_rounds=max_rounds,
              moves_per_round=moves_per_round)
    budgets = [float(b) for b in budgets]
    sweep = Sweep.objects.create(
        bots=list(bots),
        sizes=list(sizes),
        budgets=budgets,
        games_per_point=games_per_point,
        seed=seed,
        chunk_size=chunk_size,
        max_rounds=max_rounds,
        moves_per_round=moves_per_round,
        engine_version=ENGINE_VERSION,
        status=Sweep.Status.PENDING,
        created_at=timezone.now(),
    )
    SweepPoint.objects.bulk_create(
        SweepPoint(
            sweep=sweep,
            bot_name=bot,
            bot_version=BOTS[bot].version,
            size=size,
            noise_budget=budget,
            games_target=games_per_point,
        )
        for bot in bots
        for size in sizes
        for budget in budgets
    )
    return sweep


def sweep_start(*, sweep: Sweep, progress: Progress | None = None) -> Sweep:
    """Run the sweep's missing chunks: queued to the workers, or here without a broker.

    Safe to call again on a sweep that was interrupted: only missing chunks run.
    """
    if sweep.status == Sweep.Status.DONE:
        return sweep
    now = timezone.now()
    Sweep.objects.filter(pk=sweep.pk).update(
        status=Sweep.Status.RUNNING, error="", started_at=sweep.started_at or now,
    )
    sweep.refresh_from_db()
    missing = sweep_missing_chunks(sweep=sweep)
    if not missing:
        sweep_finish_points(sweep=sweep)
        sweep.refresh_from_db()
        return sweep
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # No broker: run the chunks in this process, one after the other.
        for spec in missing:
            sweep_run_chunk(point_id=spec.point_id, index=spec.index)
            if progress is not None:
                state = sweep_progress(sweep=sweep)
                progress(state.games_done, state.games_total)
            sweep.refresh_from_db(fields=["status"])
            if sweep.status == Sweep.Status.FAILED:
                break
    else:
        from celery import group

        from results.tasks import run_sweep_chunk

        group(run_sweep_chunk.s(spec.point_id, spec.index) for spec in missing).apply_async()
    sweep.refresh_from_db()
    return sweep


def sweep_wait(*, sweep: Sweep, progress: Progress | None = None, poll: float = 0.5,
               timeout: float | None = None) -> Sweep:
    """Wait until the sweep is done or failed, reporting progress from the stored chunks."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        sweep.refresh_from_db()
        if progress is not None:
            state = sweep_progress(sweep=sweep)
            progress(state.games_done, state.games_total)
        if sweep.status in (Sweep.Status.DONE, Sweep.Status.FAILED):
            return sweep
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"sweep {sweep.pk} is still {sweep.status}")
        time.sleep(poll)


def sweep_run(
    *,
    bots: list[str],
    sizes: list[int],
    budgets: list[float],
    games_per_point: int,
    seed: int,
    progress: Progress | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Sweep:
    """Create a sweep, run it (in-process without a broker) and return it once finished."""
    sweep = sweep_create(bots=bots, sizes=sizes, budgets=budgets,
                         games_per_point=games_per_point, seed=seed, chunk_size=chunk_size,
                         max_rounds=max_rounds)
    sweep = sweep_start(sweep=sweep, progress=progress)
    return sweep_wait(sweep=sweep, progress=progress, timeout=timeout)


def sweep_resume(*, sweep: Sweep, progress: Progress | None = None,
                 timeout: float | None = None) -> Sweep:
    """Run what an interrupted sweep is missing and wait for it."""
    sweep = sweep_start(sweep=sweep, progress=progress)
    return sweep_wait(sweep=sweep, progress=progress, timeout=timeout)


def sweep_run_chunk(*, point_id: int, index: int) -> bool:
    """Play and store one chunk; False when it was already stored (or the sweep failed)."""
    point = SweepPoint.objects.select_related("sweep").filter(pk=point_id).first()
    if point is None:
        logger.warning("sweep point %s no longer exists", point_id)
        return False
    sweep = point.sweep
    if sweep.status == Sweep.Status.FAILED:
        return False
    if SweepChunk.objects.filter(point=point, index=index).exists():
        return False
    first = index * sweep.chunk_size
    last = min(point.games_target, first + sweep.chunk_size)
    if first >= last:
        raise SweepError(f"chunk {index} is beyond the {point.games_target} games of {point}")
    rules = _rules(size=point.size, noise_budget=point.noise_budget,
                   moves_per_round=sweep.moves_per_round)
    started = time.perf_counter()
    try:
        outcomes = [
            play_game(
                bot_name=point.bot_name,
                rules=rules,
                seed=game_seed(sweep_seed=sweep.seed, bot_name=point.bot_name, size=point.size,
                               noise_budget=point.noise_budget, index=i),
                max_rounds=sweep.max_rounds,
            )
            for i in range(first, last)
        ]
    except Exception as exc:
        # Playing touches no database or broker, so nothing here is transient:
        # an unplayable rule set (a first board that always spans) or a bug
        # would fail the same way on every retry. Fail the sweep, with the
        # reason, instead of leaving it running forever.
        logger.exception("chunk %s of %s failed", index, point)
        sweep_fail(sweep=sweep, error=f"{point}: {exc}")
        return False
    seconds = time.perf_counter() - started
    try:
        with transaction.atomic():
            chunk = SweepChunk.objects.create(
                point=point, index=index, first_game=first, games=last - first,
                seconds=seconds, worker=f"{socket.gethostname()}:{os.getpid()}",
                finished_at=timezone.now(),
            )
            SweepGame.objects.bulk_create(
                SweepGame(chunk=chunk, game_index=first + offset, seed=o.seed, rounds=o.rounds,
                          moves=o.moves, score=o.score, lost=o.lost)
                for offset, o in enumerate(outcomes)
            )
    except IntegrityError:
        # Another delivery of this chunk stored it first.
        return False
    _refresh_games_done(point=point)
    sweep_finish_points(sweep=sweep, point_ids=[point.pk])
    return True


def _refresh_games_done(*, point: SweepPoint) -> None:
    done = SweepChunk.objects.filter(point=point).aggregate(n=Sum("games"))["n"] or 0
    SweepPoint.objects.filter(pk=point.pk).update(games_done=done)


def sweep_fail(*, sweep: Sweep, error: str) -> None:
    logger.error("sweep %s failed: %s", sweep.pk, error)
    Sweep.objects.filter(pk=sweep.pk).exclude(status=Sweep.Status.DONE).update(
        status=Sweep.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def sweep_finish_points(*, sweep: Sweep, point_ids: Sequence[int] | None = None) -> None:
    """Summarise every complete point not yet summarised; finish the sweep when all are."""
    points = SweepPoint.objects.filter(sweep=sweep, mean_rounds__isnull=True)
    if point_ids is not None:
        points = points.filter(pk__in=point_ids)
    for point_id in points.values_list("pk", flat=True):
        _summarise_point(point_id=point_id)
    if not SweepPoint.objects.filter(sweep=sweep, mean_rounds__isnull=True).exists():
        _finish_sweep(sweep_id=sweep.pk)


@transaction.atomic
def _summarise_point(*, point_id: int) -> None:
    point = SweepPoint.objects.select_for_update().select_related("sweep").get(pk=point_id)
    if point.mean_rounds is not None:
        return
    pairs = sweep_point_lifetimes(point=point)
    if len(pairs) < point.games_target:
        return
    durations = [d for d, _ in pairs]
    observed = [o for _, o in pairs]
    stats = point_stats(durations, observed, seed=point.sweep.seed,
                        n_resamples=BOOTSTRAP_RESAMPLES)
    summary, plateau = stats.summary, stats.plateau
    SweepPointCurve.objects.filter(point=point).delete()
    SweepPointCurve.objects.bulk_create(
        SweepPointCurve(point=point, **asdict(row)) for row in stats.curve
    )
    point.games_done = len(pairs)
    point.losses = summary.losses
    point.mean_rounds = summary.mean
    point.mean_ci_low, point.mean_ci_high = _finite(summary.mean_lower), _finite(summary.mean_upper)
    point.median_rounds = summary.median
    point.median_ci_low = _finite(summary.median_lower)
    point.median_ci_high = _finite(summary.median_upper)
    if plateau is not None:
        point.plateau_hazard = plateau.hazard
        point.plateau_ci_low, point.plateau_ci_high = plateau.lower95, plateau.upper95
        point.plateau_start_round = plateau.start_round
    point.save()


def _finite(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


@transaction.atomic
def _finish_sweep(*, sweep_id: object) -> None:
    sweep = Sweep.objects.select_for_update().get(pk=sweep_id)
    if sweep.status in (Sweep.Status.DONE, Sweep.Status.FAILED):
        return
    SweepThreshold.objects.filter(sweep=sweep).delete()
    for bot in sweep.bots:
        points = [
            ThresholdPoint(
                point.size,
                point.noise_budget,
                lifetimes=tuple(d for d, _ in pairs),
                observed=tuple(o for _, o in pairs),
            )
            for point in SweepPoint.objects.filter(sweep=sweep, bot_name=bot)
            if (pairs := sweep_point_lifetimes(point=point))
        ]
        estimate = estimate_threshold(points, n_resamples=BOOTSTRAP_RESAMPLES, seed=sweep.seed)
        SweepThreshold.objects.create(
            sweep=sweep,
            bot_name=bot,
            threshold_budget=estimate.threshold,
            ci_low=estimate.lower,
            ci_high=estimate.upper,
            crossing_fraction=estimate.crossing_fraction,
            note=estimate.message[:300],
        )
    sweep.status = Sweep.Status.DONE
    sweep.finished_at = timezone.now()
    sweep.save(update_fields=["status", "finished_at"])
