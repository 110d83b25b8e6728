"""Every door of the research area, tried by a researcher who is not staff.

The consent text promises that the games of a player who refuses research
consent are left out of all research data. A researcher (the researchers
group, not staff) used to tick "include unconsented" and download those games,
notes included; an active game's hidden values and groups were in
``boards.csv``, ``moves.csv`` and ``save.txt``. Here the researcher tries each
table in each format with every parameter that could let those games in, the
preview, the game pages, the save files and the export command: no
unconsented or active game's id, note or board may come out. Only the admin
(change permission on games) reaches them, and every such export is logged.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from itertools import chain

import pyarrow.parquet as pq
import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from games.models import BoardSnapshot, Event, Game
from research.exports.tables import all_tables
from research.selectors import RESEARCHERS_GROUP
from tests.factories import GameFactory, PlayerFactory, play

pytestmark = pytest.mark.django_db

CONSENTED_NOTE = "note-of-a-consenting-player"
UNCONSENTED_NOTE = "note-of-a-player-who-refused-consent"
ACTIVE_NOTE = "note-of-a-game-still-being-played"

# Every query parameter that could widen an export, alone and together.
WIDENING = [
    {},
    {"include_unconsented": "1"},
    {"include_unconsented": "true"},
    {"status": "active"},
    {"include_active": "1"},
    {"include_excluded": "1", "include_practice": "1"},
    {"include_excluded": "1", "include_practice": "1", "include_unconsented": "1",
     "include_active": "1"},
]


@pytest.fixture
def researcher_client(db) -> Client:
    user = User.objects.create_user("door", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    assert not user.is_staff
    client = Client()
    client.force_login(user)
    return client


def _with_note(game: Game, note: str) -> Game:
    Event.objects.filter(game=game, kind="move").update(note=note)
    return game


@pytest.fixture
def games(db) -> dict[str, Game]:
    """A consenting player's finished game, an unconsenting one's, and an active game."""
    consenting = PlayerFactory.create()
    refused = PlayerFactory.create(consent_version=None)
    consented = _with_note(play(GameFactory.create(player=consenting, seed=7)), CONSENTED_NOTE)
    unconsented = _with_note(play(GameFactory.create(player=refused, seed=8)), UNCONSENTED_NOTE)
    active = _with_note(play(GameFactory.create(player=consenting, seed=9), moves=3), ACTIVE_NOTE)
    # An unconsented game that is also practice and excluded: every flag at once.
    other = play(GameFactory.create(player=refused, seed=10), moves=2)
    Game.objects.filter(pk=other.pk).update(
        mode=Game.Mode.PRACTICE, excluded_from_research=True, excluded_reason="test",
        status=Game.Status.ABANDONED, ended_at=timezone.now(),
    )
    assert consented.status != Game.Status.ACTIVE
    assert unconsented.status != Game.Status.ACTIVE
    assert not unconsented.research_consent
    assert active.status == Game.Status.ACTIVE
    assert active.research_consent
    return {"consented": consented, "unconsented": unconsented, "active": active,
            "other": Game.objects.get(pk=other.pk)}


def _forbidden_texts(games: dict[str, Game]) -> list[str]:
    """What must never come out: the ids, notes and boards of unconsented and active games."""
    texts = [UNCONSENTED_NOTE, ACTIVE_NOTE]
    for name in ("unconsented", "active", "other"):
        game = games[name]
        texts += [str(game.pk), game.pk.hex]
    return texts


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _parquet_text(data: bytes) -> str:
    table = pq.read_table(io.BytesIO(data))
    return repr(table.to_pylist())


def _assert_clean(text: str, games: dict[str, Game], where: object) -> None:
    for forbidden in _forbidden_texts(games):
        assert forbidden not in text, (where, forbidden)


def _requests() -> Iterator[tuple[str, str, dict[str, str]]]:
    for name in all_tables():
        for params in WIDENING:
            for output in ("csv", "csv.gz", "parquet"):
                yield name, output, params


def test_no_export_holds_an_unconsented_or_active_game(researcher_client, games):
    consented = str(games["consented"].pk)
    seen_consented = False
    for name, output, params in _requests():
        query = dict(params)
        suffix = "parquet" if output == "parquet" else "csv"
        if output == "csv.gz":
            query["gzip"] = "1"
        response = researcher_client.get(f"/research/export/{name}.{suffix}", query)
        body = _body(response)
        where = (name, output, params)
        if set(params) - {"include_excluded", "include_practice"}:
            # Asking for unconsented or active games is refused before any row is read.
            assert response.status_code == 400, where
            assert response.json()["error"]["code"] == "invalid_filter", where
            continue
        if response.status_code == 400:  # a filter that does not apply to this table
            assert response.json()["error"]["code"] == "invalid_filter", where
            continue
        assert response.status_code == 200, where
        if output == "parquet":
            text = _parquet_text(body)
        elif output == "csv.gz":
            text = gzip.decompress(body).decode()
        else:
            text = body.decode()
        _assert_clean(text, games, where)
        seen_consented = seen_consented or consented in text
    assert seen_consented  # the doors are open for research data


def test_boards_and_moves_never_show_an_active_games_hidden_state(researcher_client, games):
    active = games["active"]
    boards = BoardSnapshot.objects.filter(game=active)
    assert boards.exists()
    for table in ("boards", "moves", "noise_errors", "merges", "round_boundaries"):
        text = _body(researcher_client.get(f"/research/export/{table}.csv")).decode()
        assert str(active.pk) not in text, table
    text = _body(researcher_client.get("/research/export/boards.csv")).decode()
    assert CONSENTED_NOTE not in text  # boards hold no notes; moves do:
    assert CONSENTED_NOTE in _body(researcher_client.get("/research/export/moves.csv")).decode()


def test_the_preview_holds_no_unconsented_or_active_game(researcher_client, games):
    for name in all_tables():
        for params in WIDENING:
            response = researcher_client.get(
                "/research/", {"table": name, "preview": "1", **params}
            )
            assert response.status_code in (200, 400), (name, params)
            _assert_clean(response.content.decode(), games, (name, params))
            if set(params) - {"include_excluded", "include_practice"}:
                assert response.status_code == 400, (name, params)


def test_the_form_offers_no_unconsented_or_active_option(researcher_client, games):
    page = researcher_client.get("/research/").content.decode()
    assert "include_unconsented" not in page
    assert '<option value="active">' not in page


@pytest.mark.parametrize("name", ["unconsented", "active", "other"])
def test_game_pages_and_save_files_are_closed(researcher_client, games, name):
    game = games[name]
    for url in (f"/research/games/{game.pk}/", f"/research/games/{game.pk}/save.txt",
                f"/research/games/{game.pk}/?events_page=2"):
        response = researcher_client.get(url)
        assert response.status_code == 404, url
        _assert_clean(response.content.decode().replace(str(game.pk), "<id>"), games, url)
        assert UNCONSENTED_NOTE not in response.content.decode()
    lookup = researcher_client.get("/research/", {"game": str(game.pk)})
    assert lookup.status_code == 400  # "no game has the id", not a redirect to its page


def test_the_consenting_players_finished_game_still_opens(researcher_client, games):
    game = games["consented"]
    assert researcher_client.get(f"/research/games/{game.pk}/").status_code == 200
    save = researcher_client.get(f"/research/games/{game.pk}/save.txt")
    assert save.status_code == 200
    assert str(game.seed) in save.content.decode()


def test_the_api_shows_no_game_to_a_researchers_session(researcher_client, games):
    for name in ("unconsented", "active"):
        game = games[name]
        for url in (f"/api/v1/games/{game.pk}/", f"/api/v1/games/{game.pk}/history/",
                    "/api/v1/me/games/"):
            response = researcher_client.get(url)
            assert response.status_code in (401, 403, 404), url
            _assert_clean(response.content.decode().replace(str(game.pk), "<id>"), games, url)


def test_the_export_command_has_no_way_to_add_them(games, tmp_path):
    out = tmp_path / "moves.csv"
    for option in ("--include-unconsented", "--include-active"):
        with pytest.raises((CommandError, TypeError)):
            call_command("export_csv", "moves", "--out", str(out), "--no-progress", option)
    with pytest.raises(CommandError, match="--status"):
        call_command("export_csv", "games", "--out", str(out), "--no-progress",
                     "--status", "active")
    for table in ("games", "moves", "boards", "players"):
        call_command("export_csv", table, "--out", str(out), "--no-progress",
                     "--include-excluded", "--include-practice")
        _assert_clean(out.read_text(encoding="utf-8"), games, table)


def test_the_codebook_says_exactly_what_the_exports_hold(client, games):
    book = client.get("/research/codebook.json").json()
    assert "include_unconsented" not in book["filters"]
    assert "never" in book["contents"]["consent"]
    assert "finished games only" in book["contents"]["games"]
    for table in book["tables"]:
        assert "include_unconsented" not in table["filters"], table["name"]
    page = client.get("/research/codebook/").content.decode()
    assert "What the exports hold" in page
    _assert_clean(page, games, "codebook")


# -- the admin: the one way out for these games, logged --------------------------


def _admin_export(client: Client, games: dict[str, Game]) -> bytes:
    selected = [str(game.pk) for game in games.values()]
    response = client.post("/admin/games/game/", {
        "action": "export_csv", "_selected_action": selected,
    })
    assert response.status_code == 200
    return _body(response)


def test_only_a_curator_exports_them_in_the_admin_and_each_game_is_logged(games):
    viewer = User.objects.create_user("viewer", password="a-long-test-password", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    viewer.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    client = Client()
    client.force_login(viewer)
    refused = client.post("/admin/games/game/", {
        "action": "export_csv", "_selected_action": [str(games["unconsented"].pk)],
    })
    # Refused: no export action for a viewer, so no CSV and nothing logged.
    assert refused.get("Content-Disposition") is None
    assert not refused.get("Content-Type", "").startswith("text/csv")
    assert not LogEntry.objects.filter(user=viewer).exists()
    save = client.get(f"/admin/games/game/{games['unconsented'].pk}/save.txt")
    assert save.status_code in (302, 403)

    admin = User.objects.create_superuser("root", password="a-long-test-password")
    client = Client()
    client.force_login(admin)
    body = _admin_export(client, games).decode()
    for name in ("unconsented", "active", "consented"):
        assert str(games[name].pk) in body
    logged = set(LogEntry.objects.filter(user=admin).values_list("object_id", flat=True))
    assert logged == {str(game.pk) for game in games.values()}
    save = client.get(f"/admin/games/game/{games['unconsented'].pk}/save.txt")
    assert save.status_code == 200
    assert LogEntry.objects.filter(
        user=admin, object_id=str(games["unconsented"].pk),
        change_message__contains="save file",
    ).exists()


def test_every_door_was_tried():
    # Guards the test itself: each table of the registry in each format.
    names = {name for name, _, _ in _requests()}
    assert names == set(all_tables())
    assert len(list(chain(_requests()))) == len(all_tables()) * len(WIDENING) * 3
