"""The service markers skip locally but fail when DECODOKU_REQUIRE_SERVICES=1.

Each case runs a tiny test file in a separate pytest process that loads
tests/conftest.py as a plugin, with an environment the case controls.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

SAMPLE = """
import pytest

@pytest.mark.browser
def test_needs_a_browser():
    pass

@pytest.mark.postgres
def test_needs_postgres():
    pass

def test_needs_nothing():
    pass
"""


def run_sample(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "DECODOKU_REQUIRE_SERVICES", "DECODOKU_CHROMIUM"}
        and not name.startswith("PYTEST_")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="decodoku_site.settings",
        PYTHONPATH=str(BASE_DIR),
        SECRET_KEY="test-only-key-for-a-subprocess-that-serves-nothing",
    )
    env.update(variables)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "-rA",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            str(tmp_path / "test_sample.py"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def outcomes(result: subprocess.CompletedProcess[str]) -> dict[str, int]:
    """The counts of pytest's closing line, e.g. {"passed": 1, "skipped": 2}."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    closing = lines[-1] if lines else ""
    counts = {word: int(number) for number, word in re.findall(r"(\d+) ([a-z]+)", closing)}
    counts.pop("warnings", None)
    counts.pop("warning", None)
    if "error" in counts:
        counts["errors"] = counts.pop("error")
    return counts


def test_missing_services_are_skipped_locally(tmp_path):
    result = run_sample(tmp_path, DECODOKU_CHROMIUM=str(tmp_path / "no-chromium"))

    assert result.returncode == 0, result.stdout + result.stderr
    assert outcomes(result) == {"passed": 1, "skipped": 2}
    assert "[browser] needs Chromium at" in result.stdout
    assert "[postgres] needs PostgreSQL" in result.stdout


def test_missing_services_fail_when_required(tmp_path):
    result = run_sample(
        tmp_path,
        DECODOKU_CHROMIUM=str(tmp_path / "no-chromium"),
        DECODOKU_REQUIRE_SERVICES="1",
    )

    assert result.returncode == 1, result.stdout + result.stderr
    assert outcomes(result) == {"passed": 1, "errors": 2}
    assert "DECODOKU_REQUIRE_SERVICES=1, so a missing service is a failure" in result.stdout


@pytest.mark.parametrize("required", ["0", "1"])
def test_available_service_runs_the_test(tmp_path, required):
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)

    result = run_sample(
        tmp_path, DECODOKU_CHROMIUM=str(chromium), DECODOKU_REQUIRE_SERVICES=required
    )

    assert "PASSED test_sample.py::test_needs_a_browser" in result.stdout
