"""The daily challenge's calendar and seed: which day is open, and its seed.

Every UTC day has one challenge at the original rules. Its seed is
HMAC-SHA256(key, the date as ``YYYY-MM-DD``), the first 63 bits: the same for
everyone, impossible to foresee without the key, and never shown while the
day is open (``day_is_open``). The key is ``settings.DECODOKU_DAILY_SECRET``,
or, unset, a key derived from ``SECRET_KEY`` (never ``SECRET_KEY`` itself).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

SEED_BITS = 63


def daily_key() -> bytes:
    configured = settings.DECODOKU_DAILY_SECRET or ""
    if configured:
        return configured.encode()
    secret_key = settings.SECRET_KEY or ""
    if not secret_key:
        raise ImproperlyConfigured("The daily challenge needs DECODOKU_DAILY_SECRET or SECRET_KEY.")
    return hashlib.sha256(b"decodoku-daily-key:" + secret_key.encode()).digest()


def daily_seed(*, day: date) -> int:
    """The seed of ``day``'s challenge: 63 bits of HMAC-SHA256(key, ``YYYY-MM-DD``)."""
    digest = hmac.new(daily_key(), day.isoformat().encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def today(*, now: datetime | None = None) -> date:
    """The current challenge's day: the UTC date."""
    return (now or timezone.now()).astimezone(UTC).date()


def day_is_open(*, day: date, now: datetime | None = None) -> bool:
    """True while ``day``'s challenge may still be played (its seed must stay hidden)."""
    return day >= today(now=now)
