"""Benchmark of threshold sweeps: shots per second per L, and time to a narrow interval.

Two families: ``one-shot`` (the game's spanning threshold; the default) and
``planar`` (the logical threshold of the planar Z_d code, ``--modulus d``).

1. Shots per second per L for a bot near its threshold, played in plain
   processes (no Celery, no database) on 1 process and then on 2 (the very
   same shots, split in two), with the speed-up. The 1-process rate is the
   baseline, measured in the same run.
2. The wall time until the crossing's 95% interval is narrower than 10% of
   the threshold (``--width``, a share of p_th; or ``--absolute-width``, in
   p) for sizes 8, 12, 16 and 24, on 2 processes and then on 1.
   Rounds of ``--batch`` more shots at every point of the grid, each
   followed by ``core.stats.threshold_from_rates`` with the resamples
   and seed a sweep uses (the statistics of the ``threshold`` command),
   until the estimate has *settled*: it is *sound* (a crossing, not at the
   edge of the grid, crossing again in at least 95% of the resamples, its
   interval narrower than 10% of its value) two rounds running, and no
   pair of sizes' own crossing moved between those two rounds by more than
   half the interval's width. One narrow round is not enough: widths
   fluctuate from round to round (d = 10: 6.1%, 6.5%, 4.8%) while the pair
   crossings can still drift. The scaling fit, whether the two methods
   agree and each pair of sizes' own crossing are printed beside it. The
   1-process run plays the same rounds (the same seeds), so it stops after
   the same round: the two wall times are for the same shots and the same
   statistics (not run when the first run did not get there within
   ``--limit``). Beside the wall time,
   the CPU seconds spent on the shots (in the processes that played them)
   and on the statistics, which other work on a shared machine disturbs far
   less. Target: under 10 minutes on a 2-core machine. The grid must bracket the crossing
   (the default, 0.22 to 0.36, does for the clustering bot); a run whose
   crossing stays at an edge never stops and says so.

Shots are seeded as a threshold sweep seeds them (``family_shot_seed``), so a run
with the same ``--seed`` plays the same games.

Run from the repository root::

    python -m bench.threshold [--family one-shot] [--modulus D] [--bot clustering]
                              [--sizes 8,12,16,24] [--rates 0.22:0.36:8]
                              [--speed-rate 0.30] [--speed-shots 40] [--batch 100]
                              [--width 0.10 | --absolute-width W] [--limit 600] [--seed 1]
                              [--workers 2,1] [--skip-speed] [--check]

The planar calibrations of docs/threshold.md::

    python -m bench.threshold --family planar --modulus 2 --bot matching --sizes 8,12,16 \
        --rates 0.07:0.13:7 --absolute-width 0.01 --batch 2000 --speed-rate 0.10 --speed-shots 2000
    python -m bench.threshold --family planar --modulus 10 --bot clustering --sizes 8,12,16 \
        --rates RATES --width 0.05 --batch 500 --speed-rate P --speed-shots 500

``--check`` exits non-zero when the 2-process run has not settled within 10 minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import get_context

from core.stats import RatePoint, ThresholdReport, threshold_from_rates
from games.engine import Family
from games.engine.families import family_shot_seed, play_shot, threshold_rules
from games.engine.planar import hashing_bound, planar_outcomes

TARGET_SECONDS = 600.0
LEVEL = 0.95
RESAMPLES = 1000  # as results.services.sweeps.BOOTSTRAP_RESAMPLES (no Django here)
MOVES_PER_CELL_CAP = 3  # as results.services.sweeps.DEFAULT_ONE_SHOT_MAX_ROUNDS
# The families this benchmark plays, as the command line spells them (one-shot, planar).
FAMILY_OPTIONS = {
    family.value.replace("_", "-"): family for family in (Family.ONE_SHOT, Family.PLANAR)
}


class Target:
    """The interval width a run must reach: a share of p_th, or an absolute width in p."""

    def __init__(self, share: float | None, absolute: float | None) -> None:
        self.share, self.absolute = share, absolute

    def met(self, lower: float, upper: float, value: float) -> bool:
        if self.absolute is not None:
            return upper - lower < self.absolute
        return (upper - lower) / value < (self.share or 0.10)

    def __str__(self) -> str:
        if self.absolute is not None:
            return f"narrower than {self.absolute:g} in p"
        return f"under {self.share or 0.10:.0%} of p_th"


# family, modulus (0 unless planar), bot, size, rate, seed, first shot, shots
Task = tuple[str, int, str, int, float, int, int, int]


def _play(task: Task) -> tuple[int, float, int, float]:
    """(size, rate, failures, CPU seconds) of ``shots`` shots from ``first``."""
    family, modulus, bot, size, rate, seed, first, shots = task
    started = time.process_time()
    rules = threshold_rules(family=family, size=size, rate=rate, modulus=modulus or None)
    seeds = [family_shot_seed(family=family, seed=seed, size=size, rate=rate, shot=shot)
             for shot in range(first, first + shots)]
    if family == Family.PLANAR:
        outcomes = planar_outcomes(rules=rules, bot=bot, seeds=seeds,
                                   max_moves=MOVES_PER_CELL_CAP * size * size)
        failures = sum(o.failed for o in outcomes)
    else:
        failures = sum(play_shot(rules=rules, bot=bot, seed=s).failed for s in seeds)
    return size, rate, failures, time.process_time() - started


def _rates(text: str) -> list[float]:
    if ":" in text:
        start, stop, count = text.split(":")
        a, b, n = float(start), float(stop), int(count)
        return [round(a + i * (b - a) / (n - 1), 10) for i in range(n)]
    return [float(x) for x in text.split(",")]


def speed(family: str, modulus: int, bot: str, sizes: list[int], rate: float, shots: int,
          seed: int, chunk: int) -> None:
    print(f"1. shots per second, {bot}, {family} p = {rate:g}, {shots} shots per size "
          f"in tasks of {chunk} (wall time)")
    print(f"{'L':>4} {'1 process':>11} {'2 processes':>12} {'speed-up':>9} {'s per shot':>11}")
    context = get_context("fork")
    with context.Pool(2) as pool:
        # Start the workers.
        pool.map(_play, [(family, modulus, bot, 4, rate, seed, i, 1) for i in range(4)])
        for size in sizes:
            tasks = [(family, modulus, bot, size, rate, seed, i, min(chunk, shots - i))
                     for i in range(0, shots, chunk)]
            started = time.perf_counter()
            for task in tasks:
                _play(task)
            one = shots / (time.perf_counter() - started)
            started = time.perf_counter()
            pool.map(_play, tasks, chunksize=1)
            two = shots / (time.perf_counter() - started)
            print(f"{size:>4} {one:>11.2f} {two:>12.2f} {two / one:>8.2f}x {1 / one:>11.4f}",
                  flush=True)


def sound(report: ThresholdReport, target: Target) -> tuple[bool, float | None]:
    """Whether the crossing is a figure to quote, and its width as a share of its value."""
    crossing = report.crossing
    if crossing.value is None or crossing.lower is None or crossing.upper is None:
        return False, None
    width = (crossing.upper - crossing.lower) / crossing.value
    ok = (not crossing.edge and crossing.fraction >= LEVEL
          and target.met(crossing.lower, crossing.upper, crossing.value)
          and crossing.lower < crossing.value < crossing.upper)
    return ok, width


@dataclass(frozen=True, slots=True)
class RoundEstimate:
    """What one round of the run found: sound or not, its width in p, each pair's crossing."""

    sound: bool
    width: float | None  # upper - lower of the crossing's interval, in p
    pairs: dict[tuple[int, int], float | None]  # sizes (a, b) -> their curves' crossing


