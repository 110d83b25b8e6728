"""Shared test configuration.

Database: pytest-django builds the test database from the site's DATABASES
setting, so the suite runs on SQLite by default and on PostgreSQL when
DATABASE_URL points at a PostgreSQL server (as .ci/run does).

Service markers: a test marked ``postgres``, ``celery_worker``, ``browser``,
``redis`` or ``openapi_client`` is skipped when that service is not available.
When DECODOKU_REQUIRE_SERVICES=1 (set by .ci/run) a missing service fails the
test instead, so that CI can never pass by silently skipping what it was meant
to check. No test skips itself: one that needs a service carries its marker.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Every test but the real-worker ones runs Celery tasks in-process, even when
# CELERY_BROKER_URL points at Redis (as in CI), where no worker listens.
from tests.eager_tasks import tasks_in_process  # noqa: F401

REQUIRE_SERVICES_VARIABLE = "DECODOKU_REQUIRE_SERVICES"
CHROMIUM_VARIABLE = "DECODOKU_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"


def services_required() -> bool:
    """True when a missing service must fail tests rather than skip them."""
    return os.environ.get(REQUIRE_SERVICES_VARIABLE, "").strip().lower() in {
        "1",
        "true",
        "yes",
        "on",
    }


def chromium_path() -> Path:
    return Path(os.environ.get(CHROMIUM_VARIABLE, "").strip() or DEFAULT_CHROMIUM)


def _postgres_problem() -> str | None:
    from django.db import connection

    if connection.vendor == "postgresql":
        return None
    return (
        f"needs PostgreSQL, but the test database is {connection.vendor} "
        "(set DATABASE_URL=postgres://...)"
    )


def _celery_worker_problem() -> str | None:
    from django.conf import settings

    broker = str(settings.CELERY_BROKER_URL)
    if not settings.CELERY_TASK_ALWAYS_EAGER and broker.startswith("redis"):
        return None
    return "needs a Celery broker on Redis (set CELERY_BROKER_URL=redis://...)"


def _browser_problem() -> str | None:
    path = chromium_path()
    if path.is_file() and os.access(path, os.X_OK):
        return None
    return f"needs Chromium at {path} (bin/test installs Debian's chromium when run as root)"


# The Redis server the tests that need a real one use (database 13, their own key prefix).
TEST_REDIS_HOST, TEST_REDIS_PORT = "127.0.0.1", 6379


def _redis_problem() -> str | None:
    import redis

    try:
        redis.Redis(host=TEST_REDIS_HOST, port=TEST_REDIS_PORT, socket_timeout=0.5).ping()
    except redis.RedisError:
        return f"needs Redis at {TEST_REDIS_HOST}:{TEST_REDIS_PORT}"
    return None


def openapi_generator() -> Path:
    """The openapi-python-client script: on PATH, else beside the running interpreter."""
    import shutil
    import sys

    found = shutil.which("openapi-python-client")
    return Path(found) if found else Path(sys.executable).with_name("openapi-python-client")


def _openapi_client_problem() -> str | None:
    if openapi_generator().exists():
        return None
    return "needs openapi-python-client (requirements-dev.txt)"


SERVICE_CHECKS: dict[str, Callable[[], str | None]] = {
    "postgres": _postgres_problem,
    "celery_worker": _celery_worker_problem,
    "browser": _browser_problem,
    "redis": _redis_problem,
    "openapi_client": _openapi_client_problem,
}

# Markers of the services above that pyproject.toml does not list (registered here,
# so that --strict-markers accepts them in every run that loads this file).
EXTRA_MARKERS = {
    "redis": "needs Redis at 127.0.0.1:6379",
    "openapi_client": "needs openapi-python-client (requirements-dev.txt)",
}


def missing_services(item: pytest.Item) -> list[str]:
    """One message per service that ``item`` is marked for and that is unavailable."""
    problems = []
    for marker_name, check in SERVICE_CHECKS.items():
        if item.get_closest_marker(marker_name) is None:
            continue
        problem = check()
        if problem is not None:
            problems.append(f"[{marker_name}] {problem}")
    return problems


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    problems = missing_services(item)
    if not problems:
        return
    message = "; ".join(problems)
    if services_required():
        pytest.fail(
            f"{message} -- {REQUIRE_SERVICES_VARIABLE}=1, so a missing service is a failure",
            pytrace=False,
        )
    pytest.skip(message)


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    for name, needs in EXTRA_MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {needs}")

    # With DEBUG off and no SECRET_KEY in the environment the settings leave the
    # key empty (only servers insist on one); the tests need sessions and CSRF.
    if not os.environ.get("SECRET_KEY", "").strip():
        settings.SECRET_KEY = "test-only-secret-key-" + "x" * 40


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings
    from django.db import connection

    broker = "eager (in-process)" if settings.CELERY_TASK_ALWAYS_EAGER else "broker"
    return [
        f"decodoku: database={connection.vendor} celery={broker} "
        f"require_services={services_required()}"
    ]


@pytest.fixture(scope="session", autouse=True)
def _test_site_settings() -> Iterator[None]:
    """Adjust the production defaults that do not fit the test client.

    Tests do not run collectstatic, so static files use the plain storage
    instead of the manifest one and WhiteNoise finds them in the apps, as in
    development; and the test client speaks plain HTTP, so the HTTPS redirect
    is off (tests that check it switch it on again). An upload's time limits
    (10 s of wall clock, 3 s of processor time) are generous here: the files
    the tests send are small, yet under coverage on a busy machine reading one
    can pass 3 s; the tests of those limits set them themselves.
    """
    from django.test.utils import override_settings

    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    overrides = {
        "STORAGES": storages,
        "WHITENOISE_AUTOREFRESH": True,
        "WHITENOISE_USE_FINDERS": True,
        "SECURE_SSL_REDIRECT": False,
        "DECODOKU_SAVE_PARSE_SECONDS": 600,
        "DECODOKU_UPLOAD_CPU_SECONDS": 600.0,
    }
    with override_settings(**overrides):
        yield
