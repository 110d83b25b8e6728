"""``manage.py backfill_class_odds [--recompute]``: store the odds of finished planar games.

Games that finished before ``Game.class_odds`` existed get the posterior
probability of the class they ended in and of the most likely class
(``games.services.odds``); boards beyond the exact contraction's reach stay
empty. ``--recompute`` computes every finished planar game's odds again.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.services.odds import planar_class_odds_backfill


class Command(BaseCommand):
    help = "Store the class odds of finished planar games that have none yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--recompute", action="store_true",
                            help="compute every finished planar game's odds again")

    def handle(self, *args: Any, **options: Any) -> None:
        stored = planar_class_odds_backfill(recompute=options["recompute"])
        self.stdout.write(f"class odds stored for {stored} planar games")
