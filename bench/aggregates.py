"""How long the dashboard's aggregates take to absorb 1,000 new games, by history size.

The aggregates are incremental: absorbing a day's games should cost time in
proportion to that day, not to everything stored before. This benchmark
stores synthetic finished games with their analyses (``bench/synthetic.py``)
in a temporary PostgreSQL database, absorbs them, then times
``dashboard.services.aggregates_refresh`` on 1,000 new games (one more day)
with 10,000 and with 100,000 games already stored (``--repeats`` times each,
the median counts), and prints both times and their ratio (target: at most
1.5).

The database is created on 127.0.0.1:5432 as user postgres and dropped at the
end (the helpers of ``bench/api_load.py``). Run from the repository root::

    python -m bench.aggregates [--stored 10000,100000] [--new 1000] [--repeats 3] [--check]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time

from bench.api_load import database, migrate, server_environment
from bench.synthetic import Generator, setup_django

TARGET_RATIO = 1.5


def absorb(settle: datetime.timedelta) -> tuple[float, object]:
    from dashboard.services import aggregates_refresh

    started = time.perf_counter()
    report = aggregates_refresh(settle=settle)
    return time.perf_counter() - started, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stored", default="10000,100000",
                        help="history sizes, comma-separated, increasing")
    parser.add_argument("--new", type=int, default=1000, help="games absorbed per timed run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    sizes = [int(text) for text in args.stored.split(",")]
    if sizes != sorted(sizes) or sizes[0] < 1:
        parser.error("--stored must be increasing positive numbers")

    with database(None) as (url, _temporary):
        migrate(server_environment(url))
        setup_django(url)
        from django.db import connection

        settle = datetime.timedelta(0)
        # Every game ends in the past, one timed batch per later day.
        day = datetime.timedelta(days=1)
        start = datetime.datetime.now(tz=datetime.UTC) - datetime.timedelta(days=400)
        generator = Generator(seed=11, now=start + datetime.timedelta(days=400))
        clock = start
        stored = 0
        medians: dict[int, float] = {}
        for size in sizes:
            missing = size - stored
            began = time.perf_counter()
            generator.store(missing, start=clock, end=clock + 100 * day)
            clock += 100 * day
            written = time.perf_counter() - began
            catch_up, _ = absorb(settle)
            stored = size
            print(f"stored {size:,} games (+{missing:,} written in {written:.1f} s, "
                  f"absorbed in {catch_up:.1f} s)", flush=True)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            times = []
            for _ in range(args.repeats):
                generator.store(args.new, start=clock, end=clock + day)
                clock += day
                seconds, report = absorb(settle)
                assert report.games == args.new, report
                assert report.analyses == args.new, report
                times.append(seconds)
                # The timed games are history for the next run.
                stored += args.new
            medians[size] = statistics.median(times)
            print(f"  absorbing {args.new:,} new games with {size:,} stored: "
                  f"{', '.join(f'{t * 1000:.0f}' for t in times)} ms "
                  f"(median {medians[size] * 1000:.0f} ms)", flush=True)
        connection.close()

    first, last = sizes[0], sizes[-1]
    ratio = medians[last] / medians[first]
    verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
    print(f"ratio {last:,} / {first:,} stored: {ratio:.2f} (target <= {TARGET_RATIO}) {verdict}")
    return 1 if args.check and ratio > TARGET_RATIO else 0


if __name__ == "__main__":
    sys.exit(main())
