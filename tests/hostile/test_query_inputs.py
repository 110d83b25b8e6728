"""Query strings of the research exports and the dashboard: no value gives a 5xx.

Replays the findings (``date_to=9999-12-31`` crashed, ``rules_key=%00`` began a
download that then failed with #EXPORT_FAILED) and fuzzes every parameter with
hypothesis: each answer is a success or a 4xx with the API's error body, and a
download that starts always finishes.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.filters import FILTER_NAMES as DASHBOARD_FILTERS
from dashboard.selectors.registry import plot_specs
from research.exports.filters import FILTER_NAMES as EXPORT_FILTERS
from research.exports.tables import all_tables
from research.exports.writer import FAILURE_MARKER
from research.selectors import RESEARCHERS_GROUP
from tests.factories import GameFactory, PlayerFactory, play

TRICKY_VALUES = [
    "9999-12-31", "0001-01-01", "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00",
    "\x00", "a\x00b", "%00", "1e309", "nan", "-1", "²", "٣", "9" * 40, "2026-02-30",
    "z10-L7-b6-m5-destination", "z10", "phi_lambda", "7", "1", "0", "true", "",
    "human", "'; DROP TABLE games_game; --", "\ud7ff", "\u202e", " ", "\n",
]
VALUES = st.one_of(st.sampled_from(TRICKY_VALUES), st.text(max_size=30))
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def researcher_client(db) -> Client:
    user = User.objects.create_user("fuzz", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def some_games(db) -> None:
    player = PlayerFactory.create()
    play(GameFactory.create(player=player), moves=3)


def _query(params: dict[str, str]) -> str:
    return urlencode(params)


def _check(response, *, streaming_ok: bool = True) -> None:
    status = response.status_code
    assert status < 500
    if status >= 400:
        assert response["Content-Type"].startswith("application/json")
        assert set(response.json()["error"]) >= {"code", "message"}
        return
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
        assert FAILURE_MARKER.encode() not in body


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("date_to=9999-12-31", "date_to"),
        ("rules_key=%00", "rules_key"),
        ("date_from=0001-01-01T00:00:00%2B14:00", "date_from"),
        ("player=%00", "player"),
    ],
)
def test_export_parameters_that_crashed_are_refused_before_the_download(
    researcher_client, some_games, query, field
):
    response = researcher_client.get(f"/research/export/games.csv?{query}")
    assert response.status_code == 400
    assert not getattr(response, "streaming", False)
    error = response.json()["error"]
    assert error["code"] == "invalid_filter"
    assert field in error["message"]


@pytest.mark.parametrize(
    "query", ["to=9999-12-31", "from=9999-12-31", "size=%C2%B2"]
)
def test_dashboard_parameters_that_crashed_are_refused(db, client, query):
    response = client.get(f"/dashboard/data/mine/?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@given(
    table=st.sampled_from(sorted(all_tables())),
    params=st.dictionaries(
        st.sampled_from([*EXPORT_FILTERS, "gzip", "unknown"]), VALUES, max_size=4
    ),
)
@FUZZ
def test_no_export_query_gives_a_server_error(researcher_client, some_games, table, params):
    _check(researcher_client.get(f"/research/export/{table}.csv?{_query(params)}"))


@given(
    path=st.sampled_from(
        ["/dashboard/data/mine/"] + [f"/dashboard/data/{spec.name}/" for spec in plot_specs()]
    ),
    params=st.dictionaries(
        st.sampled_from([*DASHBOARD_FILTERS, "format", "unknown"]), VALUES, max_size=4
    ),
)
@FUZZ
def test_no_dashboard_query_gives_a_server_error(client, some_games, path, params):
    _check(client.get(f"{path}?{_query(params)}"))


@given(params=st.dictionaries(st.sampled_from(DASHBOARD_FILTERS), VALUES, max_size=3))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_dashboard_page_never_gives_a_server_error(client, some_games, params):
    response = client.get(f"/dashboard/?{_query(params)}")
    assert response.status_code < 500
