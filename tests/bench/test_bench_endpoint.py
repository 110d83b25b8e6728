"""The load benchmark's baseline endpoint: only where benchmarks run, in its own tables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

BASE_DIR = Path(__file__).resolve().parents[2]

# Run with DECODOKU_BENCH_ENDPOINTS=1 against a new SQLite database: one
# baseline "move", then the row counts of the games' tables and the bench's.
BASELINE_MOVE = """
import json
import django
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
from bench.endpoints.models import BaselineEvent
from games.engine import RuleSet
from games.models import Event, Game
from games.services import game_start, player_create
player, token = player_create(consent_version="2026-11-v1")
game = game_start(player=player, rules=RuleSet(), source="api", mode="normal")
events = Event.objects.count()
next_seq = game.next_seq
response = Client().post(
    f"/api/v1/bench/baseline/{game.pk}/",
    data=json.dumps({"step": 0, "from": [0, 0], "to": [0, 1]}),
    content_type="application/json",
    headers={"Authorization": f"Token {token}"},
)
game.refresh_from_db()
print(json.dumps({
    "status": response.status_code,
    "events_added": Event.objects.count() - events,
    "next_seq_changed": game.next_seq != next_seq,
    "bench_events": BaselineEvent.objects.count(),
}))
"""


def test_production_settings_do_not_install_the_benchmark_endpoint(client: Client) -> None:
    assert "bench.endpoints" not in settings.INSTALLED_APPS
    response = client.post(f"/api/v1/bench/baseline/{uuid.uuid4()}/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.slow
def test_the_baseline_writes_only_into_its_own_tables(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECODOKU_")}
    env.update(
        DJANGO_SETTINGS_MODULE="decodoku_site.settings",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'bench.sqlite3'}",
        DECODOKU_BENCH_ENDPOINTS="1",
        DECODOKU_THROTTLING="0",
        ALLOWED_HOSTS="testserver",
    )
    env.pop("CELERY_BROKER_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", BASELINE_MOVE],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome == {
        "status": 201, "events_added": 0, "next_seq_changed": False, "bench_events": 1,
    }
