"""Shared reads of the plots: the cohorts, aggregate days and sweep points that match the
page's filters."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet, Sum

from games.engine import DEFAULT_RULES
from games.engine.variants import variant_kind
from games.rulesets import RULE_GROUP_FIELDS
from results.selectors import sweep_points

from ..filters import Filters
from ..models import ALL_TIME, COHORT_FIELDS, HUMAN, AnalysisCount, Cohort, LifetimeCount
from ..stats import Histogram, merge_histograms

if TYPE_CHECKING:
    from results.models import Sweep, SweepPoint

COHORT_COLUMNS = list(COHORT_FIELDS)


def rules_lookups(filters: Filters) -> dict[str, Any]:
    """The filters' variant, size and budget, as lookups on the columns of a cohort or a game."""
    lookups = {"variant": filters.variant, "size": filters.size, "noise_budget": filters.budget}
    return {name: value for name, value in lookups.items() if value}


def cohorts_matching(*, filters: Filters) -> dict[int, Cohort]:
    """The cohorts (source and rule set) under the filters, by primary key."""
    query = Cohort.objects.filter(**rules_lookups(filters))
    if filters.source:
        query = query.filter(source=filters.source)
    return {cohort.pk: cohort for cohort in query}


def sweep_points_matching(*, sweep: Sweep, filters: Filters) -> QuerySet[SweepPoint]:
    """The sweep's points at the filters' board size and of their source (a bot)."""
    points = sweep_points(sweep=sweep)
    if filters.size:
        points = points.filter(size=filters.size)
    if filters.source:
        points = points.filter(bot_name=filters.source)
    return points


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


def rules_note(*, variant: str, moves_per_round: int) -> str:
    """What a label adds for rules other than the usual: the variant, the moves per round."""
    note = "" if variant_kind(variant).default else f" {variant}"
    if moves_per_round != DEFAULT_RULES.moves_per_round:
        note += f" m={moves_per_round}"
    return note


def cohort_label(cohort: Cohort) -> str:
    note = rules_note(variant=cohort.variant, moves_per_round=cohort.moves_per_round)
    return f"{cohort.source} L={cohort.size} b={cohort.noise_budget:g}{note}"


def cohort_fields(cohort: Cohort) -> dict[str, Any]:
    return {
        **{name: getattr(cohort, name) for name in COHORT_FIELDS},
        "label": cohort_label(cohort),
    }


def cohort_columns(cohort: Cohort) -> list[Any]:
    return [getattr(cohort, name) for name in COHORT_FIELDS]


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
    rules = (getattr(cohort, name) for name in RULE_GROUP_FIELDS)
    return (cohort.source != HUMAN, cohort.source, *rules)


def analysed_games(cohorts: Iterable[int], days: Q) -> int:
    """How many games of these cohorts and days the analyses have read."""
    total = AnalysisCount.objects.filter(days, cohort_id__in=cohorts).aggregate(n=Sum("games"))
    return total["n"] or 0

