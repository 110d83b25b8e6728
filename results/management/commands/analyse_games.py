"""``manage.py analyse_games``: analyse finished games now, in this process."""

from __future__ import annotations

from typing import Any, TextIO, cast

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from results.selectors import games_needing_analysis
from results.services import game_analyse


class Command(BaseCommand):
    help = ("Analyse the given finished games, or every finished game without a current "
            "analysis (what the periodic task queues), here rather than on a worker.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", default=[], metavar="ID",
                            help="a game id (repeatable); default: every game needing it")
        parser.add_argument("--force", action="store_true",
                            help="redo analyses that are already current")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = options["game"] or [
            str(pk) for pk in games_needing_analysis().values_list("pk", flat=True)
        ]
        done = skipped = 0
        stderr = cast(TextIO, self.stderr._out)
        for game_id in tqdm(ids, unit="game", file=stderr, disable=len(ids) < 2):
            try:
                analysis = game_analyse(game_id=game_id, force=options["force"])
            except ValidationError:
                raise CommandError(f"{game_id!r} is not a game id") from None
            if analysis is None:
                skipped += 1
            else:
                done += 1
        self.stdout.write(f"analysed {done} games; {skipped} skipped (unknown or still active)")
