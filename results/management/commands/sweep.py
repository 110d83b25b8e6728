"""``manage.py sweep``: run a budget sweep of the original game and print its results."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from results import reports, selectors
from results.cli import (
    add_fit_argument,
    add_run_arguments,
    add_seed_argument,
    comma_list,
    sweep_run_from_command,
    sweep_seed,
)
from results.models import Sweep
from results.services import sweep_create
from results.services.sweeps import DEFAULT_CHUNK_SIZE, DEFAULT_MAX_ROUNDS


class Command(BaseCommand):
    help = (
        "Run a budget sweep of the original game: every (bot, L, noise budget) of the grid, "
        "N seeded games each, and the threshold budget of each bot. Without a broker it runs "
        "in this process; with one, on the Celery workers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--bots",
            default="greedy,clustering",
            help="comma-separated bot names (default: greedy,clustering)",
        )
        parser.add_argument("--sizes", default="5,7,9,11", help="board sizes L")
        parser.add_argument("--budgets", default="3,4,5,6,7", help="noise budgets per round")
        parser.add_argument("--games", type=int, default=100, help="games per point")
        add_seed_argument(parser)
        parser.add_argument(
            "--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, help="games per task"
        )
        parser.add_argument(
            "--max-rounds",
            type=int,
            default=DEFAULT_MAX_ROUNDS,
            help="stop a game alive after this many rounds (censored)",
        )
        add_fit_argument(parser)
        add_run_arguments(
            parser, resume_help="finish an interrupted sweep: run only its missing chunks"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        def create() -> Sweep:
            return sweep_create(
                bots=comma_list(options["bots"], str, "bots"),
                sizes=comma_list(options["sizes"], int, "sizes"),
                budgets=comma_list(options["budgets"], float, "budgets"),
                games_per_point=options["games"],
                seed=sweep_seed(options),
                chunk_size=options["chunk_size"],
                max_rounds=options["max_rounds"],
                fit_id=options["fit"],
            )

        sweep = sweep_run_from_command(
            self, options, create=create, what="sweep", unit="game", desc="sweep"
        )
        self.stdout.write("")
        self.stdout.write(reports.points_table(selectors.sweep_points(sweep=sweep)))
        self.stdout.write("")
        self.stdout.write(reports.thresholds_table(selectors.sweep_thresholds(sweep=sweep)))
        humans = [h for h in selectors.human_points() if h.games]
        if humans:
            self.stdout.write("")
            self.stdout.write(reports.humans_table(humans))
        self.stdout.write(f"\nsweep id: {sweep.pk}")
