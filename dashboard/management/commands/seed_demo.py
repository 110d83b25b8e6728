"""``manage.py seed_demo``: demo data for an empty database (bin/start runs it every time)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from dashboard.demo import demo_seed


def _quiet(text: str) -> None:
    """Says nothing (at the default verbosity)."""


class Command(BaseCommand):
    help = (
        "Fill an EMPTY database with a small, labelled set of real bot games, a small budget "
        "sweep and two small threshold sweeps for the dashboard: a planar code one (d=2, the "
        "QEC threshold) and a one-shot one (the game's spanning rule). About 20 seconds. Does "
        "nothing when games or sweeps exist."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        verbose = options["verbosity"] > 1
        report = demo_seed(say=self.stdout.write if verbose else _quiet,
                           announce=self.stdout.write)
        if report.created:
            self.stdout.write(
                f"Demo data: {report.games} bot games and sweep {report.sweep_id} "
                f"in {report.seconds:.1f} s."
            )
        else:
            self.stdout.write(f"No demo data added: {report.reason}.")
