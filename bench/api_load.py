"""Load test of the play API: moves per second and move latency under many players.

Starts the site under gunicorn (a subprocess listening on 127.0.0.1 only, on
a free port) on PostgreSQL, then drives simulated players from threads over
plain HTTP (``http.client``): each creates a player, starts games and plays
them to the end with random legal moves, starting a new game whenever one is
lost. Two kinds of phase run in the same server:

- ``baseline``: the players post the same move bodies to a baseline endpoint
  (``/api/v1/bench/baseline/<game>/``, routed only with
  DECODOKU_BENCH_ENDPOINTS=1) that does only the database work a move cannot
  avoid: lock the game row with ``SELECT ... FOR UPDATE``, insert one row and
  update the game row, in one transaction, behind the same authentication
  and JSON parsing;
- ``moves``: real moves through ``POST /api/v1/games/<id>/moves/``.

They alternate in ``--rounds`` rounds (baseline, moves, baseline, moves, ...)
so that a change in the machine's speed during the run (another process, the
processor's clock) weighs on both alike; each player carries its game from
one round to the next. The totals over all rounds give the verdict, and each
round's own ratio is printed to show the spread.

It prints requests per second and the p50/p95/p99 latency of both phases, and
the ratios against the targets: moves/s at least 0.7 times the baseline's,
p99 at most 2.5 times the baseline's, and no errors.

Broker: the server queues the analysis of finished games to
BENCH_BROKER_URL (default redis://127.0.0.1:6379/15), as a production site
does, rather than running it inside the request; that queue is emptied at
the end.

Database: DATABASE_URL when set (it must be PostgreSQL; the benchmark's
players and games are deleted at the end), otherwise a temporary database
created on 127.0.0.1:5432 as user postgres and dropped at the end. Rate
limits are switched off for the server it starts (DECODOKU_THROTTLING=0).

Run from the repository root::

    python -m bench.api_load [--players 32] [--seconds 60] [--rounds 3] [--workers 3]
                             [--threads 1] [--size 7] [--check]

``--seconds`` bounds the whole run (start-up included, about 10 s); the
phases share what is left equally. ``--check`` exits non-zero when a target is
missed; errors always make it exit non-zero.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
STARTUP_SECONDS = 12  # migrations, gunicorn start-up and shutdown, set aside from --seconds
WARMUP_FRACTION = 0.15  # the start of each phase is played but not measured

TARGET_THROUGHPUT_RATIO = 0.7
TARGET_P99_RATIO = 2.5
# The server queues tasks (the analysis of each finished game) to this broker
# instead of running them inside the request, as in production. No worker runs
# during the benchmark; the queue is emptied at the end.
DEFAULT_BROKER = "redis://127.0.0.1:6379/15"


# -- the database ----------------------------------------------------------------


@contextmanager
def database(url: str | None) -> Iterator[tuple[str, bool]]:
    """Yield (DATABASE_URL, temporary): the given one, or a new database dropped at the end."""
    if url:
        if urlsplit(url).scheme not in ("postgres", "postgresql"):
            raise SystemExit("DATABASE_URL must be a PostgreSQL URL for this benchmark")
        yield url, False
        return
    import psycopg

    name = f"decodoku_bench_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(libpq_url(ADMIN_URL), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(ADMIN_URL)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", "")), True
    finally:
        with psycopg.connect(libpq_url(ADMIN_URL), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def libpq_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


# -- the server ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_environment(database_url: str, broker_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        SECRET_KEY=f"bench-only-{secrets.token_hex(16)}",
        DEBUG="0",
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        SECURE_PROXY_SSL_HEADER="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        DECODOKU_BENCH_ENDPOINTS="1",
        DECODOKU_THROTTLING="0",
        LOG_LEVEL="ERROR",
        PYTHONUNBUFFERED="1",
        # No collectstatic for a benchmark: silence WhiteNoise's missing-directory warning.
        PYTHONWARNINGS="ignore:No directory at",
    )
    env.pop("CACHE_URL", None)  # throttling is off: the local cache is enough
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )


@contextmanager
def gunicorn(env: dict[str, str], workers: int, threads: int = 1) -> Iterator[int]:
    """Serve the site on a free port: sync workers, or gthread ones with ``threads`` > 1."""
    port = free_port()
    worker_class = ["--worker-class", "sync"] if threads == 1 else [
        "--worker-class", "gthread", "--threads", str(threads)]
    process = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "decodoku_site.wsgi:application",
            "--bind", f"{HOST}:{port}",
            "--workers", str(workers),
            *worker_class,
            "--timeout", "60",
            "--log-level", "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise SystemExit(f"gunicorn exited with status {process.returncode}")
            try:
                status, _ = request(port, "GET", "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("gunicorn did not answer /healthz within 30 s")
            time.sleep(0.2)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- HTTP ------------------------------------------------------------------------


def request(
    port: int, method: str, path: str, body: dict | None = None, token: str | None = None
) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Token {token}"
        connection.request(method, path, payload, headers)
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else {}
    finally:
        connection.close()


# -- simulated players -----------------------------------------------------------


@dataclass
class Phase:
    """One kind of phase over all its rounds: latencies and the seconds measured."""

    name: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    measured_from: float = 0.0
    measured_seconds: float = 0.0
    round_rates: list[float] = field(default_factory=list)

    def record(self, latency: float, when: float) -> None:
        if when >= self.measured_from:
            with self.lock:
                self.latencies.append(latency)

    def error(self, text: str) -> None:
        with self.lock:
            if len(self.errors) < 20:
                self.errors.append(text)
            else:
                self.errors.append("")

    @property
    def rate(self) -> float:
        return len(self.latencies) / max(self.measured_seconds, 1e-9)

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def random_move(rows: list[str], rng: random.Random) -> tuple[int, int, int, int]:
    """A legal move on the board shown: a number moved to one of its neighbours."""
    size = len(rows)
    occupied = [(r, c) for r in range(size) for c in range(size) if rows[r][c] != "0"]
    row, col = rng.choice(occupied)
    neighbours = [
        (row + dr, col + dc)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= row + dr < size and 0 <= col + dc < size
    ]
    to_row, to_col = rng.choice(neighbours)
    return row, col, to_row, to_col


class Player:
    def __init__(self, port: int, size: int, seed: int) -> None:
        self.port = port
        self.size = size
        self.rng = random.Random(seed)
        status, body = request(port, "POST", "/api/v1/players/", {"consent_version": None})
        if status != 201:
            raise SystemExit(f"creating a player failed: {status} {body}")
        self.player_id = body["player_id"]
        self.token = body["token"]
        self.game: dict = {}

    def new_game(self, phase: Phase) -> bool:
        status, body = request(
            self.port, "POST", "/api/v1/games/",
            {"size": self.size, "bot_name": "api_load"}, self.token,
        )
        if status != 201:
            phase.error(f"start game: {status} {body.get('error', body)}")
            return False
        self.game = body
        return True

    def play(self, phase: Phase, until: float) -> None:
        if not self.game and not self.new_game(phase):
            return
        while time.monotonic() < until:
            rows = self.game["board"]["rows"]
            move = random_move(rows, self.rng)
            body = {"step": self.game["step"], "from": list(move[:2]), "to": list(move[2:])}
            game_id = self.game["id"]
            path = (
                f"/api/v1/bench/baseline/{game_id}/"
                if phase.name == "baseline"
                else f"/api/v1/games/{game_id}/moves/"
            )
            started = time.monotonic()
            try:
                status, answer = request(self.port, "POST", path, body, self.token)
            except OSError as exc:
                phase.error(f"{path}: {exc}")
                continue
            finished = time.monotonic()
            if status not in (200, 201):
                phase.error(f"{path}: {status} {answer.get('error', answer)}")
                if not self.new_game(phase):
                    return
                continue
            phase.record(finished - started, started)
            if phase.name == "baseline":
                continue  # the board does not change: keep posting the same kind of move
            self.game = answer["game"]
            if answer["game_over"]:
                with phase.lock:
                    phase.games_finished += 1
                if not self.new_game(phase):
                    return


def run_phase(phase: Phase, players: list[Player], seconds: float) -> None:
    """One round of ``phase``: every player plays for ``seconds``; the first part is warm-up."""
    started = time.monotonic()
    phase.measured_from = started + seconds * WARMUP_FRACTION
    until = started + seconds
    measured_before = len(phase.latencies)
    threads = [
        threading.Thread(target=player.play, args=(phase, until), daemon=True)
        for player in players
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    measured = max(time.monotonic() - phase.measured_from, 1e-9)
    phase.measured_seconds += measured
    phase.round_rates.append((len(phase.latencies) - measured_before) / measured)


def cleanup(env: dict[str, str], player_ids: list[str]) -> None:
    """Delete the benchmark's players and, with them, their games and events."""
    code = (
        "import sys; from games.models import Player; "
        "Player.objects.filter(pk__in=sys.argv[1:]).delete()"
    )
    subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}", *player_ids],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "decodoku_site.settings"}, check=True,
    )


