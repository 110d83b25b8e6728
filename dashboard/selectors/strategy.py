"""The strategy plot: the classes of players' moves per day, and how often bots agreed."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db.models import Sum

from core.stats import wilson_interval

from ..filters import Filters
from ..models import HUMAN, AgreementCount, Cohort, StrategyCount
from .cohorts import analysed_games, cohorts_matching, daily_days, days_of
from .plot import Plot, PlotSpec, number


def plot_strategy(*, filters: Filters) -> Plot:
    """The move classes of players' moves per day, and how often a bot would have played them."""
    def for_source(source: str) -> dict[int, Cohort]:
        return cohorts_matching(filters=Filters(
            variant=filters.variant, size=filters.size, budget=filters.budget, source=source,
            date_from=filters.date_from, date_to=filters.date_to,
        ))

    source = filters.source or HUMAN
    cohorts = for_source(source)
    stand_in = False
    if filters.source is None and not StrategyCount.objects.filter(
        daily_days(filters), cohort_id__in=cohorts
    ).exists():
        # No analysed player moves yet (a fresh site): show a bot's, and say so.
        first = (
            StrategyCount.objects.filter(
                daily_days(filters), cohort_id__in=cohorts_matching(filters=filters)
            )
            .exclude(cohort__source=HUMAN)
            .order_by("cohort__source")
            .values_list("cohort__source", flat=True)
            .first()
        )
        if first is not None:
            source, cohorts, stand_in = first, for_source(first), True
    per_day = (
        StrategyCount.objects.filter(daily_days(filters), cohort_id__in=cohorts)
        .values("day", "move_class")
        .annotate(moves_sum=Sum("moves"))
        .order_by("day", "move_class")
    )
    days: dict[datetime.date, dict[str, int]] = defaultdict(dict)
    classes: set[str] = set()
    for row in per_day:
        days[row["day"]][row["move_class"]] = row["moves_sum"]
        classes.add(row["move_class"])
    ordered_classes = sorted(classes)
    rows = []
    shares: dict[str, list[float | None]] = {name: [] for name in ordered_classes}
    for day, counts in sorted(days.items()):
        total = sum(counts.values())
        for name in ordered_classes:
            shares[name].append(number(counts.get(name, 0) / total))
            rows.append(["strategy", day.isoformat(), name, counts.get(name, 0), total,
                         None, None, None, None])
    agreement_rows = (
        AgreementCount.objects.filter(days_of(filters), cohort_id__in=cohorts)
        .values("bot_name")
        .annotate(compared_sum=Sum("compared"), top1_sum=Sum("top1"), top3_sum=Sum("top3"))
        .order_by("bot_name")
    )
    agreements = []
    for row in agreement_rows:
        compared = row["compared_sum"]
        top1_low, top1_high = wilson_interval(row["top1_sum"], compared)
        top3_low, top3_high = wilson_interval(row["top3_sum"], compared)
        agreements.append(
            {"bot": row["bot_name"], "compared": compared,
             "top1": row["top1_sum"], "top3": row["top3_sum"],
             "top1_rate": number(row["top1_sum"] / compared) if compared else None,
             "top1_lower": number(top1_low), "top1_upper": number(top1_high),
             "top3_rate": number(row["top3_sum"] / compared) if compared else None,
             "top3_lower": number(top3_low), "top3_upper": number(top3_high)}
        )
        rows.append(["agreement", None, row["bot_name"], row["top1_sum"], compared,
                     row["top3_sum"], number(row["top1_sum"] / compared) if compared else None,
                     number(row["top3_sum"] / compared) if compared else None, None])
    return Plot(
        games=analysed_games(cohorts, days_of(filters)),
        data={
            "source": source,
            "stand_in": stand_in,
            "days": [day.isoformat() for day in sorted(days)],
            "classes": ordered_classes,
            "shares": shares,
            "agreements": agreements,
        },
        columns=["table", "day", "move_class_or_bot", "moves_or_top1", "total_moves_or_compared",
                 "top3", "top1_rate", "top3_rate", "unused"],
        rows=rows,
    )


PLOT = PlotSpec(
    name="strategy",
    title="Strategies and agreement",
    explanation=(
        "What players' moves did, day by day, and how often a move was a bot's first choice (or "
        "among its top three) on the same board."
    ),
    select=plot_strategy,
)
