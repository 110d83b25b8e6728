"""Benchmark of threshold sweeps on real Celery workers: games per second on 1 and 2 processes.

Runs the same small sweep (same grid, same seed, hence the very same games)
twice: once on a Celery worker with one process and once on a worker with two
(``celery worker --concurrency N``, prefork), both on Redis and PostgreSQL.
Each time it dispatches the sweep's chunk tasks as a Celery group and waits
until the sweep is done (every chunk stored, every point summarised and the
thresholds estimated), then prints games per second and the speed-up of two
processes over one (target: at least 1.7 on two cores). For reference it
then plays a quarter of the games in plain processes (no Celery, no
database) on 1 and on 2 processes: what the machine itself allows at that
moment, since other work running on it takes CPUs the workers cannot get.

Services: DATABASE_URL when set (PostgreSQL; the benchmark's sweeps are
deleted at the end), otherwise a temporary database created on
127.0.0.1:5432 as user postgres and dropped at the end. The broker is a
private ``redis-server`` started on a free port (stopped at the end), or
CELERY_BROKER_URL when redis-server is not installed; use a Redis database
nobody else uses, as queued tasks from other sources would be measured too.

At the end, if ``bench/aggregates.py`` exists, it is run and its output
passed through (``--no-aggregates`` skips it).

Run from the repository root::

    python -m bench.sweep [--games 40] [--chunk-size 10] [--bots greedy,clustering]
                          [--sizes 5,7] [--budgets 5,6,7] [--check] [--no-aggregates]

``--check`` exits non-zero when the speed-up misses the target.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.api_load import database, free_port

ROOT = Path(__file__).resolve().parent.parent

TARGET_SPEEDUP = 1.7
SEED = 20261123


@contextmanager
def broker() -> Iterator[str]:
    """A private redis-server on a free port, or CELERY_BROKER_URL without one."""
    server = shutil.which("redis-server")
    if server is None:
        url = os.environ.get("CELERY_BROKER_URL", "")
        if not url.startswith("redis://"):
            raise SystemExit("needs redis-server on PATH, or CELERY_BROKER_URL=redis://...")
        yield url
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        process = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", workdir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(0.5)
            if process.poll() is not None:
                raise SystemExit("redis-server did not start")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


@contextmanager
def worker(env: dict[str, str], processes: int, log: Path) -> Iterator[None]:
    """A Celery worker with ``processes`` prefork processes, ready to take tasks."""
    with log.open("wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "decodoku_site", "worker", "--pool",
             "prefork", "--concurrency", str(processes), "--loglevel", "WARNING",
             "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-n", f"bench-{processes}@%h"],
            cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )
        try:
            _wait_ready(processes)
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    if process.returncode not in (0, -15):
        sys.stdout.write(log.read_text(errors="replace")[-3000:])


def _wait_ready(processes: int) -> None:
    from decodoku_site.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.inspect(timeout=1.0).stats() or {}
        for stats in replies.values():
            if len(stats.get("pool", {}).get("processes", [])) >= processes:
                return
        time.sleep(0.5)
    raise SystemExit("the worker did not start within 60 s")


def sweep_run_timed(args: argparse.Namespace) -> tuple[float, int, object]:
    from results.services import sweep_create, sweep_start, sweep_wait

    sweep = sweep_create(
        bots=args.bots, sizes=args.sizes, budgets=args.budgets,
        games_per_point=args.games, seed=SEED, chunk_size=args.chunk_size,
        max_rounds=args.max_rounds,
    )
    started = time.perf_counter()
    sweep = sweep_start(sweep=sweep)
    sweep = sweep_wait(sweep=sweep, poll=0.1, timeout=args.timeout)
    elapsed = time.perf_counter() - started
    if sweep.status != sweep.Status.DONE:
        raise SystemExit(f"the sweep {sweep.status}: {sweep.error}")
    games = len(args.bots) * len(args.sizes) * len(args.budgets) * args.games
    return elapsed, games, sweep


def busy_seconds(sweep: object) -> float:
    """Wall-clock seconds the chunk tasks spent playing, summed over the tasks."""
    from django.db.models import Sum

    from results.models import SweepChunk

    return SweepChunk.objects.filter(point__sweep=sweep).aggregate(s=Sum("seconds"))["s"] or 0.0


def _play(job: tuple[str, int, float, int, int]) -> int:
    from games.engine import RuleSet, play_shot

    bot, size, budget, seed, max_rounds = job
    return play_shot(rules=RuleSet(size=size, noise_budget=budget), bot=bot, seed=seed,
                     max_rounds=max_rounds).moves


def _warm(_: int) -> None:
    import games.engine  # noqa: F401  (imported before the clock starts)


def raw_speedup(args: argparse.Namespace, per_point: int) -> tuple[float, float]:
    """Games/s of plain processes (no Celery, no database) on 1 and on 2 processes.

    The machine's own parallel capacity at that moment, to read the sweep's
    speed-up against: on a machine that other work keeps busy, two processes
    cannot get two CPUs, with or without Celery.
    """
    import multiprocessing

    from results.analysis.sweeps import game_seed

    jobs = [
        (bot, size, budget, game_seed(sweep_seed=SEED, bot_name=bot, size=size,
                                      noise_budget=budget, index=i), args.max_rounds)
        for bot in args.bots for size in args.sizes for budget in args.budgets
        for i in range(per_point)
    ]
    rates = []
    for processes in (1, 2):
        # Spawned, not forked: this process holds broker and database connections.
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            pool.map(_warm, range(processes), chunksize=1)
            started = time.perf_counter()
            pool.map(_play, jobs, chunksize=1)
            rates.append(len(jobs) / (time.perf_counter() - started))
    return rates[0], rates[1]


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")]


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=lambda s: s.split(","), default=["greedy", "clustering"])
    parser.add_argument("--sizes", type=_ints, default=[5, 7])
    parser.add_argument("--budgets", type=_floats, default=[5.0, 6.0, 7.0])
    parser.add_argument("--games", type=int, default=40, help="games per point")
    parser.add_argument("--chunk-size", type=int, default=10, help="games per task")
    parser.add_argument("--max-rounds", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--check", action="store_true", help="fail below the target speed-up")
    parser.add_argument("--no-aggregates", action="store_true",
                        help="do not run bench/aggregates.py afterwards")
    args = parser.parse_args()

    with database(os.environ.get("DATABASE_URL")) as (database_url, temporary), broker() as url:
        env = dict(os.environ, DATABASE_URL=database_url, CELERY_BROKER_URL=url,
                   LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
        env.pop("CELERY_RESULT_BACKEND", None)
        os.environ.update(DATABASE_URL=database_url, CELERY_BROKER_URL=url, LOG_LEVEL="WARNING",
                          DJANGO_SETTINGS_MODULE="decodoku_site.settings")
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        import django

        django.setup()
        from results.models import Sweep

        grid = (f"{','.join(args.bots)} x L {','.join(map(str, args.sizes))} x budgets "
                f"{','.join(f'{b:g}' for b in args.budgets)}, {args.games} games per point, "
                f"{args.chunk_size} per task")
        print(f"sweep: {grid}")
        rates = {}
        made = []
        try:
            with tempfile.TemporaryDirectory() as logs:
                for processes in (1, 2):
                    with worker(env, processes, Path(logs) / f"worker-{processes}.log"):
                        load = os.getloadavg()[0]
                        elapsed, games, sweep = sweep_run_timed(args)
                    made.append(sweep.pk)
                    rates[processes] = games / elapsed
                    # Tasks playing at once on average: near the process count when the
                    # work is spread well; each task's time grows if CPUs are shared.
                    overlap = busy_seconds(sweep) / elapsed
                    print(f"{processes} worker process{'es' if processes > 1 else ''}: "
                          f"{games} games in {elapsed:.1f} s = {rates[processes]:.1f} games/s "
                          f"({overlap:.2f} tasks running on average; load average "
                          f"{load:.2f} before the run)")
        finally:
            if not temporary:
                Sweep.objects.filter(pk__in=made).delete()
        speedup = rates[2] / rates[1]
        verdict = "meets" if speedup >= TARGET_SPEEDUP else "misses"
        print(f"speed-up on 2 processes: {speedup:.2f}x ({verdict} the {TARGET_SPEEDUP}x target; "
              f"{os.cpu_count()} CPUs)")
        from django.db import connections

        connections.close_all()  # the temporary database is dropped next
        one, two = raw_speedup(args, per_point=max(1, args.games // 4))
        print(f"reference, plain processes without Celery: {one:.1f} games/s on 1, {two:.1f} on "
              f"2 = {two / one:.2f}x, the machine's own capacity now; the sweep reached "
              f"{speedup / (two / one):.0%} of it")

    status = 0 if not args.check or speedup >= TARGET_SPEEDUP else 1
    aggregates = ROOT / "bench" / "aggregates.py"
    if aggregates.exists() and not args.no_aggregates:
        print("\n$ python -m bench.aggregates", flush=True)
        result = subprocess.run([sys.executable, "-m", "bench.aggregates"], cwd=ROOT)
        status = status or result.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
