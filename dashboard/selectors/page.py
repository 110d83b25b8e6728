"""What the dashboard page shows besides the plots: the filter menus and the demo note."""

from __future__ import annotations

from typing import Any

from ..models import HUMAN, Cohort, DemoData


def filter_choices() -> dict[str, list[Any]]:
    """What the filter menus offer: the values present in the cohorts."""
    cohorts = list(Cohort.objects.all())
    return {
        "variants": sorted({c.variant for c in cohorts}),
        "sizes": sorted({c.size for c in cohorts}),
        "budgets": sorted({c.noise_budget for c in cohorts}),
        "sources": sorted({c.source for c in cohorts}, key=lambda s: (s != HUMAN, s)),
    }


def demo_data() -> DemoData | None:
    """The note of ``manage.py seed_demo`` if it filled this database."""
    return DemoData.objects.filter(pk=1).first()
