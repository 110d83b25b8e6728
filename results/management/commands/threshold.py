"""``manage.py threshold``: a threshold sweep of a rule family, with both estimates.

Runs every (bot, L, p) of the grid, N seeded shots each, on the Celery
workers (in this process without a broker), prints the points and the
threshold by crossings and by finite-size scaling, and with ``--json``
writes the same as a list with one object per bot.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from results import reports, selectors
from results.cli import (
    FAMILY_CHOICES,
    MAX_RATES,
    add_fit_argument,
    add_run_arguments,
    add_seed_argument,
    comma_list,
    parse_rates,
    sweep_run_from_command,
    sweep_seed,
)
from results.models import Sweep
from results.services import threshold_sweep_create
from results.services.sweeps import (
    DEFAULT_ONE_SHOT_MAX_ROUNDS,
    DEFAULT_PLANAR_CHUNK_SIZE,
    DEFAULT_SHOT_CHUNK_SIZE,
    DEFAULT_SHOT_MAX_ROUNDS,
)

__all__ = ["MAX_RATES", "Command", "parse_rates"]


class Command(BaseCommand):
    help = (
        "Run a threshold sweep of a rule family: every (bot, L, p), N seeded shots each; print "
        "the points and the threshold by crossings of adjacent-L curves and by a "
        "finite-size-scaling fit. planar: logical failure of a planar Z_d code (with the "
        "hashing bound of its d, the rate random codes reach, for comparison); one-shot and "
        "sustained: the game's spanning rule. Without a "
        "broker it runs in this process."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--family",
            choices=FAMILY_CHOICES,
            default=None,
            help="the rule family: planar (a planar Z_d code, logical failure: "
            "the QEC threshold), or one-shot and sustained (the game's spanning "
            "rule: the spanning threshold)",
        )
        parser.add_argument(
            "--modulus", type=int, default=None, help="planar only: the modulus d of Z_d, 2 to 10"
        )
        parser.add_argument(
            "--bots",
            default="clustering",
            help="comma-separated bot names (default: clustering; planar: matching, clustering or "
            "optimal)",
        )
        parser.add_argument("--sizes", default="8,12,16,24",
                            help="board sizes L (3 to 64; default 8,12,16,24: with four sizes or "
                            "more the scaling fit has a correction term and is the estimate)")
        parser.add_argument(
            "--rates",
            default="0.10:0.30:11",
            help="per-edge error rates: START:STOP:COUNT or a list",
        )
        parser.add_argument(
            "--moves-per-cell",
            type=float,
            default=None,
            help="sustained only: moves per cell per round (default 1)",
        )
        parser.add_argument("--shots", type=int, default=200, help="shots per point")
        add_seed_argument(parser)
        parser.add_argument(
            "--json",
            metavar="FILE",
            default=None,
            help="also write the results as JSON (a list, one object per bot)",
        )
        parser.add_argument(
            "--chunk-size",
            type=int,
            default=None,
            help=f"shots per task (default {DEFAULT_SHOT_CHUNK_SIZE}; planar "
            f"{DEFAULT_PLANAR_CHUNK_SIZE})",
        )
        parser.add_argument(
            "--max-rounds",
            type=int,
            default=None,
            help="sustained: stop a shot alive after this many rounds (default "
            f"{DEFAULT_SHOT_MAX_ROUNDS}); one-shot: stop after this many moves "
            f"per cell (default {DEFAULT_ONE_SHOT_MAX_ROUNDS}); either is "
            "counted as censored",
        )
        parser.add_argument(
            "--record",
            type=int,
            default=0,
            metavar="K",
            help="planar only: also record the first K shots of every point "
            "as full games (replayable, in the research exports)",
        )
        add_fit_argument(parser)
        add_run_arguments(
            parser, resume_help="finish an interrupted threshold sweep: run its missing chunks"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        json_path = Path(options["json"]) if options["json"] else None
        if json_path is not None and not json_path.parent.is_dir():
            raise CommandError(f"--json: the folder {str(json_path.parent)!r} does not exist")

        def create() -> Sweep:
            if options["family"] is None:
                raise CommandError("--family is required: " + ", ".join(FAMILY_CHOICES))
            return threshold_sweep_create(
                family=options["family"],
                bots=comma_list(options["bots"], str, "bots"),
                sizes=comma_list(options["sizes"], int, "sizes"),
                rates=parse_rates(options["rates"]),
                shots_per_point=options["shots"],
                seed=sweep_seed(options),
                moves_per_cell=options["moves_per_cell"],
                chunk_size=options["chunk_size"],
                max_rounds=options["max_rounds"],
                modulus=options["modulus"],
                record_shots=options["record"],
                fit_id=options["fit"],
            )

        sweep = sweep_run_from_command(
            self,
            options,
            create=create,
            what="threshold sweep",
            unit="shot",
            desc="threshold",
            resumable=lambda found: bool(found.family),
        )
        self.stdout.write("")
        self.stdout.write(
            reports.rate_points_table(selectors.sweep_points(sweep=sweep), family=sweep.family)
        )
        self.stdout.write("")
        self.stdout.write(
            reports.rate_thresholds_table(selectors.sweep_thresholds(sweep=sweep), sweep=sweep)
        )
        if json_path is not None:
            text = json.dumps(selectors.threshold_results(sweep=sweep), indent=1)
            try:
                json_path.write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise CommandError(
                    f"--json: cannot write {str(json_path)!r}: {exc.strerror}"
                ) from exc
            self.stdout.write(f"\nwrote {json_path}")
        self.stdout.write(f"\nsweep id: {sweep.pk}")
