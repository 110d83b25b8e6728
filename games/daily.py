"""The daily challenge's calendar and seed: which day is open, and its seed.

Every UTC day has one challenge at the original rules. Its seed is
HMAC-SHA256(key, the date as ``YYYY-MM-DD``), the first 63 bits: the same for
everyone, impossible to foresee without the key, and never shown while the
day is open (``day_is_open``). The key is ``settings.DECODOKU_DAILY_SECRET``,
or, unset, a key derived from ``SECRET_KEY`` (never ``SECRET_KEY`` itself).

Every UTC day also has one *daily planar board* (``DAILY_PLANAR_RULES``): a
planar game whose seed is HMAC-SHA256(key, ``planar:YYYY-MM-DD``), the first
63 bits, so it never shares the challenge's seed and is kept as secret.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from games.engine.rules import Family, RuleSet

SEED_BITS = 63

# The daily planar board's rules: a 7 x 7 board, values mod 10 as in the original
# game, and an error rate that gives a handful of errors (about 8 on 98 edges).
DAILY_PLANAR_RULES = RuleSet(size=7, family=Family.PLANAR, modulus=10, error_rate=0.08)
DAILY_PLANAR_PREFIX = "planar:"


def daily_key() -> bytes:
    configured = settings.DECODOKU_DAILY_SECRET or ""
    if configured:
        return configured.encode()
    secret_key = settings.SECRET_KEY or ""
    if not secret_key:
        raise ImproperlyConfigured("The daily challenge needs DECODOKU_DAILY_SECRET or SECRET_KEY.")
    return hashlib.sha256(b"decodoku-daily-key:" + secret_key.encode()).digest()


def _seed_of(message: str) -> int:
    digest = hmac.new(daily_key(), message.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def daily_seed(*, day: date) -> int:
    """The seed of ``day``'s challenge: 63 bits of HMAC-SHA256(key, ``YYYY-MM-DD``)."""
    return _seed_of(day.isoformat())


def daily_planar_seed(*, day: date) -> int:
    """The seed of ``day``'s planar board: 63 bits of HMAC-SHA256(key, ``planar:YYYY-MM-DD``)."""
    return _seed_of(DAILY_PLANAR_PREFIX + day.isoformat())


def today(*, now: datetime | None = None) -> date:
    """The current challenge's day: the UTC date."""
    return (now or timezone.now()).astimezone(UTC).date()


def day_is_open(*, day: date, now: datetime | None = None) -> bool:
    """True while ``day``'s challenge may still be played (its seed must stay hidden)."""
    return day >= today(now=now)
