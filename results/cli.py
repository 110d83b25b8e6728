"""What the ``sweep`` and ``threshold`` commands share: parsing lists, the run, the end.

Both commands create a sweep (or resume one with ``--resume``), run it with a
progress bar on standard error and print its tables; they differ only in the
arguments that make the sweep and in the tables. The rule families are
written on the command line with a hyphen (``one-shot``), derived from the
engine's ``Family``.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.engine.families import Family
from results import selectors
from results.models import Sweep
from results.reports import sweep_header
from results.services import SweepError, sweep_resume, sweep_start, sweep_wait

MAX_RATES = 200

# How the command line writes each rule family: the engine's value with a hyphen.
FAMILY_CHOICES: tuple[str, ...] = tuple(family.value.replace("_", "-") for family in Family)

_KIND_NAMES: dict[Callable[[str], Any], str] = {int: "integers", float: "numbers"}


def comma_list(text: str, kind: Callable[[str], Any], name: str) -> list[Any]:
    """The comma-separated items of option ``--name``, each converted by ``kind``."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise CommandError(f"--{name} needs a comma-separated list")
    try:
        return [kind(item) for item in items]
    except ValueError:
        raise CommandError(
            f"--{name}: {text!r} is not a comma-separated list of {_KIND_NAMES.get(kind, 'names')}"
        ) from None


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
            raise CommandError(
                f"--rates: {text!r} is not START:STOP:COUNT (e.g. 0.10:0.30:11)"
            ) from None
        if not (math.isfinite(start) and math.isfinite(stop)) or not 2 <= count <= MAX_RATES:
            raise CommandError(
                f"--rates: COUNT must be from 2 to {MAX_RATES} and the ends finite numbers"
            )
        if not start < stop:
            raise CommandError("--rates: START must be below STOP")
        step = (stop - start) / (count - 1)
        return [round(start + i * step, 10) for i in range(count)]
    if not any(item.strip() for item in text.split(",")):
        raise CommandError("--rates needs START:STOP:COUNT or a comma-separated list")
    rates: list[float] = comma_list(text, float, "rates")
    if len(rates) > MAX_RATES:
        raise CommandError(f"--rates: at most {MAX_RATES} rates")
    return sorted(rates)


def add_seed_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the whole sweep (default: random, printed)"
    )


def add_fit_argument(parser: CommandParser) -> None:
    """``--fit``: the strategy fit the ``learned`` bot plays with."""
    parser.add_argument(
        "--fit",
        type=int,
        default=None,
        metavar="FIT_ID",
        help="the strategy fit whose weights the learned bot plays with (default: the latest "
        "fit of all games; its id is the bot's version in the sweep's points)",
    )


def add_run_arguments(parser: CommandParser, *, resume_help: str) -> None:
    """``--resume``, ``--timeout`` and ``--no-progress``, the same in both commands."""
    parser.add_argument("--resume", metavar="SWEEP_ID", default=None, help=resume_help)
    parser.add_argument(
        "--timeout", type=float, default=None, help="give up waiting after this many seconds"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def sweep_seed(options: dict[str, Any]) -> int:
    """The ``--seed`` given, or a fresh random one (printed in the sweep's header)."""
    seed = options["seed"]
    return secrets.randbits(63) if seed is None else int(seed)


def sweep_run_from_command(
    command: BaseCommand,
    options: dict[str, Any],
    *,
    create: Callable[[], Sweep],
    what: str,
    unit: str,
    desc: str,
    resumable: Callable[[Sweep], bool] = lambda sweep: True,
) -> Sweep:
    """Create (or with ``--resume`` find) a sweep, run it and wait for it to finish.

    ``what`` names the kind of sweep in errors, ``unit`` and ``desc`` label the
    progress bar, ``resumable`` says whether ``--resume`` may take a stored sweep.
    Errors become ``CommandError``; a failed sweep too, with its reason.
    """
    bar: tqdm[Any] | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if options["no_progress"]:
            return
        if bar is None:
            stderr = cast(TextIO, command.stderr._out)
            bar = tqdm(total=total, unit=unit, desc=desc, file=stderr)
        bar.update(done - bar.n)

    try:
        if options["resume"]:
            found = selectors.sweep_get(sweep_id=options["resume"])
            if found is None or not resumable(found):
                raise CommandError(f"no {what} {options['resume']!r}")
            command.stdout.write(sweep_header(found))
            sweep = sweep_resume(sweep=found, progress=progress, timeout=options["timeout"])
        else:
            sweep = create()
            command.stdout.write(sweep_header(sweep))
            sweep = sweep_start(sweep=sweep, progress=progress)
            sweep = sweep_wait(sweep=sweep, progress=progress, timeout=options["timeout"])
    except SweepError as exc:
        raise CommandError(str(exc)) from exc
    except TimeoutError as exc:
        raise CommandError(f"{exc}; resume it with --resume") from exc
    except KeyboardInterrupt:
        raise CommandError(
            "interrupted; finish it later with --resume (chunks already stored are kept)"
        ) from None
    finally:
        if bar is not None:
            bar.close()
    if sweep.status == Sweep.Status.FAILED:
        raise CommandError(f"{what} {sweep.pk} failed: {sweep.error}")
    return sweep
