"""What players and researchers could learn or slip in that they should not:
consent strings, hidden Phi-Lambda values, spreadsheet formulas, seeds of active games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from rest_framework.test import APIClient

from games.engine.rules import RuleSet, Variant
from games.models import BoardSnapshot, Game, Player
from games.services import game_add_note, game_start
from games.services.legacy import legacy_import
from games.web.consent import CONSENT_VERSION
from research.exports.columns import ColumnType, format_string, row_formatter
from research.exports.tables import all_tables
from research.selectors import RESEARCHERS_GROUP
from tests.factories import GameFactory, PlayerFactory, next_legal_move, play
from tests.games.test_legacy_import import Z10_SAVE
from tests.research.conftest import body_of, csv_rows

PLAYERS = "/api/v1/players/"


# -- consent -------------------------------------------------------------------


@pytest.mark.parametrize("consent", ["no", "<b>x</b>", "yes", "2025-01-v0", "1"])
def test_only_the_shown_consent_version_counts_as_consent(db, consent):
    response = APIClient().post(PLAYERS, {"consent_version": consent}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Game.objects.exists()


@pytest.mark.parametrize("consent", [CONSENT_VERSION, None])
def test_the_current_consent_or_none_is_accepted(db, consent):
    response = APIClient().post(PLAYERS, {"consent_version": consent}, format="json")
    assert response.status_code == 201


# -- Phi-Lambda: only what the display shows -----------------------------------


def _phi_lambda_moves(client: APIClient, player: Player, seed: int, moves: int) -> list[dict]:
    # Started with a fixed seed (the API draws one), so the test is the same every run;
    # the moves go through the API as a player's would.
    game = game_start(player=player, rules=RuleSet(variant=Variant.PHI_LAMBDA), seed=seed)
    game_id = game.pk
    results = []
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        from_row, from_col, to_row, to_col = next_legal_move(game)
        response = client.post(
            f"/api/v1/games/{game_id}/moves/",
            {"step": game.moves_count, "from": [from_row, from_col], "to": [to_row, to_col]},
            format="json",
        )
        assert response.status_code == 201, response.content
        results.append(response.json())
    return results


def test_an_active_phi_lambda_game_reveals_only_displayed_changes(db):
    player = PlayerFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    entries = []
    for seed in (1, 2, 3):
        for result in _phi_lambda_moves(client, player, seed, 25):
            if result["game_over"]:
                continue
            assert result["events"] is None
            assert set("".join(result["board"]["rows"])) <= {"0", "L", "P"}
            for change in result["noise"]:
                assert {change["before"], change["after"]} <= {"0", "L", "P"}
                entries.append((change["before"], change["after"]))
    assert entries, "the noise changed nothing visible in 75 moves: the test saw nothing"
    assert all(before != after for before, after in entries)


def test_an_active_phi_lambda_game_hides_values_in_state_and_history(db):
    player = PlayerFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    _phi_lambda_moves(client, player, 5, 4)
    game = Game.objects.get(variant=Variant.PHI_LAMBDA)
    assert game.status == Game.Status.ACTIVE, "seed 5 must leave the game under way"
    state = client.get(f"/api/v1/games/{game.pk}/").json()
    history = client.get(f"/api/v1/games/{game.pk}/history/?step=1").json()
    for rows in (state["board"]["rows"], history["rows"]):
        assert set("".join(rows)) <= {"0", "L", "P"}
    assert state["seed"] is None
    assert state["events"] is None


# -- spreadsheet formulas in CSV exports ---------------------------------------


@pytest.fixture
def researcher_client(db) -> Client:
    user = User.objects.create_user("leak", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("note", "cell"),
    [
        ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\r=1", "'\r=1"),
        ("a = b", "a = b"),
        ("'quoted", "'quoted"),
    ],
)
def test_a_note_that_looks_like_a_formula_is_neutralised_in_csv(researcher_client, note, cell):
    player = PlayerFactory()
    game = play(GameFactory(player=player, seed=3), moves=2)
    game_add_note(game_id=game.pk, player=player, move_index=1, note=note)
    # The play API keeps the player's raw text.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    response = client.post(
        f"/api/v1/games/{game.pk}/moves/1/note/", {"note": note}, format="json"
    )
    assert response.json()["note"] == note
    # Exports hold finished games only.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED, ended_at=game.started_at)
    rows = csv_rows(body_of(researcher_client.get("/research/export/moves.csv")))
    assert rows[0]["note"] == cell


@pytest.mark.parametrize("comment", ["=1+1", "+SUM(A1)", "-2+3", "@SUM(A1)"])
def test_a_save_file_comment_that_looks_like_a_formula_is_neutralised_in_csv(
    researcher_client, comment
):
    first_row = ",,,.,.,4(1),.,.,"
    data = Z10_SAVE.replace(first_row, f"{first_row},{comment}", 1)
    game = legacy_import(player=PlayerFactory(), filename="f.csv", data=data.encode()).game
    assert BoardSnapshot.objects.get(game=game, step=0).comment == comment  # kept raw
    rows = csv_rows(body_of(researcher_client.get("/research/export/boards.csv")))
    cells = [row["comment"] for row in rows if row["game_id"] == str(game.pk) and row["comment"]]
    assert cells == [f"'{comment}"]


def test_numbers_are_never_neutralised():
    columns = {
        column.type: column
        for table in all_tables().values()
        for column in table.columns
        if column.type in (ColumnType.INTEGER, ColumnType.FLOAT)
    }
    line = row_formatter((columns[ColumnType.INTEGER], columns[ColumnType.FLOAT]))
    assert line((-3, -0.5)) == "-3,-0.5\n"
    assert format_string("-3") == "'-3"  # the same text in a text column is guarded


# -- seeds of active games -----------------------------------------------------


def test_the_seed_of_an_active_game_is_withheld_from_exports(researcher_client):
    player = PlayerFactory()
    active = play(GameFactory(player=player, seed=424242), moves=2)
    ended = play(GameFactory(player=player, seed=515151))
    assert active.status == Game.Status.ACTIVE
    assert ended.status != Game.Status.ACTIVE
    rows = {
        row["game_id"]: row
        for row in csv_rows(body_of(researcher_client.get("/research/export/games.csv")))
    }
    # An active game is not exported at all until it ends (tests/hostile/test_research_doors.py).
    assert str(active.pk) not in rows
    assert rows[str(ended.pk)]["seed"] == "515151"
    response = researcher_client.get(f"/research/games/{active.pk}/save.txt")
    assert response.status_code == 404
    assert "424242" not in response.content.decode()
    ended_save = researcher_client.get(f"/research/games/{ended.pk}/save.txt").content.decode()
    assert "515151" in ended_save


def test_the_seed_of_an_active_game_is_withheld_from_the_admin(db):
    admin = User.objects.create_superuser("root", password="a-long-test-password")
    client = Client()
    client.force_login(admin)
    active = play(GameFactory(player=PlayerFactory(), seed=434343), moves=2)
    page = client.get(f"/admin/games/game/{active.pk}/change/").content.decode()
    assert "434343" not in page
    assert "hidden until the game ends" in page
