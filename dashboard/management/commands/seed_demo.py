"""``manage.py seed_demo``: demo data for an empty database (bin/start runs it every time)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand

from dashboard.demo import demo_seed


def _quiet(text: str) -> None:
    """Says nothing (at the default verbosity)."""


# The loggers that speak for every game the demo plays (its analysis, the task runner).
CHATTY_LOGGERS = ("results.services.analysis", "celery.app.trace")


@contextmanager
def _quiet_logs(*, unless: bool) -> Iterator[None]:
    """Raise the chatty loggers to WARNING while the demo runs (not when ``unless``)."""
    loggers = [] if unless else [logging.getLogger(name) for name in CHATTY_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


class Command(BaseCommand):
    help = (
        "Fill an EMPTY database with a small, labelled set of real bot games, a small budget "
        "sweep and two small threshold sweeps for the dashboard: a planar code one (d=2, the "
        "QEC threshold) and a one-shot one (the game's spanning rule). From about 10 seconds "
        "on an idle machine to a minute on a busy one; each step is reported as it ends. Does "
        "nothing when games or sweeps exist."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        verbose = options["verbosity"] > 1
        # Each bot game's analysis logs a line or two: at the default verbosity they would
        # bury the progress of the steps.
        with _quiet_logs(unless=verbose):
            report = demo_seed(say=self.stdout.write if verbose else _quiet,
                               announce=self.stdout.write)
        if report.created:
            self.stdout.write(
                f"Demo data: {report.games} bot games and sweep {report.sweep_id} "
                f"in {report.seconds:.1f} s."
            )
        else:
            self.stdout.write(f"No demo data added: {report.reason}.")
