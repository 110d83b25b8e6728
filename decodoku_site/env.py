"""Strict reading of settings from environment variables.

Every setting that an operator can change comes from one environment variable.
A value that cannot be understood stops the start-up with
``ImproperlyConfigured`` and a message that names the variable, instead of
being quietly replaced by a default (``DEBUG=maybe`` is an error, not
``False``).

Rules common to all variables:

* a variable that is unset, empty or only white space counts as unset and
  takes its default;
* surrounding white space is ignored;
* messages about URL variables never repeat the value, because URLs may carry
  passwords.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import SplitResult, urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")

DATABASE_SCHEMES = ("postgres", "postgresql", "sqlite")
CACHE_SCHEMES = ("redis", "rediss", "locmem", "dummy")
BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")
RESULT_BACKEND_SCHEMES = ("redis", "rediss", "rpc")

# Used only with DEBUG on, when SECRET_KEY is unset.
DEVELOPMENT_SECRET_KEY = "django-insecure-dev-only-never-use-this-key-outside-a-laptop"  # noqa: S105

POSTGRES_ENGINE = "django.db.backends.postgresql"
SQLITE_ENGINE = "django.db.backends.sqlite3"


class Env:
    """Typed, validating access to a mapping of environment variables."""

    def __init__(self, variables: Mapping[str, str] | None = None) -> None:
        self._variables = os.environ if variables is None else variables

    # -- basic values -------------------------------------------------------

    def raw(self, name: str) -> str | None:
        """The stripped value of ``name``, or None when unset or blank."""
        value = self._variables.get(name)
        if value is None:
            return None
        value = value.strip()
        return value or None

    def is_set(self, name: str) -> bool:
        return self.raw(name) is not None

    @staticmethod
    def error(name: str, problem: str) -> ImproperlyConfigured:
        """The exception to raise for a bad value of ``name``."""
        return ImproperlyConfigured(f"Environment variable {name}: {problem}")

    def string(self, name: str, default: str | None = None) -> str | None:
        value = self.raw(name)
        return default if value is None else value

    def boolean(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value is None:
            return default
        word = value.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise self.error(
            name,
            f"{value!r} is not a boolean; use one of {', '.join(TRUE_WORDS + FALSE_WORDS)}",
        )

    def integer(
        self,
        name: str,
        default: int,
        *,
        minimum: int | None = 0,
        maximum: int | None = None,
    ) -> int:
        value = self.raw(name)
        if value is None:
            return default
        try:
            number = int(value, 10)
        except ValueError:
            raise self.error(name, f"{value!r} is not a whole number") from None
        if minimum is not None and number < minimum:
            raise self.error(name, f"{number} is below the minimum of {minimum}")
        if maximum is not None and number > maximum:
            raise self.error(name, f"{number} is above the maximum of {maximum}")
        return number

    def seconds(
        self, name: str, default: float, *, minimum: float = 0.0, maximum: float = 3600.0
    ) -> float:
        """A duration in seconds: a whole or decimal number (``0.5``), within bounds."""
        value = self.raw(name)
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            raise self.error(name, f"{value!r} is not a number of seconds") from None
        if not minimum <= number <= maximum:  # also refuses nan
            raise self.error(name, f"must be between {minimum:g} and {maximum:g} seconds")
        return number

    def choice(self, name: str, default: str, choices: Iterable[str]) -> str:
        allowed = tuple(choices)
        value = self.raw(name)
        if value is None:
            return default
        if value not in allowed:
            raise self.error(name, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def strings(self, name: str, default: Iterable[str] = ()) -> list[str]:
        """A comma-separated list; blank items are dropped."""
        value = self.raw(name)
        if value is None:
            return list(default)
        return [item.strip() for item in value.split(",") if item.strip()]

    # -- URLs ---------------------------------------------------------------

    def url(self, name: str, schemes: Iterable[str]) -> str | None:
        """A URL whose scheme is one of ``schemes`` and whose port, if any, is valid."""
        value = self.raw(name)
        if value is None:
            return None
        self._check_url(name, value, tuple(schemes))
        return value

    def _check_url(self, name: str, value: str, schemes: tuple[str, ...]) -> SplitResult:
        try:
            parts = urlsplit(value)
        except ValueError as exc:
            raise self.error(name, f"is not a valid URL ({exc})") from None
        scheme = parts.scheme.lower()
        if not scheme or "://" not in value:
            raise self.error(name, f"is not a URL of the form scheme://...; schemes: {schemes}")
        if scheme not in schemes:
            raise self.error(
                name, f"unsupported scheme {scheme!r}; expected one of {', '.join(schemes)}"
            )
        try:
            parts.port  # noqa: B018 - urllib validates the port when it is read
        except ValueError:
            raise self.error(name, "the port is not a whole number from 0 to 65535") from None
        return parts

    def database(self, name: str, default: dict[str, Any]) -> dict[str, Any]:
        """A Django DATABASES entry from a database URL, or ``default`` when unset."""
        value = self.raw(name)
        if value is None:
            return dict(default)
        parts = self._check_url(name, value, DATABASE_SCHEMES)
        scheme = parts.scheme.lower()
        if scheme == "sqlite":
            # sqlite:////absolute/path.sqlite3; sqlite:// alone is an in-memory database.
            config = environ.Env.db_url_config(value)
            config["ENGINE"] = SQLITE_ENGINE
            return config
        if not parts.hostname:
            raise self.error(name, "a PostgreSQL URL needs a host name")
        if not parts.path.strip("/"):
            raise self.error(name, "a PostgreSQL URL needs a database name after the host")
        config = environ.Env.db_url_config(value)
        config["ENGINE"] = POSTGRES_ENGINE
        return config

    def cache(self, name: str) -> dict[str, Any]:
        """A Django CACHES entry; the local-memory cache when unset."""
        value = self.raw(name)
        if value is None:
            return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        parts = self._check_url(name, value, CACHE_SCHEMES)
        scheme = parts.scheme.lower()
        if scheme == "locmem":
            return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        if scheme == "dummy":
            return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
        if not parts.hostname:
            raise self.error(name, "a Redis URL needs a host name")
        return {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": value,
            "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient"},
        }


def require_secret_key() -> None:
    """Refuse to start a server process without a SECRET_KEY.

    Called by the WSGI and ASGI entry points. The settings leave SECRET_KEY
    empty when it is unset and DEBUG is off, so that management commands run
    without it; serving requests must not.
    """
    from django.conf import settings

    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django refuses to hand out an empty key
        key = ""
    if not key:
        raise Env.error(
            "SECRET_KEY",
            "is required to serve requests when DEBUG is off; "
            "set a long random value, or DEBUG=1 for local development",
        )
