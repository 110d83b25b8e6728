"""``manage.py dashboard_refresh [--rebuild]``: bring the dashboard's aggregates up to date."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from dashboard.services import aggregates_rebuild, aggregates_refresh


class Command(BaseCommand):
    help = "Absorb finished games and analyses into the dashboard's aggregate tables."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild", action="store_true", help="recount everything from scratch"
        )
        parser.add_argument(
            "--settle", type=float, default=0.0,
            help="leave out rows written in the last SECONDS (default 0: take everything)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        settle = datetime.timedelta(seconds=max(0.0, options["settle"]))
        action = aggregates_rebuild if options["rebuild"] else aggregates_refresh
        report = action(settle=settle)
        self.stdout.write(
            f"games read {report.games}, counted {report.counted_games}; "
            f"analyses read {report.analyses}, counted {report.counted_analyses}"
        )
