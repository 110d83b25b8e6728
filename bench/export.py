"""Export benchmark: research CSV over HTTP against psql's COPY, at two sizes.

Fills a PostgreSQL database with games and noise events (generate_series, in
the database: seconds per million rows), starts the site under gunicorn (one
sync worker, on 127.0.0.1 only) and downloads ``/research/export/noise_errors.csv``
as a staff user, reading the stream as fast as it comes. In the same run,
``psql -c "COPY (the same query) TO STDOUT WITH (FORMAT csv)"`` writes the
same rows to /dev/null. The query is the one the export runs (the table's
COPY statement, built by the site), so both read and format the same rows.

Two sizes are measured, the second twice the first (default 1,000,000 then
2,000,000 events). For each it prints rows/s of both, their ratio (target:
at least 0.5) and the gunicorn worker's peak resident memory during the
download, sampled every 10 ms from /proc (target: the same at both sizes,
within a few MiB: memory must not grow with the export).

Database: a temporary database created on 127.0.0.1:5432 as user postgres
and dropped at the end (the helpers of ``bench/api_load.py``).

Run from the repository root::

    python -m bench.export [--events 1000000] [--events-per-game 100] [--check]
"""

from __future__ import annotations

import argparse
import http.client
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.api_load import (
    HOST,
    ROOT,
    database,
    gunicorn,
    libpq_url,
    migrate,
    server_environment,
)

TARGET_RATE_RATIO = 0.5
# Peak memory may differ by allocator noise between two downloads, not by the data.
TARGET_MEMORY_GROWTH_MIB = 8.0
PLAYERS = 100
TABLE = "noise_errors"


# -- filling the database --------------------------------------------------------


def fill(url: str, *, first_game: int, games: int, events_per_game: int) -> None:
    """Add ``games`` games of ``events_per_game`` noise events each, numbered from first_game."""
    import psycopg

    last_game = first_game + games - 1
    with psycopg.connect(libpq_url(url), autocommit=True) as connection:
        connection.execute(
            """
            INSERT INTO games_player (id, token_prefix, token_hash, consent_version,
                                      consented_at, created_at, last_seen_at)
            SELECT md5('p' || i)::uuid, left(md5('t' || i), 8), md5('h' || i) || md5('k' || i),
                   '2026-11-v1', now(), now(), now()
            FROM generate_series(0, %s::int - 1) AS i
            ON CONFLICT DO NOTHING
            """,
            (PLAYERS,),
        )
        connection.execute(
            """
            INSERT INTO games_game (id, player_id, size, variant, noise_budget, moves_per_round,
                merge_label, rules_key, engine_version, seed, source, bot_name, bot_version,
                mode, status, score, rounds, moves_count, started_at, ended_at, client_info,
                research_consent, excluded_from_research, excluded_reason, partially_observed,
                state, next_seq, legacy_filename, import_report)
            SELECT md5('g' || g)::uuid, md5('p' || (g %% %s))::uuid, 7, 'z10', 6, 5,
                'destination', 'z10-L7-b6-m5-destination', 1, g, 'api', '', '', 'normal',
                'lost', 40, 9, 40, now() - interval '1 day' + g * interval '1 ms', now(), '{}',
                true, false, '', false, '{}', %s, '', '{}'
            FROM generate_series(%s::int, %s::int) AS g
            """,
            (PLAYERS, events_per_game, first_game, last_game),
        )
        connection.execute(
            """
            INSERT INTO games_event (game_id, seq, kind, t, round, index, row1, col1, row2, col2,
                a, aa, "case", weight, round_weight, value1_before, value2_before, value1_after,
                value2_after, group1_before, group2_before, group1_after, group2_after, note)
            SELECT md5('g' || g)::uuid, s, 'noise', (s / 10) * 5, s / 10 + 1, s %% 10 + 1,
                s %% 7, (s * 3) %% 7, (s + 1) %% 7, (s * 3) %% 7, s %% 9 + 1, 9 - s %% 9,
                CASE WHEN s %% 3 = 0 THEN 'both_occupied' ELSE 'new_pair' END,
                CASE WHEN s %% 3 = 0 THEN 0.1 ELSE 1 END, (s %% 10) * 0.7,
                0, 0, s %% 9 + 1, 9 - s %% 9, 0, 0, s + 1, s + 1, ''
            FROM generate_series(%s::int, %s::int) AS g, generate_series(0, %s::int - 1) AS s
            """,
            (first_game, last_game, events_per_game),
        )
        connection.execute("ANALYZE")


# -- the export, both ways ------------------------------------------------------------


def django_output(env: dict[str, str], code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "decodoku_site.settings"},
        check=True, capture_output=True, text=True,
    )
    return result.stdout.strip()


