"""``manage.py sweep``: run a threshold sweep with a progress bar and print its results."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from results import reports, selectors
from results.services import SweepError, sweep_create, sweep_resume, sweep_start, sweep_wait
from results.services.sweeps import DEFAULT_CHUNK_SIZE, DEFAULT_MAX_ROUNDS


def _list(text: str, kind: Callable[[str], Any], name: str) -> list[Any]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise CommandError(f"--{name} needs a comma-separated list")
    try:
        return [kind(item) for item in items]
    except ValueError:
        raise CommandError(f"--{name}: {text!r} is not a comma-separated list of "
                           f"{'integers' if kind is int else 'numbers'}") from None


class Command(BaseCommand):
    help = (
        "Run a threshold sweep: every (bot, L, budget) of the grid, N seeded games each. "
        "Without a broker it runs in this process; with one, on the Celery workers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bots", default="greedy,clustering",
                            help="comma-separated bot names (default: greedy,clustering)")
        parser.add_argument("--sizes", default="5,7,9,11", help="board sizes L")
        parser.add_argument("--budgets", default="3,4,5,6,7", help="noise budgets per round")
        parser.add_argument("--games", type=int, default=100, help="games per point")
        parser.add_argument("--seed", type=int, default=None,
                            help="seed of the whole sweep (default: random, printed)")
        parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE,
                            help="games per task")
        parser.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS,
                            help="stop a game alive after this many rounds (censored)")
        parser.add_argument("--resume", metavar="SWEEP_ID", default=None,
                            help="finish an interrupted sweep: run only its missing chunks")
        parser.add_argument("--timeout", type=float, default=None,
                            help="give up waiting after this many seconds")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        bar: tqdm | None = None

        def progress(done: int, total: int) -> None:
            nonlocal bar
            if options["no_progress"]:
                return
            if bar is None:
                stderr = cast(TextIO, self.stderr._out)
                bar = tqdm(total=total, unit="game", desc="sweep", file=stderr)
            bar.update(done - bar.n)

        try:
            if options["resume"]:
                sweep = selectors.sweep_get(sweep_id=options["resume"])
                if sweep is None:
                    raise CommandError(f"no sweep {options['resume']!r}")
                self.stdout.write(reports.sweep_header(sweep))
                sweep = sweep_resume(sweep=sweep, progress=progress, timeout=options["timeout"])
            else:
                seed = options["seed"]
                if seed is None:
                    seed = secrets.randbits(63)
                sweep = sweep_create(
                    bots=_list(options["bots"], str, "bots"),
                    sizes=_list(options["sizes"], int, "sizes"),
                    budgets=_list(options["budgets"], float, "budgets"),
                    games_per_point=options["games"],
                    seed=seed,
                    chunk_size=options["chunk_size"],
                    max_rounds=options["max_rounds"],
                )
                self.stdout.write(reports.sweep_header(sweep))
                sweep = sweep_start(sweep=sweep, progress=progress)
                sweep = sweep_wait(sweep=sweep, progress=progress, timeout=options["timeout"])
        except SweepError as exc:
            raise CommandError(str(exc)) from exc
        except TimeoutError as exc:
            raise CommandError(f"{exc}; resume it with --resume") from exc
        except KeyboardInterrupt:
            raise CommandError("interrupted; finish it later with --resume "
                               "(chunks already stored are kept)") from None
        finally:
            if bar is not None:
                bar.close()
        if sweep.status == sweep.Status.FAILED:
            raise CommandError(f"sweep {sweep.pk} failed: {sweep.error}")
        self.stdout.write("")
        self.stdout.write(reports.points_table(selectors.sweep_points(sweep=sweep)))
        self.stdout.write("")
        self.stdout.write(reports.thresholds_table(selectors.sweep_thresholds(sweep=sweep)))
        humans = [h for h in selectors.human_points() if h.games]
        if humans:
            self.stdout.write("")
            self.stdout.write(reports.humans_table(humans))
        self.stdout.write(f"\nsweep id: {sweep.pk}")
