"""Display names that pass for others: capitals that read as other letters, invisible letters.

The key folded the case before taking the confusable skeleton, so a capital i
(whose skeleton is ``l``) hid: ``AIan`` was accepted beside ``Alan``. The
Hangul fillers count as letters yet show nothing: ``Ada<U+3164>Lovelace``
passed beside ``Ada Lovelace`` and names of fillers alone showed blank.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.errors import DisplayNameTaken
from games.models import Player
from games.names import (
    DisplayNameError,
    display_name_key,
    display_name_shape_key,
    is_invisible,
    validate_display_name,
)
from games.services import player_set_display_name
from tests.factories import PlayerFactory, api_token

pytestmark = pytest.mark.django_db

HANGUL_FILLERS = ("\u3164", "\u115f", "\u1160", "\uffa0")
KEY_COLUMN = 192


@pytest.mark.parametrize(
    ("taken", "lookalike"),
    [
        ("Alan", "AIan"),  # capital i
        ("Ada Lovelace", "Ada LoveIace"),
        ("llllll", "IIIIII"),
        ("Iris", "IRIS"),  # the same name in capitals still collides
        ("Emma", "EMMA"),
        ("Ada", "aDA"),
    ],
)
def test_a_name_that_reads_as_a_taken_one_is_refused(taken, lookalike):
    player_set_display_name(player=PlayerFactory.create(), display_name=taken)
    other = PlayerFactory.create()
    with pytest.raises(DisplayNameTaken):
        player_set_display_name(player=other, display_name=lookalike)
    other.refresh_from_db()
    assert other.display_name is None


@pytest.mark.parametrize(
    "name",
    [
        "Ada\u3164Lovelace",
        "Ada\uffa0Lovelace",
        "\u3164\u3164\u3164",
        "\u115f\u115f\u115f",
        "\uffa0\uffa0\uffa0",
        "Ada\u115fx",
    ],
)
def test_names_with_invisible_letters_are_refused_by_the_api(name):
    player = PlayerFactory.create()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    response = client.post("/api/v1/me/display-name/", {"display_name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "display_name_characters"
    player.refresh_from_db()
    assert player.display_name is None


def test_the_keys_leave_invisible_characters_out():
    assert display_name_key("Ada\u3164Lovelace") == display_name_key("AdaLovelace")
    assert display_name_shape_key("Ada\u1160Lovelace") == display_name_shape_key("AdaLovelace")
    assert all(is_invisible(char) for char in HANGUL_FILLERS)
    assert not is_invisible("a")


# Letters that pass for others, letters of other scripts, digits, separators,
# invisible letters and marks, and plain ASCII.
HOSTILE = st.text(
    alphabet=st.sampled_from([
        *"AaIil1LoO0 _-.EeMmrn",
        *"\u0410\u0430\u0435\u0456\u04cf\ua4ee\u0131\u0130",
        *HANGUL_FILLERS,
        *"\u200b\u00ad\u2060\ufeff\u034f\u0301\u17b4",
    ]),
    max_size=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE)
def test_a_hostile_name_is_refused_or_stored_visible_with_keys_that_fit(text):
    try:
        name = validate_display_name(text)
    except DisplayNameError as exc:
        refused = exc.code
    else:
        refused = ""
    if refused:
        assert refused in {"display_name_length", "display_name_characters",
                           "display_name_offensive"}
        return
    assert not any(is_invisible(char) for char in name)
    assert name
    assert name.strip() == name
    for key in (display_name_key(name), display_name_shape_key(name)):
        assert 0 < len(key) <= KEY_COLUMN


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("AaEeIiLlMmNnOoRrSs ")), min_size=3, max_size=24))
def test_names_in_other_case_or_with_i_for_l_share_a_key(text):
    try:
        name = validate_display_name(text)
    except DisplayNameError:
        return
    for variant in (name.upper(), name.lower(), name.swapcase()):
        assert display_name_key(validate_display_name(variant)) == display_name_key(name)
    capital_i = name.replace("l", "I")
    assert display_name_shape_key(capital_i) == display_name_shape_key(name)


@pytest.mark.django_db(transaction=True)
def test_the_migration_removes_names_that_collide_or_show_nothing_and_keys_the_rest():
    """games 0015: both keys for every name; the older player keeps a name, and names
    with invisible letters are removed."""
    now = timezone.now()
    rows = {
        "alan": ("Alan", now - timedelta(days=4)),
        "capital_i": ("AIan", now - timedelta(days=3)),
        "filler": ("Ada\u1160Lovelace", now - timedelta(days=2)),
        "blank": ("\u1160\u1160\u1160", now - timedelta(days=1)),
        "grace": ("Grace", now),
    }
    players = {label: PlayerFactory.create().pk for label in rows}
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("games", "0016_one_original_per_save")])
        for label, (name, created) in rows.items():
            # The key of before: the skeleton of the case-folded name.
            Player.objects.filter(pk=players[label]).update(
                display_name=name, display_name_key=f"old-{label}", created_at=created
            )
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0017_display_name_shape_key")])
        stored = {
            pk: (name, key, shape)
            for pk, name, key, shape in Player.objects.values_list(
                "pk", "display_name", "display_name_key", "display_name_shape_key"
            )
        }
        assert stored[players["alan"]] == ("Alan", "alan", "alan")
        assert stored[players["grace"]] == ("Grace", "grace", "grace")
        for label in ("capital_i", "filler", "blank"):
            assert stored[players[label]] == (None, None, None)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
