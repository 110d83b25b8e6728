"""Unit tests of decodoku_site.env, the strict environment reader."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from decodoku_site.env import Env


def test_blank_values_count_as_unset():
    env = Env({"A": "", "B": "   "})

    assert env.raw("A") is None
    assert env.boolean("B", default=True) is True
    assert env.integer("A", 7) == 7
    assert env.strings("B", ["x"]) == ["x"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("TRUE", True), (" yes ", True), ("on", True), ("0", False), ("Off", False)],
)
def test_boolean_words(value, expected):
    assert Env({"FLAG": value}).boolean("FLAG", default=not expected) is expected


@pytest.mark.parametrize("value", ["maybe", "2", "-1", "enabled", "y"])
def test_boolean_rejects_other_words(value):
    with pytest.raises(ImproperlyConfigured, match=r"^Environment variable FLAG: "):
        Env({"FLAG": value}).boolean("FLAG", default=False)


def test_integer_bounds():
    env = Env({"N": "5", "NEG": "-3", "BIG": "11", "BAD": "5s"})

    assert env.integer("N", 0) == 5
    assert env.integer("NEG", 0, minimum=None) == -3
    with pytest.raises(ImproperlyConfigured, match="NEG: -3 is below the minimum of 0"):
        env.integer("NEG", 0)
    with pytest.raises(ImproperlyConfigured, match="BIG: 11 is above the maximum of 10"):
        env.integer("BIG", 0, maximum=10)
    with pytest.raises(ImproperlyConfigured, match="BAD: '5s' is not a whole number"):
        env.integer("BAD", 0)


def test_strings_split_on_commas():
    env = Env({"HOSTS": " a.example , b.example,, "})

    assert env.strings("HOSTS") == ["a.example", "b.example"]


def test_database_url_for_postgres():
    config = Env({"DB": "postgresql://alice:p%40ss@db.internal:6543/lab?sslmode=require"}).database(
        "DB", default={}
    )

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"]) == ("alice", "p@ss")
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 6543, "lab")
    assert config["OPTIONS"] == {"sslmode": "require"}


def test_database_url_for_sqlite_and_default():
    env = Env({"DB": "sqlite:////srv/lab/db.sqlite3"})

    assert env.database("DB", default={})["NAME"] == "/srv/lab/db.sqlite3"
    assert env.database("UNSET", default={"NAME": "x"}) == {"NAME": "x"}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://db/lab", "unsupported scheme 'mysql'"),
        ("postgres://db:54x/lab", "port is not a whole number"),
        ("postgres:///lab", "needs a host name"),
        ("postgres://db/", "needs a database name"),
        ("db.sqlite3", "not a URL"),
    ],
)
def test_bad_database_urls(url, message):
    with pytest.raises(ImproperlyConfigured, match=rf"^Environment variable DB: .*{message}"):
        Env({"DB": url}).database("DB", default={})


def test_cache_urls():
    assert Env({}).cache("C")["BACKEND"].endswith("LocMemCache")
    redis = Env({"C": "redis://127.0.0.1:6379/1"}).cache("C")
    assert redis["BACKEND"] == "django_redis.cache.RedisCache"
    assert redis["LOCATION"] == "redis://127.0.0.1:6379/1"
    assert Env({"C": "dummy://"}).cache("C")["BACKEND"].endswith("DummyCache")
    with pytest.raises(ImproperlyConfigured, match="C: unsupported scheme 'memcached'"):
        Env({"C": "memcached://cache"}).cache("C")


def test_choice():
    env = Env({"LEVEL": "INFO", "BAD": "info"})

    assert env.choice("LEVEL", "WARNING", ["INFO", "WARNING"]) == "INFO"
    with pytest.raises(ImproperlyConfigured, match="BAD: 'info' is not one of INFO, WARNING"):
        env.choice("BAD", "WARNING", ["INFO", "WARNING"])
