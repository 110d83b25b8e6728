"""What one move costs: SQL statements, rows written and time, per request.

Plays games through the API (Django's test client, in this process) on a
temporary PostgreSQL database (or DATABASE_URL) and prints, for an ordinary
move and for a game-ending move: the statements by kind, the rows inserted,
and the median time of the request, wall-clock and processor (this
process's CPU time: what a request costs a loaded server, where the
processor rather than the wait for the database sets the throughput). Run from the repository root::

    python -m bench.move_cost [--games 20] [--size 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench.api_load import database  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played to their end (20)")
    parser.add_argument("--size", type=int, default=7, help="board size L (7)")
    args = parser.parse_args()
    with database(os.environ.get("DATABASE_URL")) as (url, _temporary):
        env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1", "LOG_LEVEL": "ERROR",
               "DECODOKU_THROTTLING": "0",
               "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL",
                                                   "redis://127.0.0.1:6379/15")}
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        return measure(args.games, args.size)


def _kind(sql: str) -> str:
    word = sql.split(None, 1)[0].upper()
    if word == "SELECT" and "FOR UPDATE" in sql.upper():
        return "SELECT FOR UPDATE"
    return word


def measure(games: int, size: int) -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")
    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.engine import Game as EngineGame
    from games.models import Game

    client = Client(HTTP_HOST="127.0.0.1")
    token = client.post("/api/v1/players/", {}, content_type="application/json").json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    ordinary: dict[str, list] = {"ms": [], "cpu": [], "queries": [], "kinds": [], "inserted": []}
    ending: dict[str, list] = {"ms": [], "cpu": [], "queries": [], "kinds": [], "inserted": []}
    for _ in range(games):
        game_id = client.post("/api/v1/games/", {"size": size},
                              content_type="application/json", **auth).json()["id"]
        while True:
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE:
                break
            from_row, from_col, to_row, to_col = next(
                EngineGame.from_state(game.state, record=False).legal_moves()
            )
            body = {"step": game.moves_count, "from": [from_row, from_col], "to": [to_row, to_col]}
            with CaptureQueriesContext(connection) as queries:
                started, cpu_started = time.perf_counter(), time.process_time()
                response = client.post(f"/api/v1/games/{game_id}/moves/", body,
                                       content_type="application/json", **auth)
                elapsed = (time.perf_counter() - started) * 1000
                cpu = (time.process_time() - cpu_started) * 1000
            assert response.status_code == 201, response.content
            into = ending if response.json()["game_over"] else ordinary
            statements = [q["sql"] for q in queries.captured_queries]
            into["ms"].append(elapsed)
            into["cpu"].append(cpu)
            into["queries"].append(len(statements))
            into["kinds"].append(Counter(_kind(sql) for sql in statements))
            into["inserted"].append(response.json()["events"] and len(response.json()["events"]))
    for name, data in (("ordinary move", ordinary), ("game-ending move", ending)):
        if not data["ms"]:
            continue
        kinds = Counter()
        for counter in data["kinds"]:
            kinds.update(counter)
        count = len(data["ms"])
        mix = ", ".join(f"{kind} {total / count:.1f}" for kind, total in sorted(kinds.items()))
        print(f"{name:>16}: {count} requests, median {statistics.median(data['ms']):.1f} ms "
              f"(CPU {statistics.median(data['cpu']):.1f} ms), "
              f"{statistics.mean(data['queries']):.1f} statements ({mix})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
