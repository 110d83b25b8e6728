"""The settings module: strict environment parsing, defaults, deployment check,
and the site-wide endpoints (health check, API schema and docs)."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connections

BASE_DIR = Path(__file__).resolve().parent.parent

# Variables read by the settings; removed from the environment of the
# subprocesses below so that each test states exactly what it sets.
CONFIG_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_CONN_MAX_AGE",
    "CACHE_URL",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "LOG_LEVEL",
}
CONFIG_PREFIXES = ("CELERY_", "SECURE_", "DJANGO_")

PRODUCTION_KEY = secrets.token_urlsafe(50)


def site_env(**variables: str) -> dict[str, str]:
    """A clean environment for a subprocess, plus ``variables``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in CONFIG_VARIABLES and not name.startswith(CONFIG_PREFIXES)
    }
    env["DJANGO_SETTINGS_MODULE"] = "decodoku_site.settings"
    env.update(variables)
    return env


def run_python(code: str, **variables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=site_env(**variables),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_manage(*args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=site_env(**variables),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


SETUP = "import django; django.setup()"

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "DEBUG": s.DEBUG,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "HOST": db.get("HOST"),
    "PORT": db.get("PORT"),
    "CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
    "CONN_HEALTH_CHECKS": db.get("CONN_HEALTH_CHECKS"),
    "CACHE": s.CACHES["default"]["BACKEND"],
    "EAGER": s.CELERY_TASK_ALWAYS_EAGER,
    "BROKER": s.CELERY_BROKER_URL,
    "VISIBILITY": s.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"],
    "ALLOWED_HOSTS": s.ALLOWED_HOSTS,
    "SECRET_KEY": s.SECRET_KEY,
    "SSL_REDIRECT": s.SECURE_SSL_REDIRECT,
    "HSTS": s.SECURE_HSTS_SECONDS,
    "PROXY_HEADER": list(getattr(s, "SECURE_PROXY_SSL_HEADER", None) or []),
    "STATICFILES": s.STORAGES["staticfiles"]["BACKEND"],
}))
"""


def site_settings(**variables: str) -> dict:
    result = run_python(PRINT_SETTINGS, **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(last_line(result.stdout))


# --- Malformed values stop the start-up, naming the variable ------------------

MALFORMED = [
    pytest.param("DEBUG", "maybe", {}, id="debug-not-a-boolean"),
    pytest.param("DEBUG", "2", {}, id="debug-number"),
    pytest.param("DATABASE_URL", "mysql://u:pw-s3cret@db/decodoku", {}, id="db-unknown-scheme"),
    pytest.param("DATABASE_URL", "localhost:5432/decodoku", {}, id="db-no-scheme"),
    pytest.param(
        "DATABASE_URL", "postgres://u:pw-s3cret@db:port/decodoku", {}, id="db-port-not-integer"
    ),
    pytest.param(
        "DATABASE_URL", "postgres://u:pw-s3cret@db:70000/decodoku", {}, id="db-port-range"
    ),
    pytest.param("DATABASE_URL", "postgres://u:pw-s3cret@db:5432", {}, id="db-no-name"),
    pytest.param(
        "DATABASE_CONN_MAX_AGE",
        "-5",
        {"DATABASE_URL": "postgres://u@db/decodoku"},
        id="conn-max-age-negative",
    ),
    pytest.param("SECURE_HSTS_SECONDS", "-1", {}, id="hsts-negative"),
    pytest.param("SECURE_HSTS_SECONDS", "1.5", {}, id="hsts-not-integer"),
    pytest.param("SECURE_SSL_REDIRECT", "sometimes", {}, id="ssl-redirect-not-boolean"),
    pytest.param("CACHE_URL", "memcached://cache:11211", {}, id="cache-unknown-scheme"),
    pytest.param("CACHE_URL", "redis://cache:six/0", {}, id="cache-port-not-integer"),
    pytest.param("CELERY_BROKER_URL", "redis://pw-s3cret@broker:x/0", {}, id="broker-bad-port"),
    pytest.param("CELERY_BROKER_URL", "kafka://broker", {}, id="broker-unknown-scheme"),
    pytest.param("CELERY_TASK_TIME_LIMIT", "0", {}, id="time-limit-zero"),
    pytest.param("CELERY_TASK_SOFT_TIME_LIMIT", "900", {}, id="soft-limit-above-hard"),
    pytest.param("CELERY_REDIS_VISIBILITY_TIMEOUT", "60", {}, id="visibility-below-limit"),
    pytest.param("LOG_LEVEL", "LOUD", {}, id="log-level"),
    pytest.param(
        "DATABASE_LOCK_TIMEOUT",
        "soon",
        {"DATABASE_URL": "postgres://u@db/decodoku"},
        id="lock-timeout-not-a-number",
    ),
    pytest.param(
        "DATABASE_LOCK_TIMEOUT",
        "-1",
        {"DATABASE_URL": "postgres://u@db/decodoku"},
        id="lock-timeout-negative",
    ),
    pytest.param("CIRCUIT_BREAKER_COOLDOWN", "0", {}, id="circuit-cooldown-zero"),
    pytest.param(
        "CACHE_TIMEOUT", "0", {"CACHE_URL": "redis://cache:6379/1"}, id="cache-timeout-zero"
    ),
]


@pytest.mark.parametrize(("name", "value", "extra"), MALFORMED)
def test_malformed_value_fails_at_startup_naming_the_variable(name, value, extra):
    result = run_python(SETUP, SECRET_KEY=PRODUCTION_KEY, **extra, **{name: value})

    assert result.returncode != 0
    final = last_line(result.stderr)
    assert final.startswith("django.core.exceptions.ImproperlyConfigured: "), result.stderr
    assert f"Environment variable {name}:" in final
    assert "s3cret" not in result.stderr, "a URL's password must not be echoed"


@pytest.mark.parametrize("entry_point", ["decodoku_site.wsgi", "decodoku_site.asgi"])
def test_serving_without_secret_key_fails_when_debug_is_off(entry_point):
    result = run_python(f"import {entry_point}", DEBUG="0")

    assert result.returncode != 0
    final = last_line(result.stderr)
    assert final.startswith("django.core.exceptions.ImproperlyConfigured: "), result.stderr
    assert "Environment variable SECRET_KEY: is required" in final


def test_serving_with_secret_key_starts():
    result = run_python("import decodoku_site.wsgi", DEBUG="0", SECRET_KEY=PRODUCTION_KEY)

    assert result.returncode == 0, result.stderr


def test_management_commands_run_without_secret_key():
    """migrate and collectstatic need no key (the Docker build relies on it)."""
    result = run_manage("migrate", "--noinput", DEBUG="0", DATABASE_URL="sqlite://")

    assert result.returncode == 0, result.stderr


def test_well_formed_variables_are_accepted():
    """The counterpart of the failures above: the same variables, valid."""
    result = run_python(
        SETUP,
        DEBUG="off",
        SECRET_KEY=PRODUCTION_KEY,
        DATABASE_URL="postgres://u:pw@db:5432/decodoku",
        DATABASE_CONN_MAX_AGE="0",
        SECURE_HSTS_SECONDS="60",
        CACHE_URL="redis://cache:6379/1",
        CELERY_BROKER_URL="redis://broker:6379/0",
        CELERY_TASK_TIME_LIMIT="120",
        CELERY_TASK_SOFT_TIME_LIMIT="100",
        LOG_LEVEL="WARNING",
        DATABASE_LOCK_TIMEOUT="2.5",
        CIRCUIT_BREAKER_COOLDOWN="10",
        CACHE_TIMEOUT="0.1",
    )
    assert result.returncode == 0, result.stderr


# --- Defaults and service URLs --------------------------------------------------


def test_defaults_use_sqlite_in_process_tasks_and_production_security():
    values = site_settings(SECRET_KEY=PRODUCTION_KEY)

    assert values["DEBUG"] is False
    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == str(BASE_DIR / "db.sqlite3")
    assert values["EAGER"] is True
    assert values["CACHE"] == "django.core.cache.backends.locmem.LocMemCache"
    assert values["ALLOWED_HOSTS"] == []
    assert values["SSL_REDIRECT"] is True
    assert values["HSTS"] == 31_536_000
    assert values["PROXY_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["STATICFILES"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_debug_mode_needs_no_secret_and_relaxes_https():
    values = site_settings(DEBUG="1")

    assert values["DEBUG"] is True
    assert "dev-only" in values["SECRET_KEY"]
    assert "localhost" in values["ALLOWED_HOSTS"]
    assert values["SSL_REDIRECT"] is False
    assert values["HSTS"] == 0
    assert values["PROXY_HEADER"] == []


def test_service_urls_select_postgres_redis_and_a_real_broker():
    values = site_settings(
        SECRET_KEY=PRODUCTION_KEY,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/decodoku",
        CACHE_URL="redis://127.0.0.1:6379/1",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
    )

    assert values["ENGINE"] == "django.db.backends.postgresql"
    assert (values["NAME"], values["HOST"], values["PORT"]) == ("decodoku", "127.0.0.1", 5432)
    assert values["CONN_MAX_AGE"] == 60
    assert values["CONN_HEALTH_CHECKS"] is True
    assert values["CACHE"] == "django_redis.cache.RedisCache"
    assert values["EAGER"] is False
    assert values["BROKER"] == "redis://127.0.0.1:6379/0"
    assert values["VISIBILITY"] == 3600


# --- Deployment check -----------------------------------------------------------

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": PRODUCTION_KEY,
    "ALLOWED_HOSTS": "decodoku.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://decodoku.example.org",
}


def test_deploy_check_reports_nothing_for_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "DEBUG", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced).", (
        result.stdout + result.stderr
    )
    assert "WARNING" not in result.stderr


def test_deploy_check_flags_debug_mode():
    """Shows that the check above can fail: DEBUG on is a deployment problem."""
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, "DEBUG": "1"}
    )

    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


# --- Site endpoints ---------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_answers_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_fails(client):
    # The check runs in a thread of its own, with its own connection object.
    failing = mock.patch.object(
        type(connections["default"]), "cursor", side_effect=OperationalError("database is down")
    )
    with failing:
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


@pytest.mark.django_db
def test_healthz_is_exempt_from_the_https_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/api/v1/schema/").status_code == 301
    assert client.get("/healthz").status_code == 200


def test_healthz_refuses_writes(client):
    assert client.post("/healthz").status_code == 405


def test_schema_is_an_openapi_document(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    document = json.loads(response.content)
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Decodoku Lab API"
    assert "paths" in document


def test_docs_page_loads_only_local_assets(client):
    response = client.get("/api/v1/swagger/")

    assert response.status_code == 200
    html = response.content.decode()
    references = re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", html)
    scripts = re.findall(r"""<script[^>]*\bsrc\s*=\s*["']([^"']*)["']""", html)
    assert scripts, "the Swagger UI page should load its bundle with <script src=...>"
    external = [ref for ref in references if re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", ref, re.I)]
    assert external == []
    # The bundles, and the page's own set-up script (no inline script: CSP).
    own = [src for src in scripts if not src.startswith("/static/drf_spectacular_sidecar/")]
    assert own == ["/api/v1/swagger/?script="]
    assert "<script>" not in html
    assert "/api/v1/schema/" in client.get(own[0]).content.decode()


def test_the_wsgi_entry_point_loads_the_urls_and_freezes_what_it_loaded():
    """What the server loads at start is out of the collector's way (gc.freeze)."""
    result = run_python(
        "import sys, gc, decodoku_site.wsgi; "
        "print(gc.get_freeze_count(), 'games.api.views' in sys.modules)",
        DEBUG="0",
        SECRET_KEY=PRODUCTION_KEY,
    )

    assert result.returncode == 0, result.stderr
    frozen, urls_loaded = result.stdout.split()
    assert int(frozen) > 10_000
    assert urls_loaded == "True"
