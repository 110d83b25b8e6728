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
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from games.engine import ENGINE_VERSION, InvalidRuleSet, RuleSet
from games.engine.bots import BOTS
from games.engine.families import (
    Family,
    family_shot_seed,
    play_shot,
    shot_seed,
    threshold_rules,
)
from games.engine.planar import DECODERS as PLANAR_DECODERS
from games.engine.planar import planar_outcomes
from games.engine.rules import (
    MAX_BUDGET,
    MAX_FAMILY_SIZE,
    MAX_MODULUS,
    MAX_SIZE,
    MIN_MODULUS,
    MIN_SIZE,
)
from games.models import Game
from games.services import planar_bot_game
from results.analysis.sweeps import Outcome, game_seed, play_game, point_stats
from results.models import (
    Sweep,
    SweepChunk,
    SweepGame,
    SweepPoint,
    SweepPointCurve,
    SweepThreshold,
)
from results.selectors import (
    sweep_missing_chunks,
    sweep_point_lifetimes,
    sweep_point_shots,
    sweep_progress,
)
from results.stats import (
    RatePoint,
    ThresholdPoint,
    ThresholdReport,
    estimate_threshold,
    hazard_plateau,
    threshold_from_rates,
    wilson_interval,
)

logger = logging.getLogger(__name__)

DEFAULT_CHUNK_SIZE = 25
DEFAULT_MAX_ROUNDS = 300
DEFAULT_SHOT_MAX_ROUNDS = 1000  # sustained: rounds before a shot is censored
# one-shot: the safety stop after max_rounds * L^2 moves. A decoder that needs more
# than 3 moves per cell to clean a board is going round in circles: the shot is stopped
# and counted as censored.
DEFAULT_ONE_SHOT_MAX_ROUNDS = 3
DEFAULT_SHOT_CHUNK_SIZE = 10  # shots of big boards near threshold take seconds each
# Planar shots take milliseconds (the matching decoder decodes a chunk in one call):
# chunks this size keep a task's overhead small and still spread over the workers.
DEFAULT_PLANAR_CHUNK_SIZE = 500
MAX_GAMES_PER_POINT = 1_000_000
MAX_SEED = 2**63 - 1
MAX_RECORDED_SHOTS = 1000  # per point: each is a full game with its events in the database
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


def _validate_threshold(*, family: str, bots: Sequence[str], sizes: Sequence[int],
                        rates: Sequence[float], moves_per_cell: float | None,
                        modulus: int | None = None) -> Family:
    if not bots or not sizes or not rates:
        raise SweepError("a threshold sweep needs at least one bot, one size and one rate")
    planar = isinstance(family, str) and family.strip().replace("-", "_") == Family.PLANAR
    known = PLANAR_DECODERS if planar else BOTS
    unknown = [b for b in bots if b not in known]
    if unknown:
        what = "planar decoder" if planar else "bot"
        raise SweepError(f"unknown {what} {unknown[0]!r}; known: {', '.join(sorted(known))}")
    if planar:
        if modulus is None:
            raise SweepError(f"a planar sweep needs its modulus d ({MIN_MODULUS} to "
                             f"{MAX_MODULUS})")
        if (isinstance(modulus, bool) or not isinstance(modulus, int)
                or not MIN_MODULUS <= modulus <= MAX_MODULUS):
            raise SweepError(f"modulus must be between {MIN_MODULUS} and {MAX_MODULUS}, "
                             f"got {modulus!r}")
        for bot in bots:
            moduli = PLANAR_DECODERS[bot].moduli
            if modulus not in moduli:
                allowed = ", ".join(str(d) for d in sorted(moduli))
                raise SweepError(f"the {bot} decoder decodes d = {allowed}, not d = {modulus}")
    elif modulus is not None:
        raise SweepError("--modulus belongs to the planar family")
    for name, values in (("bots", bots), ("sizes", sizes), ("rates", rates)):
        if len(set(values)) != len(values):
            raise SweepError(f"{name} must not repeat a value")
    for size in sizes:
        if (isinstance(size, bool) or not isinstance(size, int)
                or not MIN_SIZE <= size <= MAX_FAMILY_SIZE):
            raise SweepError(f"sizes must be integers from {MIN_SIZE} to {MAX_FAMILY_SIZE}, "
                             f"got {size!r}")
    try:
        rules = [threshold_rules(family=family, size=sizes[0], rate=rate,
                                 moves_per_cell=1.0 if moves_per_cell is None else moves_per_cell,
                                 modulus=modulus)
                 for rate in rates]
    except (InvalidRuleSet, TypeError, ValueError) as exc:
        raise SweepError(str(exc)) from exc
    chosen = rules[0].family
    if chosen is None:  # pragma: no cover - threshold_rules always sets a family
        raise SweepError(f"unknown family {family!r}")
    if chosen is not Family.SUSTAINED and moves_per_cell is not None:
        raise SweepError("--moves-per-cell belongs to the sustained family")
    return chosen