def round_estimate(report: ThresholdReport, target: Target) -> RoundEstimate:
    crossing = report.crossing
    ok, _ = sound(report, target)
    width = (crossing.upper - crossing.lower
             if crossing.lower is not None and crossing.upper is not None else None)
    pairs: dict[tuple[int, int], float | None] = {
        (pair.sizes[0], pair.sizes[1]): pair.value for pair in crossing.pairs
    }
    return RoundEstimate(sound=ok, width=width, pairs=pairs)


def settled(rounds: Sequence[RoundEstimate]) -> bool:
    """Whether to stop: sound two rounds running, and no pair crossing moved by half the width.

    The width is the last round's, in p. A pair that did not cross in either
    of the two rounds has not settled.
    """
    if len(rounds) < 2:
        return False
    previous, last = rounds[-2], rounds[-1]
    if not (previous.sound and last.sound) or last.width is None:
        return False
    if previous.pairs.keys() != last.pairs.keys():
        return False
    for sizes, value in last.pairs.items():
        before = previous.pairs[sizes]
        if value is None or before is None or abs(value - before) > last.width / 2:
            return False
    return True


def _describe(report: ThresholdReport) -> str:
    crossing, scaling = report.crossing, report.scaling
    if crossing.value is None:
        return report.message
    text = (f"crossing {crossing.value:.4f} [{crossing.lower:.4f}, {crossing.upper:.4f}]"
            f"{' AT THE EDGE' if crossing.edge else ''}, resampled crossings "
            f"{crossing.fraction:.0%}")
    if scaling.p_th is not None and not scaling.edge:
        text += (f"; scaling {scaling.p_th:.4f} [{scaling.lower:.4f}, {scaling.upper:.4f}] "
                 f"nu {scaling.nu:.2f}")
    else:
        text += "; scaling: no value"
    agree = {True: "agree", False: "DISAGREE", None: "-"}[report.agree]
    pairs = ", ".join(
        f"L={a},{b} {p.value:.3f} [{p.lower:.3f}, {p.upper:.3f}]"
        if p.value is not None and p.lower is not None and p.upper is not None
        else f"L={a},{b} none"
        for p in crossing.pairs for a, b in (p.sizes,)
    )
    return text + f"; methods {agree}; pairs {pairs}"


