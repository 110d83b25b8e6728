"""``manage.py threshold``: a threshold sweep of a rule family, with both estimates.

Runs every (bot, L, p) of the grid, N seeded shots each, on the Celery
workers (in this process without a broker), prints the points and the
threshold by crossings and by finite-size scaling, and with ``--json``
writes the same as a list with one object per bot.
"""

from __future__ import annotations

import json
import math
import secrets
from pathlib import Path
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from results import reports, selectors
from results.services import (
    SweepError,
    sweep_resume,
    sweep_start,
    sweep_wait,
    threshold_sweep_create,
)
from results.services.sweeps import (
    DEFAULT_ONE_SHOT_MAX_ROUNDS,
    DEFAULT_PLANAR_CHUNK_SIZE,
    DEFAULT_SHOT_CHUNK_SIZE,
    DEFAULT_SHOT_MAX_ROUNDS,
)

MAX_RATES = 200


def parse_rates(text: str) -> list[float]:
    """``A:B:N`` (N evenly spaced rates from A to B) or a comma-separated list."""
    text = text.strip()
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise CommandError(f"--rates: {text!r} is not START:STOP:COUNT (e.g. 0.10:0.30:11)")
        try:
            start, stop, count = float(parts[0]), float(parts[1]), int(parts[2])
        except ValueError:
            raise CommandError(f"--rates: {text!r} is not START:STOP:COUNT "
                               "(e.g. 0.10:0.30:11)") from None
        if not (math.isfinite(start) and math.isfinite(stop)) or not 2 <= count <= MAX_RATES:
            raise CommandError(f"--rates: COUNT must be from 2 to {MAX_RATES} and the ends "
                               "finite numbers")
        if not start < stop:
            raise CommandError("--rates: START must be below STOP")
        step = (stop - start) / (count - 1)
        return [round(start + i * step, 10) for i in range(count)]
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise CommandError("--rates needs START:STOP:COUNT or a comma-separated list")
    try:
        rates = [float(item) for item in items]
    except ValueError:
        raise CommandError(f"--rates: {text!r} is not a comma-separated list of numbers") from None
    if len(rates) > MAX_RATES:
        raise CommandError(f"--rates: at most {MAX_RATES} rates")
    return sorted(rates)


def _list(text: str, name: str, kind: type) -> list[Any]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise CommandError(f"--{name} needs a comma-separated list")
    try:
        return [kind(item) for item in items]
    except ValueError:
        raise CommandError(f"--{name}: {text!r} is not a comma-separated list of "
                           f"{'integers' if kind is int else 'names'}") from None


class Command(BaseCommand):
    help = (
        "Run a threshold sweep of a rule family: every (bot, L, p), N seeded shots each; print "
        "the points and the threshold by crossings of adjacent-L curves and by a "
        "finite-size-scaling fit. planar: logical failure of a planar Z_d code (with the "
        "hashing bound of its d); one-shot and sustained: the game's spanning rule. Without a "
        "broker it runs in this process."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--family", choices=["planar", "one-shot", "sustained"], default=None,
                            help="the rule family: planar (a planar Z_d code, logical failure: "
                            "the QEC threshold), or one-shot and sustained (the game's spanning "
                            "rule: the spanning threshold)")
        parser.add_argument("--modulus", type=int, default=None,
                            help="planar only: the modulus d of Z_d, 2 to 10")
        parser.add_argument("--bots", default="clustering",
                            help="comma-separated bot names (default: clustering; planar: "
                            "matching or clustering)")
        parser.add_argument("--sizes", default="8,12,16", help="board sizes L (3 to 64)")
        parser.add_argument("--rates", default="0.10:0.30:11",
                            help="per-edge error rates: START:STOP:COUNT or a list")
        parser.add_argument("--moves-per-cell", type=float, default=None,
                            help="sustained only: moves per cell per round (default 1)")
        parser.add_argument("--shots", type=int, default=200, help="shots per point")
        parser.add_argument("--seed", type=int, default=None,
                            help="seed of the whole sweep (default: random, printed)")
        parser.add_argument("--json", metavar="FILE", default=None,
                            help="also write the results as JSON (a list, one object per bot)")
        parser.add_argument("--chunk-size", type=int, default=None,
                            help=f"shots per task (default {DEFAULT_SHOT_CHUNK_SIZE}; planar "
                            f"{DEFAULT_PLANAR_CHUNK_SIZE})")
        parser.add_argument("--max-rounds", type=int, default=None,
                            help="sustained: stop a shot alive after this many rounds (default "
                            f"{DEFAULT_SHOT_MAX_ROUNDS}); one-shot: stop after this many moves "
                            f"per cell (default {DEFAULT_ONE_SHOT_MAX_ROUNDS}); either is "
                            "counted as censored")
        parser.add_argument("--record", type=int, default=0, metavar="K",
                            help="planar only: also record the first K shots of every point "
                            "as full games (replayable, in the research exports)")
        parser.add_argument("--resume", metavar="SWEEP_ID", default=None,
                            help="finish an interrupted threshold sweep: run its missing chunks")
        parser.add_argument("--timeout", type=float, default=None,
                            help="give up waiting after this many seconds")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        json_path = Path(options["json"]) if options["json"] else None
        if json_path is not None and not json_path.parent.is_dir():
            raise CommandError(f"--json: the folder {str(json_path.parent)!r} does not exist")
        bar: tqdm[Any] | None = None

        def progress(done: int, total: int) -> None:
            nonlocal bar
            if options["no_progress"]:
                return
            if bar is None:
                stderr = cast(TextIO, self.stderr._out)
                bar = tqdm(total=total, unit="shot", desc="threshold", file=stderr)
            bar.update(done - bar.n)

        try:
            if options["resume"]:
                sweep = selectors.sweep_get(sweep_id=options["resume"])
                if sweep is None or not sweep.family:
                    raise CommandError(f"no threshold sweep {options['resume']!r}")
                self.stdout.write(reports.sweep_header(sweep))
                sweep = sweep_resume(sweep=sweep, progress=progress, timeout=options["timeout"])
            else:
                if options["family"] is None:
                    raise CommandError("--family is required: planar, one-shot or sustained")
                seed = options["seed"]
                if seed is None:
                    seed = secrets.randbits(63)
                sweep = threshold_sweep_create(
                    family=options["family"],
                    bots=_list(options["bots"], "bots", str),
                    sizes=_list(options["sizes"], "sizes", int),
                    rates=parse_rates(options["rates"]),
                    shots_per_point=options["shots"],
                    seed=seed,
                    moves_per_cell=options["moves_per_cell"],
                    chunk_size=options["chunk_size"],
                    max_rounds=options["max_rounds"],
                    modulus=options["modulus"],
                    record_shots=options["record"],
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
            raise CommandError(f"threshold sweep {sweep.pk} failed: {sweep.error}")
        self.stdout.write("")
        self.stdout.write(reports.rate_points_table(selectors.sweep_points(sweep=sweep),
                                                    family=sweep.family))
        self.stdout.write("")
        self.stdout.write(reports.rate_thresholds_table(selectors.sweep_thresholds(sweep=sweep),
                                                        sweep=sweep))
        if json_path is not None:
            text = json.dumps(selectors.threshold_results(sweep=sweep), indent=1)
            try:
                json_path.write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"--json: cannot write {str(json_path)!r}: "
                                   f"{exc.strerror}") from exc
            self.stdout.write(f"\nwrote {json_path}")
        self.stdout.write(f"\nsweep id: {sweep.pk}")
