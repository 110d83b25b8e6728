"""Summarising a sweep: its points once complete, then its thresholds.

Completion is counted in the database rather than by a Celery chord: the
worker that stores the last chunk of a point summarises the point, and the
one that completes the last point estimates the thresholds. A chord would
need a result backend and loses its count if that backend is flushed; the
rows are the truth either way, and every step is safe to repeat.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.stats import (
    RatePoint,
    ThresholdPoint,
    ThresholdReport,
    estimate_threshold,
    hazard_plateau,
    threshold_from_rates,
    wilson_interval,
)
from games.engine.families import stored_kind
from results.analysis.sweeps import point_stats
from results.models import Sweep, SweepPoint, SweepPointCurve, SweepThreshold
from results.selectors import sweep_point_lifetimes, sweep_point_shots

logger = logging.getLogger(__name__)

BOOTSTRAP_RESAMPLES = 1000


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
    stats = point_stats(durations, observed, seed=point.sweep.seed, n_resamples=BOOTSTRAP_RESAMPLES)
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
    kind = stored_kind(point.sweep.family)
    if kind.censored_in_trials:
        # A shot stopped by the move cap is a failure (and counted as censored), e.g. a
        # planar one: leaving it out would flatter a decoder that loops.
        point.failures, point.trials = failures, len(shots)
    elif kind.single_round:
        point.failures, point.trials = failures, len(shots) - censored
    else:
        durations = [rounds for rounds, _, _ in shots]
        observed = [failed for _, failed, _ in shots]
        stats = point_stats(
            durations, observed, seed=point.sweep.seed, n_resamples=BOOTSTRAP_RESAMPLES
        )
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
        point.failure_ci_low, point.failure_ci_high = wilson_interval(point.failures, point.trials)
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
                n_resamples=BOOTSTRAP_RESAMPLES,
                seed=sweep.seed,
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
                {
                    "sizes": list(pair.sizes),
                    "value": pair.value,
                    "lower": pair.lower,
                    "upper": pair.upper,
                    "fraction": pair.fraction,
                    "sign_changes": pair.sign_changes,
                    "edge": pair.edge,
                }
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
            # The estimate to quote first (see core.stats.finite_size.report._headline).
            "headline": None if report.headline is None else {
                "method": report.headline.method,
                "value": report.headline.value,
                "lower": report.headline.lower,
                "upper": report.headline.upper,
                "finite_size": report.headline.finite_size,
                "label": report.headline.label,
            },
            "excluded": [
                {"size": e.size, "rate": e.rate, "reason": e.reason} for e in report.excluded
            ],
            "rate_range": list(report.rate_range) if report.rate_range else None,
            "level": report.level,
        },
    }


def sweep_rate_points(*, sweep: Sweep, bot_name: str) -> list[RatePoint]:
    """The bot's summarised points of a threshold sweep, as the statistics take them."""
    return [
        RatePoint(
            point.size, point.rate, point.failures or 0, point.trials or 0, censored=point.censored
        )
        for point in SweepPoint.objects.filter(
            sweep=sweep, bot_name=bot_name, rate__isnull=False
        ).order_by("size", "rate")
        if point.rate is not None
    ]
