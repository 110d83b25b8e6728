"""Running a sweep: dispatch its chunks, play and store each one, wait for the end.

A sweep's games are split into chunks of ``chunk_size`` games of one point;
each chunk is one Celery task. A chunk's outcomes and its ``SweepChunk`` row
are written in one transaction, and the row is unique per (point, index): a
redelivered chunk finds its row and does nothing, and resuming a sweep after
a crash dispatches exactly the chunks without a row.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from celery import group
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from core.tasks import task
from games.engine import RuleSet
from games.engine.bots import WEIGHTED_BOTS
from games.engine.families import ShotOutcome, play_shot, play_shots
from games.models import Game
from games.services import planar_bot_game
from results.models import Sweep, SweepChunk, SweepGame, SweepPoint
from results.selectors import learned_weights, sweep_missing_chunks, sweep_progress
from results.services.sweeps.create import sweep_create
from results.services.sweeps.specs import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_MAX_ROUNDS,
    PointRules,
    SweepError,
    SweepSpec,
    sweep_spec,
)
from results.services.sweeps.summary import sweep_fail, sweep_finish_points

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
"""Called with (games done, games in the sweep) as chunks finish."""


def sweep_start(*, sweep: Sweep, progress: Progress | None = None) -> Sweep:
    """Run the sweep's missing chunks: queued to the workers, or here without a broker.

    Safe to call again on a sweep that was interrupted: only missing chunks run.
    """
    if sweep.status == Sweep.Status.DONE:
        return sweep
    now = timezone.now()
    Sweep.objects.filter(pk=sweep.pk).update(
        status=Sweep.Status.RUNNING,
        error="",
        started_at=sweep.started_at or now,
    )
    sweep.refresh_from_db()
    # A point whose chunks were all stored before an interruption, but not its summary,
    # has no chunk left to run that would summarise it: summarise such points first.
    sweep_finish_points(sweep=sweep)
    sweep.refresh_from_db()
    missing = sweep_missing_chunks(sweep=sweep)
    if not missing:
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
        run_chunk = task("results.run_sweep_chunk")
        group(run_chunk.s(spec.point_id, spec.index) for spec in missing).apply_async()
    sweep.refresh_from_db()
    return sweep


def sweep_wait(
    *,
    sweep: Sweep,
    progress: Progress | None = None,
    poll: float = 0.5,
    timeout: float | None = None,
) -> Sweep:
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
    sweep = sweep_create(
        bots=bots,
        sizes=sizes,
        budgets=budgets,
        games_per_point=games_per_point,
        seed=seed,
        chunk_size=chunk_size,
        max_rounds=max_rounds,
    )
    sweep = sweep_start(sweep=sweep, progress=progress)
    return sweep_wait(sweep=sweep, progress=progress, timeout=timeout)


def sweep_resume(
    *, sweep: Sweep, progress: Progress | None = None, timeout: float | None = None
) -> Sweep:
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
        sweep_fail(
            sweep=sweep,
            error=(
                f"{point}: chunk {index} ({last - first} games) took longer than the task time "
                f"limit (CELERY_TASK_SOFT_TIME_LIMIT = {settings.CELERY_TASK_SOFT_TIME_LIMIT} s); "
                "finish it with --resume (without a broker it runs in this process, with no "
                "limit) or start again with a smaller --chunk-size"
            ),
        )
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
                point=point,
                index=index,
                first_game=first,
                games=last - first,
                seconds=seconds,
                worker=f"{socket.gethostname()}:{os.getpid()}",
                finished_at=timezone.now(),
            )
            SweepGame.objects.bulk_create(
                _sweep_game(
                    chunk=chunk,
                    game_index=game_index,
                    outcome=outcome,
                    game=_record_shot(sweep=sweep, point=point, outcome=outcome)
                    if game_index < sweep.record_shots
                    else None,
                )
                for game_index, outcome in enumerate(outcomes, start=first)
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


def _sweep_game(
    *, chunk: SweepChunk, game_index: int, outcome: ShotOutcome, game: Game | None
) -> SweepGame:
    """The row that stores game ``game_index`` of the chunk's point (``game``: the shot
    recorded as a full game, if it was)."""
    return SweepGame(
        chunk=chunk,
        game_index=game_index,
        seed=_signed(outcome.seed),
        rounds=outcome.rounds,
        moves=outcome.moves,
        score=outcome.score,
        lost=outcome.failed,
        censored=outcome.censored,
        game=game,
    )


def _record_shot(*, sweep: Sweep, point: SweepPoint, outcome: ShotOutcome) -> Game:
    """Record a planar shot as a game played by its decoder, and check it is the same shot.

    Called inside the chunk's transaction: a redelivered chunk that finds its
    row already stored rolls its recorded games back with it.
    """
    if point.rate is None or sweep.modulus is None:
        raise SweepError(f"{point} is not a point of a planar sweep")
    game = planar_bot_game(
        rules=_point_rules(sweep=sweep, point=point),
        bot_name=point.bot_name,
        seed=outcome.seed,
        max_moves=sweep.max_rounds * point.size * point.size,
    )
    recorded_failed = game.logical_failure if game.logical_failure is not None else True
    if recorded_failed != outcome.failed or game.moves_count != outcome.moves:
        raise SweepError(
            f"{point}: the recorded game {game.pk} of seed {outcome.seed} disagrees with its "
            f"shot (failed {recorded_failed} / {outcome.failed}, moves {game.moves_count} / "
            f"{outcome.moves}{', censored' if outcome.censored else ''})"
        )
    return game


def _play_chunk(
    *, sweep: Sweep, point: SweepPoint, first: int, last: int
) -> list[ShotOutcome]:
    """Play games ``first`` .. ``last - 1`` of the point: a shot each, of the sweep's family
    (a budget game of the original game, played until it is lost or censored)."""
    spec = sweep_spec(sweep.family)
    rules = _point_rules(sweep=sweep, point=point)
    # The learned bot plays with the weights of the fit its point records as its version.
    weights = (learned_weights(fit_id=point.bot_version)
               if point.bot_name in WEIGHTED_BOTS else None)
    seeds = spec.game_seeds(sweep_seed=sweep.seed, bot_name=point.bot_name, size=point.size,
                            value=_point_value(spec=spec, point=point), first=first, last=last)
    return play_shots(rules=rules, bot=point.bot_name, seeds=seeds,
                      max_rounds=sweep.max_rounds, weights=weights, play_one=_play_shot)


def _point_value(*, spec: SweepSpec, point: SweepPoint) -> float:
    """The point's x: its noise budget or its error rate, as the sweep's family has it."""
    value: float | None = getattr(point, spec.value_column)
    if value is None:
        raise SweepError(f"{point} has no {spec.axis}")
    return value


def _point_rules(*, sweep: Sweep, point: SweepPoint) -> RuleSet:
    """The rule set the point's games are played by."""
    spec = sweep_spec(sweep.family)
    return spec.point_rules(
        size=point.size,
        value=_point_value(spec=spec, point=point),
        params=PointRules(
            moves_per_round=sweep.moves_per_round,
            moves_per_cell=sweep.moves_per_cell,
            modulus=sweep.modulus,
        ),
    )


def _play_shot(**shot: Any) -> ShotOutcome:
    """One shot, played by ``play_shot`` as this module names it when the shot is played."""
    return play_shot(**shot)


def _signed(seed: int) -> int:
    """A 64-bit seed as the signed 64-bit integer the column holds."""
    return seed - 2**64 if seed >= 2**63 else seed


def _refresh_games_done(*, point: SweepPoint) -> None:
    done = SweepChunk.objects.filter(point=point).aggregate(n=Sum("games"))["n"] or 0
    SweepPoint.objects.filter(pk=point.pk).update(games_done=done)
