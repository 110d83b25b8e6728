"""Per-request budgets: what the worst single requests cost, and whether a burst of heavy
requests still lets cheap ones through.

Part 1, in this process (Django's test client, a temporary SQLite database): the
processor time of the request's thread and the peak of Python allocations
(tracemalloc, a second run) of the worst requests found so far, against a cheap
``GET /api/v1/games/`` measured in the same run: checking, playing (``own/``) and
playing from an ID an empty 16 x 16 Adjacent Futoshiki, starting a generated one,
and uploading a workbook of 2,000,000 rows (``bench.upload_limits.huge_workbook``).

Part 2, under gunicorn as the Docker image runs it (``--workers`` x ``--threads``,
the image's worker class; 127.0.0.1 on a free port, a temporary SQLite database):
``--heavy`` concurrent 16 x 16 puzzle starts, and while they run, cheap
``GET /api/v1/games/`` one after another; the cheap request's latency alone
(baseline), then during the burst with the limiter as configured
(``DECODOKU_HEAVY_REQUESTS``, default 1 per kind and process) and with it opened
wide (64: every heavy request runs at once, as before the limiter). Every loop is
bounded and the server is stopped at the end.

Run from the repository root::

    python -m bench.request_budgets [--skip-upload] [--heavy 12] [--workers 3] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
EMPTY_ADJACENT_16 = {"kind": "futoshiki-adjacent", "size": 16}
CHEAP_PATH = "/api/v1/games/"
CHEAP_SAMPLES = 15


def site_environment(database_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{database_path}",
        SECRET_KEY=f"bench-only-{secrets.token_hex(16)}",
        DEBUG="0",
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        DECODOKU_THROTTLING="0",
        LOG_LEVEL="ERROR",
        PYTHONUNBUFFERED="1",
        PYTHONWARNINGS="ignore:No directory at",
        **extra,
    )
    env.pop("CACHE_URL", None)
    return env


# -- part 1: one request at a time, in this process --------------------------------


def measure_in_process(skip_upload: bool) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from puzzles.engines import puzzle_id
    from tests.factories import PlayerFactory, api_token

    setup_test_environment()
    call_command("migrate", verbosity=0)
    player = PlayerFactory.create()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")

    def post(path: str, body: dict[str, Any]) -> Callable[[], int]:
        return lambda: client.post(path, body, format="json").status_code

    cases: list[tuple[str, Callable[[], int]]] = [
        ("GET /api/v1/games/ (baseline)", lambda: client.get(CHEAP_PATH).status_code),
        ("check/ empty 16x16 adjacent", post("/api/v1/puzzles/check/", EMPTY_ADJACENT_16)),
        ("own/ empty 16x16 adjacent", post("/api/v1/puzzles/own/", EMPTY_ADJACENT_16)),
        (
            "from-id/ empty 16x16 adjacent",
            post(
                "/api/v1/puzzles/from-id/",
                {"id": puzzle_id.encode_definition(EMPTY_ADJACENT_16)},
            ),
        ),
        ("start a 16x16 adjacent", post("/api/v1/puzzles/", EMPTY_ADJACENT_16)),
    ]
    if not skip_upload:
        from django.core.files.uploadedfile import SimpleUploadedFile

        from bench.upload_limits import huge_workbook

        book = huge_workbook()

        def upload() -> int:
            file = SimpleUploadedFile("book.xlsx", book)
            return client.post("/api/v1/imports/", {"file": file}, format="multipart").status_code

        cases.append((f"upload a 2,000,000-row workbook ({len(book) // 1024} KiB)", upload))

    client.get(CHEAP_PATH)  # warm-up: the first request sets up what every later one reuses
    print("part 1: one request at a time (CPU of the request's thread; peak of Python allocations)")
    print(f"{'request':<48} {'status':>6} {'CPU s':>7} {'peak MiB':>9}")
    for name, run in cases:
        started = time.thread_time()
        status = run()
        cpu = time.thread_time() - started
        tracemalloc.start()
        run()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{name:<48} {status:>6} {cpu:>7.3f} {peak / 2**20:>9.1f}")


# -- part 2: a burst under gunicorn --------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def call(port: int, method: str, path: str, body: dict | None = None,
         token: str | None = None, timeout: float = 60) -> tuple[int, float]:
    """(status, seconds) of one request on a connection of its own."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    started = time.monotonic()
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        connection.close()


