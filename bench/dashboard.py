"""Server time of the dashboard page and its data endpoints, with 100 and 100,000 games.

The dashboard reads only the aggregate tables, so its server time should not
grow with the number of games stored. This benchmark builds one temporary
PostgreSQL database per size: each holds that many synthetic finished games
with their analyses (``bench/synthetic.py``) over the same days, the same
sweep, and the aggregates built from them. It then times every URL of the
dashboard (the page, each plot's JSON, a CSV download, a filtered and a dated
request, the own games of a player who has many) through Django's request
handling in this process. The databases take turns, one pass over every URL
each and the order alternating, so that a noisy moment of the machine falls on
both sizes alike rather than on whichever was measured second. It prints p50
and p95 per size and their ratios (target: at most 1.5).

Plot data is cached until the aggregates change, so the timed requests after
the warm-up are cache hits (except a player's own games, read for each
request); the first request of each URL, computed from the aggregate tables
with an empty cache, is printed beside them.

The databases are created on 127.0.0.1:5432 as user postgres and dropped at
the end (the helpers of ``bench/api_load.py``). Run from the repository root::

    python -m bench.dashboard [--sizes 100,100000] [--requests 20] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import statistics
import sys
import time
from urllib.parse import urlsplit

from bench.api_load import database, migrate, server_environment
from bench.synthetic import Generator, setup_django

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


class Site:
    """One database of the benchmark and a client with a player's session in it."""

    def __init__(self, size: int, name: str, player_id: str) -> None:
        from django.test import Client

        from core.sessions import PLAYER_SESSION_KEY

        self.size = size
        self.name = name
        use_database(name)
        self.client = Client()
        session = self.client.session
        session[PLAYER_SESSION_KEY] = player_id
        session.save()
        self.cold: dict[str, float] = {}
        self.times: dict[str, list[float]] = {}

    def get(self, path: str) -> float:
        started = time.perf_counter()
        response = self.client.get(path)
        elapsed = time.perf_counter() - started
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code} with {self.size} games")
        return elapsed


def use_database(name: str) -> None:
    """Point Django's default connection at another of the benchmark's databases."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = name
    with connection.cursor() as cursor:  # connect now, not inside a timed request
        cursor.execute("SELECT 1")


def measure(sites: list[Site], paths: list[str], requests: int) -> None:
    """First request of each path per site (empty cache), two warm-up passes, then
    ``requests`` timed passes, the sites taking turns in alternating order."""
    from django.core.cache import cache
    from django.test.utils import override_settings

    # No collectstatic for a benchmark: static URLs without the manifest, as in the tests.
    plain = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain):
        for site in sites:
            cache.clear()
            use_database(site.name)
            site.cold = {path: site.get(path) for path in paths}
            for _ in range(2):
                for path in paths:
                    site.get(path)
            site.times = {path: [] for path in paths}
        # Cached plot data is keyed by the aggregates' version, which differs between
        # the databases, so one site's cache entries are never served to the other.
        for round_number in range(requests):
            order = sites if round_number % 2 == 0 else sites[::-1]
            for site in order:
                use_database(site.name)
                for path in paths:
                    site.times[path].append(site.get(path))


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

    with contextlib.ExitStack() as stack:
        urls_by_size = {size: stack.enter_context(database(None))[0] for size in sizes}
        for url in urls_by_size.values():
            migrate(server_environment(url))
        setup_django(urls_by_size[sizes[0]])
        from django.db import connection

        from dashboard.services import aggregates_rebuild

        now = datetime.datetime.now(tz=datetime.UTC)
        start = now - datetime.timedelta(days=DAYS)
        paths = urls(now.date())
        sites = []
        for size, url in urls_by_size.items():
            name = urlsplit(url).path.lstrip("/")
            use_database(name)
            began = time.perf_counter()
            # The same seed and days for every size: only the number of games changes.
            generator = Generator(seed=5, now=now, players=2000)
            make_sweep()
            generator.store(size, start=start, end=now - datetime.timedelta(minutes=5))
            aggregates_rebuild(settle=datetime.timedelta(0))
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
            print(f"stored {size:,} games and built the aggregates in "
                  f"{time.perf_counter() - began:.1f} s", flush=True)
            sites.append(Site(size, name, str(generator.player_ids[0])))
        measure(sites, paths, args.requests)
        connection.close()
    results = {site.size: site.times for site in sites}
    colds = {site.size: site.cold for site in sites}
    for size, times in results.items():
        every = [t for values in times.values() for t in values]
        print(f"  {size:>7,} games: p50 {percentile(every, 0.5) * 1000:.1f} ms, "
              f"p95 {percentile(every, 0.95) * 1000:.1f} ms over {len(every)} requests")

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
