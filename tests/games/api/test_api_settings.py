"""The play API's settings come from the environment, strictly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[3]

PRINT_SETTINGS = (
    "import json; from django.conf import settings; "
    "print(json.dumps({'rates': settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], "
    "'upload': settings.DECODOKU_MAX_UPLOAD_BYTES, 'bench': settings.DECODOKU_BENCH_ENDPOINTS, "
    "'handler': settings.REST_FRAMEWORK['EXCEPTION_HANDLER']}))"
)


def _settings(**variables: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECODOKU_")}
    env.update(DJANGO_SETTINGS_MODULE="decodoku_site.settings", DEBUG="1", **variables)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {PRINT_SETTINGS}"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_the_defaults_limit_every_scope():
    result = _settings()
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["rates"] == {
        "player": "600/min", "ip": "1200/min", "signup": "60/hour", "upload": "60/hour",
        "login": "30/hour", "access_request": "5/hour", "actions": "36000/hour",
    }
    assert values["upload"] == 2 * 1024 * 1024
    assert values["bench"] is False
    assert values["handler"] == "core.api.api_exception_handler"


def test_rates_can_be_changed_or_switched_off():
    result = _settings(DECODOKU_THROTTLE_PLAYER="10/s", DECODOKU_THROTTLE_IP="off")
    rates = json.loads(result.stdout)["rates"]
    assert rates["player"] == "10/s"
    assert rates["ip"] is None
    result = _settings(DECODOKU_THROTTLING="0")
    assert set(json.loads(result.stdout)["rates"].values()) == {None}


@pytest.mark.parametrize(
    ("name", "value"),
    [("DECODOKU_THROTTLE_PLAYER", "fast"), ("DECODOKU_THROTTLE_IP", "10/week"),
     ("DECODOKU_MAX_UPLOAD_BYTES", "0"), ("DECODOKU_THROTTLING", "maybe")],
)
def test_a_malformed_value_stops_the_start_up_naming_the_variable(name, value):
    result = _settings(**{name: value})
    assert result.returncode != 0
    assert name in result.stderr
