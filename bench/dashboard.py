"""Server time of the dashboard page and its data endpoints, with 100 and 100,000 games.

The dashboard reads only the aggregate tables, so its server time should not
grow with the number of games stored. In one run this benchmark stores 100
synthetic finished games with their analyses (``bench/synthetic.py``) in a
temporary PostgreSQL database, builds the aggregates, and times every URL of
the dashboard (the page, each plot's JSON, a CSV download, a filtered and a
dated request, the own games of a player who has many) through Django's
request handling in this process; then it adds games up to 100,000 over the
same days and times the same URLs again. It prints p50 and p95 per size and
their ratios (target: at most 1.5). Plot data is cached until the aggregates
change, so the timed requests after the warm-up are cache hits (except a
player's own games, read for each request); the first request of each URL,
computed from the aggregate tables with an empty cache, is printed beside
them.

The database is created on 127.0.0.1:5432 as user postgres and dropped at the
end (the helpers of ``bench/api_load.py``). Run from the repository root::

    python bench/dashboard.py [--sizes 100,100000] [--requests 20] [--check]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time

from api_load import database, migrate, server_environment
from synthetic import Generator, setup_django

TARGET_RATIO = 1.5
DAYS = 120
PLOTS = ("survival", "hazard", "threshold", "lifetime", "noise", "strategy", "activity")


def urls(today: datetime.date) -> list[str]:
    month_ago = (today - datetime.timedelta(days=30)).isoformat()
    return [
        "/dashboard/",
        *(f"/dashboard/data/{plot}/" for plot in PLOTS),
        "/dashboard/data/mine/",
        "/dashboard/data/survival/?format=csv",
        "/dashboard/data/hazard/?size=7&source=human",
        f"/dashboard/data/activity/?from={month_ago}",
        f"/dashboard/data/strategy/?from={month_ago}&size=7",
    ]


def make_sweep() -> None:
    """A finished sweep of the same shape in both runs: the threshold plot reads it."""
    from django.utils import timezone

    from results.models import Sweep, SweepPoint, SweepThreshold

    sweep = Sweep.objects.create(
        bots=["greedy"], sizes=[5, 7, 9], budgets=[4.0, 6.0, 8.0], games_per_point=100,
        seed=1, engine_version=1, status=Sweep.Status.DONE, finished_at=timezone.now(),
    )
    for size in (5, 7, 9):
        for budget in (4.0, 6.0, 8.0):
            mean = (size + 3) * (8 / budget) ** 2
            SweepPoint.objects.create(
                sweep=sweep, bot_name="greedy", bot_version=1, size=size, noise_budget=budget,
                games_target=100, games_done=100, losses=100, mean_rounds=mean,
                mean_ci_low=mean * 0.9, mean_ci_high=mean * 1.1,
            )
    SweepThreshold.objects.create(sweep=sweep, bot_name="greedy", note="synthetic")


def measure(
    paths: list[str], player_id: str, requests: int
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Server time of each path: its first request, then ``requests`` after two warm-ups."""
    from django.test import Client
    from django.test.utils import override_settings

    from games.api.authentication import PLAYER_SESSION_KEY

    # No collectstatic for a benchmark: static URLs without the manifest, as in the tests.
    plain = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain):
        return _measure(Client(), paths, player_id, requests, PLAYER_SESSION_KEY)


def _measure(
    client: object, paths: list[str], player_id: str, requests: int, session_key: str
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """(first request of each path with an empty cache, the later requests)."""
    from django.core.cache import cache

    cache.clear()
    session = client.session
    session[session_key] = player_id
    session.save()
    cold: dict[str, float] = {}
    times: dict[str, list[float]] = {path: [] for path in paths}
    for round_number in range(requests + 2):
        for path in paths:
            started = time.perf_counter()
            response = client.get(path)
            elapsed = time.perf_counter() - started
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
            if round_number == 0:
                cold[path] = elapsed
            elif round_number >= 2:
                times[path].append(elapsed)
    return cold, times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,100000", help="games stored, increasing")
    parser.add_argument("--requests", type=int, default=20, help="timed requests per URL")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    sizes = [int(text) for text in args.sizes.split(",")]
    if sizes != sorted(sizes) or sizes[0] < 1:
        parser.error("--sizes must be increasing positive numbers")

    with database(None) as (url, _temporary):
        migrate(server_environment(url))
        setup_django(url)
        from django.db import connection

        from dashboard.services import aggregates_rebuild

        now = datetime.datetime.now(tz=datetime.UTC)
        start = now - datetime.timedelta(days=DAYS)
        generator = Generator(seed=5, now=now, players=2000)
        make_sweep()
        paths = urls(now.date())
        stored = 0
        results: dict[int, dict[str, list[float]]] = {}
        colds: dict[int, dict[str, float]] = {}
        for size in sizes:
            began = time.perf_counter()
            # The same days for every size: only the number of games changes.
            generator.store(size - stored, start=start, end=now - datetime.timedelta(minutes=5))
            stored = size
            aggregates_rebuild(settle=datetime.timedelta(0))
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            print(f"stored {size:,} games and built the aggregates in "
                  f"{time.perf_counter() - began:.1f} s", flush=True)
            colds[size], results[size] = measure(
                paths, str(generator.player_ids[0]), args.requests
            )
            every = [t for values in results[size].values() for t in values]
            print(f"  {size:>7,} games: p50 {percentile(every, 0.5) * 1000:.1f} ms, "
                  f"p95 {percentile(every, 0.95) * 1000:.1f} ms over {len(every)} requests",
                  flush=True)
        connection.close()

    first, last = sizes[0], sizes[-1]
    print(f"\n{'url':<52} {'p50 ' + str(first):>12} {'p50 ' + str(last):>12} {'ratio':>6}"
          f"   first request (plot data not cached yet)")
    for path in paths:
        low = statistics.median(results[first][path])
        high = statistics.median(results[last][path])
        print(f"{path:<52} {low * 1000:>10.1f}ms {high * 1000:>10.1f}ms {high / low:>6.2f}"
              f"   {colds[first][path] * 1000:.1f} -> {colds[last][path] * 1000:.1f} ms")
    missed = False
    for name, q in (("p50", 0.5), ("p95", 0.95)):
        low = percentile([t for v in results[first].values() for t in v], q)
        high = percentile([t for v in results[last].values() for t in v], q)
        ratio = high / low
        missed |= ratio > TARGET_RATIO
        verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        print(f"{name}: {low * 1000:.1f} ms with {first:,} games, {high * 1000:.1f} ms with "
              f"{last:,}: ratio {ratio:.2f} (target <= {TARGET_RATIO}) {verdict}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
