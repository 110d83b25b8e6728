"""Shared reads of the plots: the cohorts and aggregate days that match the page's filters."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Q, Sum

from ..filters import Filters
from ..models import ALL_TIME, HUMAN, AnalysisCount, Cohort, LifetimeCount
from ..stats import Histogram, merge_histograms

COHORT_COLUMNS = ["variant", "size", "noise_budget", "source"]


def cohorts_matching(*, filters: Filters) -> dict[int, Cohort]:
    """The cohorts (source and rule set) under the filters, by primary key."""
    query = Cohort.objects.all()
    if filters.variant:
        query = query.filter(variant=filters.variant)
    if filters.size:
        query = query.filter(size=filters.size)
    if filters.budget:
        query = query.filter(noise_budget=filters.budget)
    if filters.source:
        query = query.filter(source=filters.source)
    return {cohort.pk: cohort for cohort in query}


def days_of(filters: Filters) -> Q:
    """The aggregate rows to sum: the all-time rows, or the day rows of the range."""
    if not filters.dated:
        return Q(day=ALL_TIME)
    days = Q(day__gt=ALL_TIME)
    if filters.date_from:
        days &= Q(day__gte=filters.date_from)
    if filters.date_to:
        days &= Q(day__lte=filters.date_to)
    return days


def daily_days(filters: Filters) -> Q:
    """The day rows of the range, or all of them: for plots over time."""
    return days_of(filters) if filters.dated else Q(day__gt=ALL_TIME)


def cohort_label(cohort: Cohort) -> str:
    variant = "" if cohort.variant == "z10" else f" {cohort.variant}"
    return f"{cohort.source} L={cohort.size} b={cohort.noise_budget:g}{variant}"


def cohort_fields(cohort: Cohort) -> dict[str, Any]:
    return {
        "variant": cohort.variant,
        "size": cohort.size,
        "noise_budget": cohort.noise_budget,
        "source": cohort.source,
        "label": cohort_label(cohort),
    }


def cohort_columns(cohort: Cohort) -> list[Any]:
    return [cohort.variant, cohort.size, cohort.noise_budget, cohort.source]


def cohort_histograms(*, filters: Filters) -> tuple[dict[int, Cohort], dict[int, Histogram]]:
    """Every matching cohort with games, and its lifetime histogram."""
    cohorts = cohorts_matching(filters=filters)
    rows = (
        LifetimeCount.objects.filter(days_of(filters), cohort_id__in=cohorts)
        .values("cohort_id", "rounds")
        .annotate(lost_sum=Sum("lost"), censored_sum=Sum("censored"))
    )
    grouped: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for row in rows:
        grouped[row["cohort_id"]].append((row["rounds"], row["lost_sum"], row["censored_sum"]))
    histograms = {key: merge_histograms(values) for key, values in grouped.items()}
    ordered = sorted(histograms, key=lambda key: _sort_key(cohorts[key]))
    return {key: cohorts[key] for key in ordered}, {key: histograms[key] for key in ordered}


def _sort_key(cohort: Cohort) -> tuple[Any, ...]:
    return (cohort.source != HUMAN, cohort.source, cohort.variant, cohort.size, cohort.noise_budget)


def analysed_games(cohorts: Iterable[int], days: Q) -> int:
    """How many games of these cohorts and days the analyses have read."""
    total = AnalysisCount.objects.filter(days, cohort_id__in=cohorts).aggregate(n=Sum("games"))
    return total["n"] or 0