def time_to_interval(family: str, modulus: int, bot: str, sizes: list[int],
                     rates: list[float], batch: int, limit: float, seed: int, workers: int,
                     target: Target, chunk: int) -> float | None:
    print(f"\n2. time until the crossing has settled, its 95% interval {target} "
          f"({family}{f' d={modulus}' if modulus else ''}, {bot}, sizes "
          f"{','.join(map(str, sizes))}, {len(rates)} rates {rates[0]:g}..{rates[-1]:g}, "
          f"{batch} more shots a point per round, {workers} "
          f"process{'es' if workers > 1 else ''})", flush=True)
    failures = {(s, r): 0 for s in sizes for r in rates}
    shots = 0
    rounds: list[RoundEstimate] = []
    started = time.perf_counter()
    context = get_context("fork")
    pool = context.Pool(workers) if workers > 1 else None
    run: Callable[[Iterable[Task]], Iterator[tuple[int, float, int, float]]]
    cpu = 0.0  # CPU seconds of the shots (in the processes that played them) and statistics
    if pool is not None:
        run = lambda tasks: pool.imap_unordered(_play, tasks)  # noqa: E731
    else:
        run = lambda tasks: map(_play, tasks)  # noqa: E731
    try:
        while time.perf_counter() - started < limit:
            # The biggest boards first, so that two processes finish a round together.
            tasks = [(family, modulus, bot, s, r, seed, shots + k, min(chunk, batch - k))
                     for s in sorted(sizes, reverse=True) for r in rates
                     for k in range(0, batch, chunk)]
            played = {key: 0 for key in failures}
            for size, rate, count, seconds in run(tasks):
                played[(size, rate)] += count
                cpu += seconds
                if time.perf_counter() - started > limit:
                    break  # the round is cut short: its shots are not counted
            else:
                for key, count in played.items():
                    failures[key] += count
                shots += batch
                stats_started = time.process_time()
                report = threshold_from_rates(
                    [RatePoint(s, r, failures[(s, r)], shots) for s in sizes for r in rates],
                    n_resamples=RESAMPLES, seed=seed, level=LEVEL,
                )
                cpu += time.process_time() - stats_started
                elapsed = time.perf_counter() - started
                ok, width = sound(report, target)
                rounds.append(round_estimate(report, target))
                share = f", width {width:.1%} of p_th" if width is not None else ""
                mark = ", sound" if ok else ""
                print(f"  {elapsed:7.1f} s (CPU {cpu:7.1f} s), {shots} shots a point: "
                      f"{_describe(report)}{share}{mark}", flush=True)
                if settled(rounds):
                    total = shots * len(sizes) * len(rates)
                    print(f"  settled after {elapsed:.1f} s of wall time and {cpu:.1f} s of CPU "
                          f"({shots} shots a point, {total} shots; sound two rounds running, "
                          f"no pair crossing moved by more than half the width); target "
                          f"{TARGET_SECONDS:.0f} s")
                    print(f"  {report.message}")
                    if modulus:
                        bound = hashing_bound(modulus)
                        share = 1 - (report.crossing.value or 0) / bound
                        where = (f"{100 * share:.0f}% below it" if share >= 0 else
                                 f"{-100 * share:.0f}% above it, the rate random codes "
                                 "reach: unusual: check")
                        print(f"  hashing bound for d = {modulus}: {bound:.4f}; the crossing "
                              f"is {where}")
                    return elapsed
                continue
            break
    finally:
        if pool is not None:
            pool.terminate()
    print(f"  not settled within {limit:.0f} s ({shots} shots a point in complete rounds)")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=list(FAMILY_OPTIONS), default="one-shot")
    parser.add_argument("--modulus", type=int, default=0, help="planar: d of Z_d")
    parser.add_argument("--bot", default="clustering")
    parser.add_argument("--width", type=float, default=0.10,
                        help="target: the interval under this share of p_th")
    parser.add_argument("--absolute-width", type=float, default=None,
                        help="target: the interval narrower than this, in p")
    parser.add_argument("--chunk", type=int, default=None,
                        help="shots per task (default 10; planar 500)")
    parser.add_argument("--sizes", default="8,12,16,24")
    parser.add_argument("--rates", default="0.22:0.36:8")
    parser.add_argument("--speed-rate", type=float, default=0.30)
    parser.add_argument("--speed-shots", type=int, default=40)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--limit", type=float, default=TARGET_SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="2,1",
                        help="process counts for figure 2, run in this order (2,1)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    family = FAMILY_OPTIONS[args.family].value
    if family == Family.PLANAR and not args.modulus:
        parser.error("--family planar needs --modulus")
    chunk = args.chunk or (500 if family == Family.PLANAR else 10)
    target = Target(args.width, args.absolute_width)
    if not args.skip_speed:
        speed(family, args.modulus, args.bot, sizes, args.speed_rate, args.speed_shots,
              args.seed, chunk)
    reached: dict[int, float | None] = {}
    for workers in (int(w) for w in args.workers.split(",")):
        if reached and all(t is None for t in reached.values()):
            print(f"\n2. {workers} process{'es' if workers > 1 else ''}: not run (not settled "
                  "within the limit on more processes)")
            continue
        reached[workers] = time_to_interval(family, args.modulus, args.bot, sizes,
                                            _rates(args.rates), args.batch, args.limit,
                                            args.seed, workers, target, chunk)
    print("\nsummary: " + "; ".join(
        f"{w} process{'es' if w > 1 else ''}: "
        + (f"{t:.1f} s" if t is not None else "not reached") for w, t in reached.items()))
    two = reached.get(2)
    if args.check and (two is None or two > TARGET_SECONDS):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