# -- report ----------------------------------------------------------------------


def purge_queue(broker_url: str) -> None:
    """Drop the tasks the benchmark's server queued (no worker ran to take them)."""
    import redis

    try:
        redis.Redis.from_url(broker_url, socket_timeout=2).delete("celery")
    except redis.RedisError as exc:
        print(f"could not empty the benchmark's queue at {broker_url}: {exc}")


def describe(phase: Phase) -> str:
    ms = 1000.0
    return (
        f"{phase.name:>8}: {phase.rate:8.1f} req/s  "
        f"p50 {phase.percentile(0.50) * ms:6.1f} ms  "
        f"p95 {phase.percentile(0.95) * ms:6.1f} ms  "
        f"p99 {phase.percentile(0.99) * ms:6.1f} ms  "
        f"({len(phase.latencies)} measured, {len(phase.errors)} errors"
        + (f", {phase.games_finished} games finished" if phase.name == "moves" else "")
        + ")"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=32, help="simulated players (32)")
    parser.add_argument("--seconds", type=float, default=60.0, help="whole run, about (60)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="baseline/moves rounds, alternating (3)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers, 2-4 (3)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per worker: 1 = sync workers, more = gthread, as the "
                             "Docker image serves with 4 (1)")
    parser.add_argument("--size", type=int, default=7, help="board size L (7)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    if not 2 <= args.workers <= 4:
        parser.error("--workers must be between 2 and 4")
    if not 1 <= args.threads <= 16:
        parser.error("--threads must be between 1 and 16")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be between 1 and 20")
    phase_seconds = max((args.seconds - STARTUP_SECONDS) / (2 * args.rounds), 3.0)

    broker_url = os.environ.get("BENCH_BROKER_URL", DEFAULT_BROKER)
    with database(os.environ.get("DATABASE_URL")) as (database_url, temporary):
        env = server_environment(database_url, broker_url)
        where = "a temporary database" if temporary else "DATABASE_URL"
        kind = "sync" if args.threads == 1 else f"gthread x {args.threads}"
        print(f"api_load: {args.players} players, L={args.size}, {args.workers} gunicorn "
              f"workers ({kind}), {args.rounds} rounds of {phase_seconds:.1f} s per phase, "
              f"on {where}", flush=True)
        migrate(env)
        players: list[Player] = []
        baseline, moves = Phase("baseline"), Phase("moves")
        try:
            with gunicorn(env, args.workers, args.threads) as port:
                players = [Player(port, args.size, seed) for seed in range(args.players)]
                for _ in range(args.rounds):
                    run_phase(baseline, players, phase_seconds)
                    run_phase(moves, players, phase_seconds)
        finally:
            if players and not temporary:
                cleanup(env, [player.player_id for player in players])
            purge_queue(broker_url)

    print(describe(baseline))
    print(describe(moves))
    per_round = [
        f"{m / b:.2f}" if b else "-"
        for b, m in zip(baseline.round_rates, moves.round_rates, strict=True)
    ]
    print(f"  moves/s vs baseline by round: {', '.join(per_round)}")
    throughput = moves.rate / baseline.rate if baseline.rate else 0.0
    p99 = moves.percentile(0.99) / baseline.percentile(0.99)
    errors = len(baseline.errors) + len(moves.errors)
    verdicts = [
        ("moves/s vs baseline", f"{throughput:.2f}", f">= {TARGET_THROUGHPUT_RATIO:.2f}",
         throughput >= TARGET_THROUGHPUT_RATIO),
        ("p99 vs baseline", f"{p99:.2f}", f"<= {TARGET_P99_RATIO:.2f}", p99 <= TARGET_P99_RATIO),
        ("errors", str(errors), "== 0", errors == 0),
    ]
    for label, value, target, ok in verdicts:
        print(f"  {label:<20} {value:>6}  target {target:<7} {'ok' if ok else 'MISSED'}")
    for text in [*baseline.errors, *moves.errors][:5]:
        if text:
            print(f"  error: {text}")
    if errors:
        return 1
    if args.check and not all(ok for *_, ok in verdicts):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