STAFF_SESSION = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
user = User.objects.create_user("bench", is_staff=True)
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(session.session_key)
"""

COPY_STATEMENT = f"""
from django.db import connection
from research.exports.filters import ExportFilters, filtered_queryset
from research.exports.tables import get_table
from research.exports.writer import copy_sql
table = get_table("{TABLE}")
statement, params = copy_sql(table=table, queryset=filtered_queryset(table=table,
                             filters=ExportFilters()))
connection.ensure_connection()
from psycopg import ClientCursor
print(ClientCursor(connection.connection).mogrify(statement, params))
"""


@dataclass
class Measure:
    rows: int
    seconds: float
    peak_rss_mib: float = 0.0

    @property
    def rate(self) -> float:
        return self.rows / self.seconds


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        raise SystemExit(f"expected one gunicorn worker, found {children}")
    return int(children[0])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def http_export(port: int, session: str, pid: int) -> Measure:
    peak = [rss_mib(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    connection = http.client.HTTPConnection(HOST, port, timeout=600)
    started = time.perf_counter()
    connection.request("GET", f"/research/export/{TABLE}.csv",
                       headers={"Cookie": f"sessionid={session}"})
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"export answered {response.status}: {response.read()[:300]!r}")
    lines = 0
    last = b""
    while chunk := response.read1(1 << 20):
        lines += chunk.count(b"\n")
        last = chunk
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    connection.close()
    if b"#EXPORT_FAILED" in last:
        raise SystemExit("the export failed: " + last.decode(errors="replace")[-300:])
    return Measure(rows=lines - 1, seconds=seconds, peak_rss_mib=peak[0])


def psql_export(url: str, statement: str) -> Measure:
    started = time.perf_counter()
    result = subprocess.run(
        ["psql", "--no-psqlrc", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", libpq_url(url),
         "-c", statement],
        check=True, stdout=subprocess.PIPE,
    )
    seconds = time.perf_counter() - started
    return Measure(rows=result.stdout.count(b"\n"), seconds=seconds)


def measure(url: str, port: int, session: str, pid: int, statement: str) -> tuple[Measure,
                                                                                    Measure]:
    http_export(port, session, pid)  # warm the caches and the worker once
    ours = http_export(port, session, pid)
    theirs = psql_export(url, statement)
    if ours.rows != theirs.rows:
        raise SystemExit(f"HTTP gave {ours.rows} rows, psql {theirs.rows}")
    return ours, theirs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000,
                        help="events at the first size; the second is twice as many")
    parser.add_argument("--events-per-game", type=int, default=100)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    games = max(1, args.events // args.events_per_game)

    results = []
    with database(None) as (url, _temporary):
        env = server_environment(url)
        env["DECODOKU_PSEUDONYM_KEY"] = "bench-only-pseudonym-key"
        migrate(env)
        session = django_output(env, STAFF_SESSION)
        statement = django_output(env, COPY_STATEMENT)
        with gunicorn_one_worker(env) as (port, master):
            pid = worker_pid(master)
            for step in range(2):
                started = time.perf_counter()
                fill(url, first_game=step * games, games=games,
                     events_per_game=args.events_per_game)
                print(f"filled {games * args.events_per_game:,} more events in "
                      f"{time.perf_counter() - started:.1f} s", flush=True)
                ours, theirs = measure(url, port, session, pid, statement)
                results.append((ours, theirs))

    ok = True
    for ours, theirs in results:
        ratio = ours.rate / theirs.rate
        print(f"{ours.rows:>10,} rows  HTTP {ours.rate:>10,.0f} rows/s ({ours.seconds:.2f} s)  "
              f"psql {theirs.rate:>10,.0f} rows/s ({theirs.seconds:.2f} s)  ratio {ratio:.2f} "
              f"(target >= {TARGET_RATE_RATIO})  worker peak RSS {ours.peak_rss_mib:.1f} MiB")
        ok &= ratio >= TARGET_RATE_RATIO
    growth = results[1][0].peak_rss_mib - results[0][0].peak_rss_mib
    print(f"peak memory growth from {results[0][0].rows:,} to {results[1][0].rows:,} rows: "
          f"{growth:+.1f} MiB (target <= {TARGET_MEMORY_GROWTH_MIB} MiB)")
    ok &= growth <= TARGET_MEMORY_GROWTH_MIB
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok or not args.check else 1


@contextmanager
def gunicorn_one_worker(env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """``api_load.gunicorn`` with one sync worker; yields (port, master pid)."""
    with gunicorn(env, workers=1) as port:
        yield port, _master_pid(port)


def _master_pid(port: int) -> int:
    """The gunicorn master: the process that started the worker serving ``port``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"gunicorn" in b" ".join(command) and f"{HOST}:{port}".encode() in command:
            parent = int((entry / "stat").read_text().split()[3])
            parent_command = Path(f"/proc/{parent}/cmdline").read_bytes()
            return parent if b"gunicorn" in parent_command else int(entry.name)
    raise SystemExit(f"no gunicorn process found for port {port}")


if __name__ == "__main__":
    sys.exit(main())
