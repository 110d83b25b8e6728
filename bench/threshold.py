"""Benchmark of one-shot threshold sweeps: shots per second per L, and time to a 10% interval.

1. Shots per second per L for a bot near its threshold, played in plain
   processes (no Celery, no database) on 1 process and then on 2 (the very
   same shots, split in two), with the speed-up. The 1-process rate is the
   baseline, measured in the same run.
2. The wall time until the crossing's 95% interval is narrower than 10% of
   the threshold for sizes 8, 12, 16 and 24, on 2 processes: rounds of
   ``--batch`` more shots at every point of the grid, each followed by
   ``results.stats.threshold_from_rates`` (1000 resamples), until the
   interval is narrow enough or ``--limit`` seconds have gone by. Target:
   under 10 minutes on a 2-core machine.

Shots are seeded as a threshold sweep seeds them (``shot_seed``), so a run
with the same ``--seed`` plays the same games.

Run from the repository root::

    python -m bench.threshold [--bot clustering] [--sizes 8,12,16,24] [--rates 0.26:0.40:8]
                              [--speed-rate 0.33] [--speed-shots 20] [--batch 20]
                              [--limit 600] [--seed 1] [--check]

``--check`` exits non-zero when the interval is not narrow enough within 10 minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import get_context

from games.engine.families import play_shot, shot_seed, threshold_rules
from results.stats import RatePoint, threshold_from_rates

TARGET_SECONDS = 600.0
TARGET_WIDTH = 0.10  # of p_th


def _play(task: tuple[str, int, float, int, int]) -> bool:
    bot, size, rate, seed, shot = task
    rules = threshold_rules(family="one_shot", size=size, rate=rate)
    return play_shot(rules=rules, bot=bot,
                     seed=shot_seed(seed=seed, size=size, rate=rate, shot=shot)).failed


def _indexed(item: tuple[int, tuple[str, int, float, int, int]]) -> tuple[int, bool]:
    return item[0], _play(item[1])


def _rates(text: str) -> list[float]:
    if ":" in text:
        start, stop, count = text.split(":")
        a, b, n = float(start), float(stop), int(count)
        return [round(a + i * (b - a) / (n - 1), 10) for i in range(n)]
    return [float(x) for x in text.split(",")]


def speed(bot: str, sizes: list[int], rate: float, shots: int, seed: int) -> None:
    print(f"1. shots per second, {bot}, one-shot p = {rate:g}, {shots} shots per size")
    print(f"{'L':>4} {'1 process':>11} {'2 processes':>12} {'speed-up':>9}")
    context = get_context("fork")
    with context.Pool(2) as pool:
        pool.map(_play, [(bot, 4, rate, seed, i) for i in range(4)])  # start the workers
        for size in sizes:
            tasks = [(bot, size, rate, seed, i) for i in range(shots)]
            started = time.perf_counter()
            for task in tasks:
                _play(task)
            one = shots / (time.perf_counter() - started)
            started = time.perf_counter()
            pool.map(_play, tasks, chunksize=1)
            two = shots / (time.perf_counter() - started)
            print(f"{size:>4} {one:>11.2f} {two:>12.2f} {two / one:>8.2f}x", flush=True)


def time_to_interval(bot: str, sizes: list[int], rates: list[float], batch: int,
                     limit: float, seed: int) -> float | None:
    print(f"\n2. time until the crossing's 95% interval is under {TARGET_WIDTH:.0%} of p_th "
          f"({bot}, sizes {','.join(map(str, sizes))}, {len(rates)} rates "
          f"{rates[0]:g}..{rates[-1]:g}, {batch} more shots a point per round, 2 processes)")
    failures = {(s, r): 0 for s in sizes for r in rates}
    shots = 0
    started = time.perf_counter()
    context = get_context("fork")
    with context.Pool(2) as pool:
        while time.perf_counter() - started < limit:
            tasks = [(bot, s, r, seed, shots + i) for s in sizes for r in rates
                     for i in range(batch)]
            played: dict[tuple[int, float], int] = {}
            for index, failed in pool.imap_unordered(_indexed, list(enumerate(tasks))):
                _, s, r, _, _ = tasks[index]
                played[(s, r)] = played.get((s, r), 0) + failed
                if time.perf_counter() - started > limit:
                    break  # the round is cut short: its shots are not counted
            else:
                for key, count in played.items():
                    failures[key] += count
                shots += batch
                played = {}
            if played:
                break
            report = threshold_from_rates(
                [RatePoint(s, r, failures[(s, r)], shots) for s in sizes for r in rates],
                n_resamples=1000, seed=seed,
            )
            elapsed = time.perf_counter() - started
            crossing = report.crossing
            if crossing.value is None or crossing.lower is None or crossing.upper is None:
                print(f"  {elapsed:7.1f} s, {shots} shots a point: {report.message}", flush=True)
                continue
            width = (crossing.upper - crossing.lower) / crossing.value
            print(f"  {elapsed:7.1f} s, {shots} shots a point: crossing {crossing.value:.4f} "
                  f"[{crossing.lower:.4f}, {crossing.upper:.4f}], width {width:.1%} of p_th; "
                  f"scaling {report.scaling.p_th}", flush=True)
            if width < TARGET_WIDTH:
                print(f"  reached after {elapsed:.1f} s ({shots} shots a point, "
                      f"{shots * len(sizes) * len(rates)} shots); target {TARGET_SECONDS:.0f} s")
                print(f"  {report.message}")
                return elapsed
    print(f"  not reached within {limit:.0f} s ({shots} shots a point in complete rounds)")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="clustering")
    parser.add_argument("--sizes", default="8,12,16,24")
    parser.add_argument("--rates", default="0.26:0.40:8")
    parser.add_argument("--speed-rate", type=float, default=0.33)
    parser.add_argument("--speed-shots", type=int, default=20)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--limit", type=float, default=TARGET_SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    if not args.skip_speed:
        speed(args.bot, sizes, args.speed_rate, args.speed_shots, args.seed)
    reached = time_to_interval(args.bot, sizes, _rates(args.rates), args.batch, args.limit,
                               args.seed)
    if args.check and (reached is None or reached > TARGET_SECONDS):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