@transaction.atomic
def threshold_sweep_create(
    *,
    family: str,
    bots: Sequence[str],
    sizes: Sequence[int],
    rates: Sequence[float],
    shots_per_point: int,
    seed: int,
    moves_per_cell: float | None = None,
    chunk_size: int | None = None,
    max_rounds: int | None = None,
    modulus: int | None = None,
    record_shots: int = 0,
) -> Sweep:
    """Store a pending threshold sweep of a rule family and its (bot, L, p) points.

    ``max_rounds`` defaults to ``DEFAULT_ONE_SHOT_MAX_ROUNDS`` (one-shot: a stop after
    that many moves per cell) or ``DEFAULT_SHOT_MAX_ROUNDS`` (sustained: rounds);
    ``chunk_size`` to ``DEFAULT_PLANAR_CHUNK_SIZE`` for planar sweeps and
    ``DEFAULT_SHOT_CHUNK_SIZE`` for the others. ``modulus`` (d) is the planar
    family's and required there. ``record_shots`` (planar only) keeps the first
    that many shots of every point as recorded games as well (``SweepGame.game``).
    """
    chosen = _validate_threshold(family=family, bots=bots, sizes=sizes, rates=rates,
                                 moves_per_cell=moves_per_cell, modulus=modulus)
    if max_rounds is None:
        max_rounds = (DEFAULT_SHOT_MAX_ROUNDS if chosen is Family.SUSTAINED
                      else DEFAULT_ONE_SHOT_MAX_ROUNDS)
    if chunk_size is None:
        chunk_size = (DEFAULT_PLANAR_CHUNK_SIZE if chosen is Family.PLANAR
                      else DEFAULT_SHOT_CHUNK_SIZE)
    for name, value, low, high in (
        ("shots per point", shots_per_point, 1, MAX_GAMES_PER_POINT),
        ("seed", seed, 0, MAX_SEED),
        ("chunk size", chunk_size, 1, 100_000),
        ("max rounds", max_rounds, 1, 1_000_000),
        ("recorded shots", record_shots, 0, MAX_RECORDED_SHOTS),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SweepError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    if record_shots and chosen is not Family.PLANAR:
        raise SweepError("--record keeps planar shots as games; the one-shot and sustained "
                         "families are not recorded as games")
    if chosen is Family.SUSTAINED and moves_per_cell is None:
        moves_per_cell = 1.0
    rates = [float(r) for r in rates]
    sweep = Sweep.objects.create(
        family=str(chosen),
        bots=list(bots),
        sizes=list(sizes),
        budgets=[],
        rates=rates,
        moves_per_cell=moves_per_cell,
        modulus=modulus if chosen is Family.PLANAR else None,
        record_shots=record_shots,
        games_per_point=shots_per_point,
        seed=seed,
        chunk_size=chunk_size,
        max_rounds=max_rounds,
        engine_version=ENGINE_VERSION,
        status=Sweep.Status.PENDING,
        created_at=timezone.now(),
    )
    SweepPoint.objects.bulk_create(
        SweepPoint(
            sweep=sweep,
            bot_name=bot,
            bot_version=(PLANAR_DECODERS[bot].version if chosen is Family.PLANAR
                         else BOTS[bot].version),
            size=size,
            rate=rate,
            games_target=shots_per_point,
        )
        for bot in bots
        for size in sizes
        for rate in rates
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
    started = time.perf_counter()
    try:
        outcomes = _play_chunk(sweep=sweep, point=point, first=first, last=last)
    except SoftTimeLimitExceeded:
        # Not a bug and not transient: the chunk is too long for a task on this machine.
        sweep_fail(sweep=sweep, error=(
            f"{point}: chunk {index} ({last - first} games) took longer than the task time "
            f"limit (CELERY_TASK_SOFT_TIME_LIMIT = {settings.CELERY_TASK_SOFT_TIME_LIMIT} s); "
            "finish it with --resume (without a broker it runs in this process, with no "
            "limit) or start again with a smaller --chunk-size"
        ))
        return False
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
                SweepGame(chunk=chunk, game_index=first + offset, seed=_signed(o.seed),
                          rounds=o.rounds, moves=o.moves, score=o.score, lost=o.lost,
                          censored=censored,
                          game=_record_shot(sweep=sweep, point=point, outcome=o,
                                            censored=censored)
                          if first + offset < sweep.record_shots else None)
                for offset, (o, censored) in enumerate(outcomes)
            )
    except IntegrityError:
        # Another delivery of this chunk stored it first.
        return False
    except SweepError as exc:
        # A recorded shot that is not the shot is a bug, the same on every retry.
        logger.error("chunk %s of %s: %s", index, point, exc)
        sweep_fail(sweep=sweep, error=str(exc))
        return False
    _refresh_games_done(point=point)
    sweep_finish_points(sweep=sweep, point_ids=[point.pk])
    return True


def _record_shot(*, sweep: Sweep, point: SweepPoint, outcome: Outcome,
                 censored: bool) -> Game:
    """Record a planar shot as a game played by its decoder, and check it is the same shot.

    Called inside the chunk's transaction: a redelivered chunk that finds its
    row already stored rolls its recorded games back with it.
    """
    if point.rate is None or sweep.modulus is None:
        raise SweepError(f"{point} is not a point of a planar sweep")
    rules = threshold_rules(family=Family.PLANAR, size=point.size, rate=point.rate,
                            modulus=sweep.modulus)
    game = planar_bot_game(rules=rules, decoder=point.bot_name, seed=outcome.seed,
                           max_moves=sweep.max_rounds * point.size * point.size)
    recorded_failed = game.logical_failure if game.logical_failure is not None else True
    if recorded_failed != outcome.lost or game.moves_count != outcome.moves:
        raise SweepError(
            f"{point}: the recorded game {game.pk} of seed {outcome.seed} disagrees with its "
            f"shot (failed {recorded_failed} / {outcome.lost}, moves {game.moves_count} / "
            f"{outcome.moves}{', censored' if censored else ''})"
        )
    return game


def _play_chunk(*, sweep: Sweep, point: SweepPoint, first: int,
                last: int) -> list[tuple[Outcome, bool]]:
    """Play games ``first`` .. ``last - 1`` of the point: (outcome, censored) each."""
    if not sweep.family:
        if point.noise_budget is None:
            raise SweepError(f"{point} has no noise budget")
        rules = _rules(size=point.size, noise_budget=point.noise_budget,
                       moves_per_round=sweep.moves_per_round)
        played = []
        for i in range(first, last):
            outcome = play_game(
                bot_name=point.bot_name,
                rules=rules,
                seed=game_seed(sweep_seed=sweep.seed, bot_name=point.bot_name, size=point.size,
                               noise_budget=point.noise_budget, index=i),
                max_rounds=sweep.max_rounds,
            )
            played.append((outcome, not outcome.lost))
        return played
    if point.rate is None:
        raise SweepError(f"{point} has no error rate")
    rules = threshold_rules(family=sweep.family, size=point.size, rate=point.rate,
                            moves_per_cell=sweep.moves_per_cell or 1.0, modulus=sweep.modulus)
    shots = []
    if rules.family is Family.PLANAR:
        seeds = [family_shot_seed(family=Family.PLANAR, seed=sweep.seed, size=point.size,
                                  rate=point.rate, shot=i)
                 for i in range(first, last)]
        outcomes = planar_outcomes(rules=rules, bot=point.bot_name, seeds=seeds,
                                   max_moves=sweep.max_rounds * point.size * point.size)
        return [(Outcome(seed, shot.rounds, shot.moves, shot.moves, shot.failed), shot.censored)
                for seed, shot in zip(seeds, outcomes, strict=True)]
    for i in range(first, last):
        seed = shot_seed(seed=sweep.seed, size=point.size, rate=point.rate, shot=i)
        shot = play_shot(rules=rules, bot=point.bot_name, seed=seed, max_rounds=sweep.max_rounds)
        shots.append((Outcome(seed, shot.rounds, shot.moves, shot.moves, shot.failed),
                      shot.censored))
    return shots


def _signed(seed: int) -> int:
    """A 64-bit seed as the signed 64-bit integer the column holds."""
    return seed - 2**64 if seed >= 2**63 else seed


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
    points = SweepPoint.objects.filter(sweep=sweep, summarised=False)
    if point_ids is not None:
        points = points.filter(pk__in=point_ids)
    for point_id in points.values_list("pk", flat=True):
        _summarise_point(point_id=point_id)
    if not SweepPoint.objects.filter(sweep=sweep, summarised=False).exists():
        _finish_sweep(sweep_id=sweep.pk)


@transaction.atomic
def _summarise_point(*, point_id: int) -> None:
    point = SweepPoint.objects.select_for_update().select_related("sweep").get(pk=point_id)
    if point.summarised:
        return
    if point.sweep.family:
        _summarise_shots(point=point)
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
    point.censored = summary.censored
    point.summarised = True
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


def _summarise_shots(*, point: SweepPoint) -> None:
    """A threshold point: failures out of trials with a Wilson interval (see SweepPoint)."""
    shots = sweep_point_shots(point=point)
    if len(shots) < point.games_target:
        return
    failures = sum(1 for _, failed, _ in shots if failed)
    censored = sum(1 for _, _, was_censored in shots if was_censored)
    point.games_done = len(shots)
    point.losses = failures
    point.censored = censored
    if point.sweep.family == Sweep.Family.ONE_SHOT:
        point.failures, point.trials = failures, len(shots) - censored
    elif point.sweep.family == Sweep.Family.PLANAR:
        # A planar shot stopped by the move cap is a failure (and counted as censored):
        # leaving it out would flatter a decoder that loops.
        point.failures, point.trials = failures, len(shots)
    else:
        durations = [rounds for rounds, _, _ in shots]
        observed = [failed for _, failed, _ in shots]
        stats = point_stats(durations, observed, seed=point.sweep.seed,
                            n_resamples=BOOTSTRAP_RESAMPLES)
        SweepPointCurve.objects.filter(point=point).delete()
        SweepPointCurve.objects.bulk_create(
            SweepPointCurve(point=point, **asdict(row)) for row in stats.curve
        )
        summary = stats.summary
        point.mean_rounds = summary.mean
        point.mean_ci_low = _finite(summary.mean_lower)
        point.mean_ci_high = _finite(summary.mean_upper)
        point.median_rounds = summary.median
        point.median_ci_low = _finite(summary.median_lower)
        point.median_ci_high = _finite(summary.median_upper)
        plateau = hazard_plateau(durations, observed)
        if plateau is not None:
            point.plateau_hazard = plateau.hazard
            point.plateau_ci_low, point.plateau_ci_high = plateau.lower95, plateau.upper95
            point.plateau_start_round = plateau.start_round
            point.failures, point.trials = plateau.lost, plateau.exposure
        else:
            # No plateau: the constant-hazard estimate over every round played.
            point.failures, point.trials = failures, sum(durations)
    if point.trials:
        point.failure_rate = point.failures / point.trials
        point.failure_ci_low, point.failure_ci_high = wilson_interval(point.failures,
                                                                      point.trials)
    point.summarised = True
    point.save()


def _finite(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


@transaction.atomic
def _finish_sweep(*, sweep_id: Any) -> None:
    sweep = Sweep.objects.select_for_update().get(pk=sweep_id)
    if sweep.status in (Sweep.Status.DONE, Sweep.Status.FAILED):
        return
    SweepThreshold.objects.filter(sweep=sweep).delete()
    if sweep.family:
        for bot in sweep.bots:
            report = threshold_from_rates(
                sweep_rate_points(sweep=sweep, bot_name=bot),
                n_resamples=BOOTSTRAP_RESAMPLES, seed=sweep.seed,
            )
            SweepThreshold.objects.create(sweep=sweep, bot_name=bot, **threshold_fields(report))
        sweep.status = Sweep.Status.DONE
        sweep.finished_at = timezone.now()
        sweep.save(update_fields=["status", "finished_at"])
        return
    for bot in sweep.bots:
        points = [
            ThresholdPoint(
                point.size,
                point.noise_budget,
                lifetimes=tuple(d for d, _ in pairs),
                observed=tuple(o for _, o in pairs),
            )
            for point in SweepPoint.objects.filter(sweep=sweep, bot_name=bot)
            if point.noise_budget is not None and (pairs := sweep_point_lifetimes(point=point))
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


def threshold_fields(report: ThresholdReport) -> dict[str, object]:
    """The SweepThreshold columns of a threshold sweep's report."""
    crossing, scaling = report.crossing, report.scaling
    return {
        "crossing": crossing.value,
        "crossing_low": crossing.lower,
        "crossing_high": crossing.upper,
        "crossing_fraction": crossing.fraction if crossing.value is not None else None,
        "crossing_at_edge": crossing.edge if crossing.value is not None else None,
        "scaling_p_th": scaling.p_th,
        "scaling_low": scaling.lower if scaling.p_th is not None else None,
        "scaling_high": scaling.upper if scaling.p_th is not None else None,
        "scaling_nu": scaling.nu if scaling.p_th is not None else None,
        "scaling_nu_low": scaling.nu_lower if scaling.p_th is not None else None,
        "scaling_nu_high": scaling.nu_upper if scaling.p_th is not None else None,
        "scaling_chi2_dof": scaling.chi2_dof,
        "methods_agree": report.agree,
        "direction": report.direction,
        "message": report.message,
        "note": report.message[:300],
        "detail": {
            "pairs": [
                {"sizes": list(pair.sizes), "value": pair.value, "lower": pair.lower,
                 "upper": pair.upper, "fraction": pair.fraction,
                 "sign_changes": pair.sign_changes, "edge": pair.edge}
                for pair in crossing.pairs
            ],
            "crossing_message": crossing.message,
            "scaling_message": scaling.message,
            "scaling_coefficients": list(scaling.coefficients) if scaling.coefficients else None,
            "scaling_chi2": scaling.chi2,
            "scaling_dof": scaling.dof,
            "scaling_points": scaling.points,
            "scaling_at_edge": scaling.edge,
            "scaling_correction": scaling.correction,
            "scaling_omega": scaling.omega,
            "drift": report.drift,
            "excluded": [{"size": e.size, "rate": e.rate, "reason": e.reason}
                         for e in report.excluded],
            "rate_range": list(report.rate_range) if report.rate_range else None,
            "level": report.level,
        },
    }


def sweep_rate_points(*, sweep: Sweep, bot_name: str) -> list[RatePoint]:
    """The bot's summarised points of a threshold sweep, as the statistics take them."""
    return [
        RatePoint(point.size, point.rate, point.failures or 0, point.trials or 0,
                  censored=point.censored)
        for point in SweepPoint.objects.filter(sweep=sweep, bot_name=bot_name,
                                               rate__isnull=False)
        .order_by("size", "rate")
        if point.rate is not None
    ]
