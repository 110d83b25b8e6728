"""One original per uploaded save, decided by the database; research data holds it once.

Two players uploading the same new save at the same moment could both make an
original, and a consenting player's upload could be a copy of a non-consenting
player's, which left the game out of research data. Now:

- a partial unique constraint allows one original (no ``copy_of``) per boards
  digest; an insert that loses the race becomes a copy of the winner;
- research data counts the original, or, when its player gave no consent,
  the earliest consenting copy;
- deleting an original makes its earliest copy the original (the others name it).

The race itself runs on PostgreSQL, with threads; the way the loser becomes a
copy is also checked on any database by letting the look-up miss the original.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from rest_framework.test import APIClient

import games.services.legacy.importing as legacy_importing
from games.models import Game, Player
from games.services import player_forget
from games.services.legacy import legacy_import
from tests.factories import PlayerFactory, api_token
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

SAVE_NAMES = ["Z10_normal_480.csv", "Z10_normal_475.csv", "PL_normal_205.csv", "PL_normal_321.csv"]


def _save(name: str = "Z10_normal_480.csv") -> bytes:
    return (SAVES / name).read_bytes()


def _upload(player: Player, name: str = "Z10_normal_480.csv") -> Game:
    return legacy_import(player=player, filename=name, data=_save(name)).game


def _originals() -> list[Game]:
    return list(Game.objects.filter(copy_of__isnull=True))


def test_the_database_refuses_a_second_original_of_the_same_save():
    first = _upload(PlayerFactory.create())
    other = _upload(PlayerFactory.create())
    assert other.copy_of == first
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=other.pk).update(copy_of=None)


def test_an_upload_that_missed_the_original_becomes_a_copy_when_its_insert_fails(monkeypatch):
    first = _upload(PlayerFactory.create())
    # As if the second request had looked before the first one's insert committed.
    look_up = _missing_once(legacy_importing._first_upload)
    monkeypatch.setattr(legacy_importing, "_first_upload", look_up)
    late = legacy_import(player=(player := PlayerFactory.create()), filename="mine.csv",
                         data=_save())
    assert late.created
    assert late.game.player == player
    assert late.game.copy_of == first
    assert _originals() == [first]


def _missing_once(look_up: Any) -> Any:
    calls = [0]

    def look(**kwargs: Any) -> Any:
        calls[0] += 1
        return None if calls[0] == 1 else look_up(**kwargs)

    return look


# -- research data: the save counts once if any of its uploaders consented -------------------


def test_a_consenting_copy_stands_for_a_save_whose_original_has_no_consent():
    original = _upload(PlayerFactory.create(consent_version=None))
    copy = _upload(PlayerFactory.create())
    assert copy.copy_of == original
    assert list(Game.objects.research_data()) == [copy]


def test_of_several_consenting_copies_only_the_earliest_counts():
    _upload(PlayerFactory.create(consent_version=None))
    first_copy = _upload(PlayerFactory.create())
    _upload(PlayerFactory.create())
    _upload(PlayerFactory.create(consent_version=None))
    assert list(Game.objects.research_data()) == [first_copy]


def test_a_consenting_original_counts_and_its_copies_do_not():
    original = _upload(PlayerFactory.create())
    _upload(PlayerFactory.create())
    assert list(Game.objects.research_data()) == [original]
    # Without consent as a condition (never offered to researchers) only originals count.
    assert list(Game.objects.research_data(include_unconsented=True)) == [original]


def test_events_of_the_standing_copy_are_research_data_too():
    _upload(PlayerFactory.create(consent_version=None))
    copy = _upload(PlayerFactory.create())
    from games.models import Event, research_data_condition

    events = Event.objects.filter(research_data_condition(prefix="game__"))
    assert set(events.values_list("game_id", flat=True)) == {copy.pk}


# -- deleting an original -------------------------------------------------------------------


def test_deleting_an_original_makes_its_earliest_copy_the_original():
    original = _upload(PlayerFactory.create())
    first_copy = _upload(PlayerFactory.create())
    second_copy = _upload(PlayerFactory.create())
    original.delete()
    first_copy.refresh_from_db()
    second_copy.refresh_from_db()
    assert first_copy.copy_of is None
    assert second_copy.copy_of == first_copy
    assert list(Game.objects.research_data()) == [first_copy]


def test_deleting_an_original_with_its_first_copy_promotes_the_next_one():
    original = _upload(PlayerFactory.create())
    first_copy = _upload(PlayerFactory.create())
    second_copy = _upload(PlayerFactory.create())
    third_copy = _upload(PlayerFactory.create())
    Game.objects.filter(pk__in=[original.pk, first_copy.pk]).delete()
    second_copy.refresh_from_db()
    third_copy.refresh_from_db()
    assert (second_copy.copy_of, third_copy.copy_of) == (None, second_copy)


def test_forgetting_the_uploader_of_several_originals_keeps_one_original_each():
    first_player = PlayerFactory.create()
    for name in SAVE_NAMES[:2]:
        _upload(first_player, name)
    for _ in range(2):
        player = PlayerFactory.create()
        for name in SAVE_NAMES[:2]:
            _upload(player, name)
    player_forget(player_id=first_player.pk, delete_games=True)
    originals = _originals()
    assert sorted(game.legacy_filename for game in originals) == sorted(SAVE_NAMES[:2])
    assert Game.objects.filter(copy_of__isnull=False).count() == 2


# -- the migration --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_later_duplicate_originals_copies_of_the_earliest():
    # The uploads are made on today's tables (later migrations add columns to games),
    # then the tables are taken back to before the constraint, where only the
    # columns named below are touched.
    players = [PlayerFactory.create() for _ in range(3)]
    first, second, third = (_upload(player) for player in players)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("games", "0015_player_consent_decided")])
        # What a race used to leave: two originals, and a copy of the later one.
        Game.objects.filter(pk=second.pk).update(copy_of=None)
        Game.objects.filter(pk=third.pk).update(copy_of=second.pk)
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0016_one_original_per_save")])
        copies = dict(Game.objects.values_list("pk", "copy_of_id"))
        assert copies == {first.pk: None, second.pk: first.pk, third.pk: first.pk}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)


# -- the race, on PostgreSQL ----------------------------------------------------------------


def _post_save(token: str, name: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    upload = SimpleUploadedFile(name, _save(name), content_type="text/csv")
    return client.post("/api/v1/imports/", {"file": upload}, format="multipart").status_code


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_uploading_the_same_new_save_together_make_one_original() -> None:
    from django.conf import settings

    pairs = [(PlayerFactory.create(), PlayerFactory.create(consent_version=None))
             for _ in SAVE_NAMES]
    for round_ in range(2):
        Game.objects.all().delete()
        barrier = threading.Barrier(2 * len(pairs))
        statuses: list[int] = []
        errors: list[BaseException] = []

        def send(
            player: Player,
            name: str,
            barrier: threading.Barrier = barrier,
            statuses: list[int] = statuses,
            errors: list[BaseException] = errors,
        ) -> None:
            try:
                # The second insert of a save waits for the first upload's transaction
                # (the unique index); on a busy machine that can pass the site's 3 s
                # lock timeout, which would answer 503 instead of deciding the race.
                with connection.cursor() as cursor:
                    cursor.execute("SET lock_timeout = '60s'")
                barrier.wait(timeout=30)
                statuses.append(_post_save(api_token(player), name))
            except BaseException as exc:  # reported below
                errors.append(exc)
            finally:
                connection.close()

        threads = [
            threading.Thread(target=send, args=(player, name))
            for (consenting, other), name in zip(pairs, SAVE_NAMES, strict=True)
            for player in ((consenting, other) if round_ == 0 else (other, consenting))
        ]
        # Neither the rate limits nor the per-process limit of heavy requests (which
        # would answer most of these at once with 503 busy) may stop the race.
        with override_settings(
            REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}},
            DECODOKU_HEAVY_REQUESTS=2 * len(pairs),
            DECODOKU_HEAVY_WAIT_SECONDS=30,
        ):
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
        assert not errors, errors[0]
        # Both uploads are imported as new games: nothing tells either about the other.
        assert statuses == [201] * len(threads)
        for name in SAVE_NAMES:
            games = Game.objects.filter(legacy_filename=name)
            assert games.count() == 2
            assert games.filter(copy_of__isnull=True).count() == 1
        # Each save counts once, whichever player's upload became the original.
        research = Game.objects.research_data()
        assert sorted(research.values_list("legacy_filename", flat=True)) == sorted(SAVE_NAMES)
        assert set(research.values_list("player", flat=True)) == {c.pk for c, _ in pairs}