def new_token(port: int) -> str:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("POST", "/api/v1/players/", json.dumps({}),
                           {"Content-Type": "application/json"})
        return str(json.loads(connection.getresponse().read())["token"])
    finally:
        connection.close()


@contextmanager
def gunicorn(env: dict[str, str], workers: int, threads: int) -> Iterator[int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "decodoku_site.wsgi", "--bind", f"{HOST}:{port}",
         "--workers", str(workers), "--threads", str(threads),
         "--worker-class", "decodoku_site.gunicorn_worker.HealthzThreadWorker",
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    try:
        for _ in range(150):  # 30 s at most
            if process.poll() is not None:
                raise SystemExit(f"gunicorn exited with status {process.returncode}")
            try:
                if call(port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise SystemExit("gunicorn did not answer /healthz within 30 s")
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cheap_latencies(port: int, token: str, samples: int) -> list[float]:
    return [call(port, "GET", CHEAP_PATH, token=token)[1] for _ in range(samples)]


def burst(port: int, token: str, heavy: int) -> tuple[dict[int, int], list[float]]:
    """``heavy`` puzzle starts at once; the cheap request's latencies while they run."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def start_one() -> None:
        try:
            status, _ = call(port, "POST", "/api/v1/puzzles/", EMPTY_ADJACENT_16, token)
        except OSError:
            status = 0
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=start_one) for _ in range(heavy)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)  # the heavy requests are in the server now
    latencies = []
    for _ in range(CHEAP_SAMPLES):
        latencies.append(call(port, "GET", CHEAP_PATH, token=token)[1])
        if not any(thread.is_alive() for thread in threads):
            break
    for thread in threads:
        thread.join(timeout=120)
    return statuses, latencies


def describe(latencies: list[float]) -> str:
    return (f"median {statistics.median(latencies):.3f} s, max {max(latencies):.3f} s "
            f"({len(latencies)} requests)")


def measure_burst(heavy: int, workers: int, threads: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        database = Path(directory) / "bench.sqlite3"
        base = site_environment(database)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=base, check=True)
        print(f"\npart 2: gunicorn {workers} workers x {threads} threads, {heavy} concurrent "
              "16x16 puzzle starts, cheap GET /api/v1/games/ meanwhile")
        for label, slots in (("limiter on (1 per kind and process)", "1"),
                             ("limiter opened wide (64)", "64")):
            env = {**base, "DECODOKU_HEAVY_REQUESTS": slots}
            with gunicorn(env, workers, threads) as port:
                token = new_token(port)
                alone = cheap_latencies(port, token, CHEAP_SAMPLES)
                statuses, during = burst(port, token, heavy)
            print(f"  {label}:")
            print(f"    cheap GET alone:        {describe(alone)}")
            print(f"    cheap GET during burst: {describe(during)}")
            print(f"    puzzle starts answered: {dict(sorted(statuses.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-upload", action="store_true", help="leave out the workbook")
    parser.add_argument("--skip-burst", action="store_true", help="part 1 only")
    parser.add_argument("--heavy", type=int, default=12, help="concurrent heavy requests (12)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (3)")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (4)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        os.environ.update(site_environment(Path(directory) / "inprocess.sqlite3"))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")
        measure_in_process(args.skip_upload)
    if not args.skip_burst:
        measure_burst(args.heavy, args.workers, args.threads)


if __name__ == "__main__":
    main()
