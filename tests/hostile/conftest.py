"""Shared pieces of the hostile tests: each one replays an attack or an outage."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from core import circuit


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Rate-limit counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _closed_circuit_breakers() -> Iterator[None]:
    """Outages replayed by one test do not make the next one skip Redis (core.circuit)."""
    circuit.reset_all()
    yield
    circuit.reset_all()


def rates(**values: Any) -> override_settings:
    """Only these rate limits (others off), e.g. ``rates(ip="3/min")``."""
    return rest_framework(DEFAULT_THROTTLE_RATES=values)


def rest_framework(**values: Any) -> override_settings:
    return override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, **values})
