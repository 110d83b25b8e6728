"""Requests that wait on the database must not take the site's threads, or its health
check, with them.

The issue held ``LOCK TABLE games_game, games_player IN ACCESS EXCLUSIVE MODE``
in psql under gunicorn as the Dockerfile runs it (gthread, 2 x 4): 8 of 12
requests answered 503 after 60.1 s each (the statement time-out), every
thread was taken, and ``/healthz`` gave no answer within 30 s.

Now a statement waits for a lock at most ``DATABASE_LOCK_TIMEOUT`` seconds
(PostgreSQL's ``lock_timeout``, 3 by default) and the request gets its 503,
and gunicorn's worker keeps threads of its own for ``/healthz``
(``decodoku_site.gunicorn_worker``), which answers within ``HEALTHZ_TIMEOUT``
whatever the request threads are doing.

Both tests run gunicorn with the Dockerfile's own command (only the address and
the numbers of workers and threads are set here), on loopback.
"""

from __future__ import annotations

import http.client
import json
import os
import shlex
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.hostile.test_database_outage import silent_database  # noqa: F401 - a fixture

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
HEALTHZ_SECONDS = 1.0  # the promise: /healthz answers within a second
STARTUP_SECONDS = 60


def dockerfile_gunicorn(*, port: int, workers: int, threads: int) -> list[str]:
    """The Dockerfile's gunicorn command, bound to 127.0.0.1:``port``."""
    line = next(line for line in DOCKERFILE.read_text().splitlines() if line.startswith("CMD "))
    shell = json.loads(line[len("CMD "):])[-1]
    serve = shell.split("exec ", 1)[1]
    serve = serve.replace("${WEB_CONCURRENCY:-3}", str(workers))
    serve = serve.replace("${WEB_THREADS:-4}", str(threads))
    args = shlex.split(serve)
    assert args[0] == "gunicorn", args
    args[args.index("--bind") + 1] = f"127.0.0.1:{port}"
    return [sys.executable, "-m", "gunicorn", *args[1:]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Answer:
    status: int | None
    seconds: float
    body: str = ""


def get(port: int, path: str, *, timeout: float, headers: dict[str, str] | None = None) -> Answer:
    """One GET; status None when nothing came back within ``timeout`` seconds."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": "localhost", **(headers or {})})
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        return Answer(response.status, time.monotonic() - started, body)
    except OSError:  # timed out, refused or reset
        return Answer(None, time.monotonic() - started)
    finally:
        connection.close()


@contextmanager
def gunicorn(
    tmp_path: Path, *, database_url: str, workers: int, threads: int, **env: str
) -> Iterator[int]:
    """gunicorn serving the site as the image does; yields its port once it answers."""
    port = _free_port()
    variables = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "decodoku_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": "test-only-" + "k" * 50,
        "ALLOWED_HOSTS": "localhost",
        "SECURE_SSL_REDIRECT": "0",
        "CACHE_URL": "locmem://",
        "DATABASE_URL": database_url,
        "DATABASE_CONN_MAX_AGE": "0",
        "DECODOKU_THROTTLING": "0",
        **env,
    }
    variables.pop("CELERY_BROKER_URL", None)
    log = (tmp_path / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        dockerfile_gunicorn(port=port, workers=workers, threads=threads),
        cwd=ROOT, env=variables, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while get(port, "/healthz", timeout=5).status is None:
            assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.3)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def in_parallel(count: int, port: int, path: str, *, timeout: float) -> tuple[list, list]:
    """Start ``count`` GETs at once; the answers list fills as they come back."""
    answers: list[Answer] = []
    lock = threading.Lock()
    token = {"Authorization": "Token " + "t" * 43}

    def one() -> None:
        answer = get(port, path, timeout=timeout, headers=token)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, answers


def _assert_json_503(answer: Answer) -> None:
    assert answer.status == 503, answer
    assert json.loads(answer.body)["error"]["code"] == "service_unavailable"


@pytest.mark.slow
def test_healthz_answers_while_every_request_thread_waits(tmp_path, silent_database):  # noqa: F811
    """The database accepts connections and never answers: each request holds its
    thread for DATABASE_CONNECT_TIMEOUT. /healthz still answers within a second
    (503, naming the database), instead of waiting for a free thread."""
    database = f"postgres://decodoku@127.0.0.1:{silent_database}/decodoku"
    with gunicorn(
        tmp_path, database_url=database, workers=1, threads=2,
        DATABASE_CONNECT_TIMEOUT="4", HEALTHZ_TIMEOUT="0.5",
    ) as port:
        threads, answers = in_parallel(6, port, "/api/v1/games/", timeout=30)
        time.sleep(0.5)  # both request threads are now waiting for the database
        probes = [get(port, "/healthz", timeout=5) for _ in range(3)]
        for thread in threads:
            thread.join(timeout=40)
    for probe in probes:
        assert probe.status == 503, probe
        assert probe.seconds < HEALTHZ_SECONDS, probe
        assert json.loads(probe.body)["database"] == "error"
    assert len(answers) == 6
    for answer in answers:
        _assert_json_503(answer)


@pytest.mark.slow
def test_probes_one_after_another_all_find_the_database(tmp_path):
    """Only one database check runs at a time; a check frees its slot before its probe
    answers, so that a probe sent right after it never finds it "still waiting"."""
    database = f"sqlite:///{tmp_path / 'probe.sqlite3'}"
    with gunicorn(tmp_path, database_url=database, workers=1, threads=1) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        statuses = []
        for _ in range(200):
            connection.request("GET", "/healthz", headers={"Host": "localhost"})
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
    assert statuses == [200] * 200


PRINT_DATABASE_OPTIONS = """
import django
django.setup()
from django.conf import settings
print(settings.DATABASES["default"]["OPTIONS"]["options"])
"""


@pytest.mark.parametrize(("value", "expected"), [(None, "3000"), ("1.5", "1500"), ("0", "0")])
def test_postgresql_connections_wait_for_a_lock_a_few_seconds_at_most(value, expected):
    from tests.test_settings import last_line, run_python

    variables = {"DATABASE_URL": "postgres://u@db:5432/decodoku"}
    if value is not None:
        variables["DATABASE_LOCK_TIMEOUT"] = value
    result = run_python(PRINT_DATABASE_OPTIONS, **variables)
    assert result.returncode == 0, result.stderr
    options = last_line(result.stdout).split()
    assert f"lock_timeout={expected}" in options
    assert "statement_timeout=60000" in options


LOCKED_TABLES = "LOCK TABLE games_game, games_player IN ACCESS EXCLUSIVE MODE"


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_locked_table_gives_fast_503s_and_healthz_still_answers(tmp_path):
    from tests.results.analysis.test_worker import _database_url

    database = _database_url()
    lock_seconds = 3.0  # the default DATABASE_LOCK_TIMEOUT
    with (
        psycopg.connect(database.replace("postgres://", "postgresql://", 1)) as holder,
        gunicorn(tmp_path, database_url=database, workers=2, threads=4) as port,
    ):
        holder.execute(LOCKED_TABLES)  # held until the rollback below
        try:
            threads, answers = in_parallel(12, port, "/api/v1/games/", timeout=30)
            time.sleep(0.5)  # the request threads are now waiting for the lock
            probe = get(port, "/healthz", timeout=5)
            for thread in threads:
                thread.join(timeout=40)
        finally:
            holder.rollback()
    # /healthz needs no table: it answers at once, whatever the request threads do.
    assert probe.status == 200, probe
    assert probe.seconds < HEALTHZ_SECONDS, probe
    assert len(answers) == 12
    for answer in answers:
        _assert_json_503(answer)
    # 12 requests on 8 threads: each waits for a thread (at most one round) and
    # then for the lock; 60 s each before.
    assert max(answer.seconds for answer in answers) < 3 * lock_seconds + 3, answers
