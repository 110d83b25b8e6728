"""Names, seeds and small leaks: look-alike display names, a puzzle replayed after its
solution was shown, and the cost of a shared game's image.

Replays the findings: with "Ada Lovelace" taken, the same name with a Cyrillic
capital A, "Lovelace" with a Cyrillic e and "Ada" with a Lisu A were accepted,
and "Fuck" with a Cyrillic es passed the word list; a KenKen seed given up
(which shows the solution) and started again was "solved" in a fraction of a
second with no wrong entry and counted as research data;
``/shared/<token>/image.png`` drew the PNG again on every request.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game, Player
from games.services import game_share, player_set_display_name
from puzzles.models import Attempt
from puzzles.stats import error_rates, solve_times
from tests.factories import GameFactory, PlayerFactory, api_token, play
from tests.research.conftest import body_of, csv_rows, researcher, researcher_client  # noqa: F401

NAME_URL = "/api/v1/me/display-name/"
PUZZLES_URL = "/api/v1/puzzles/"


def _client_of(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client


# -- look-alike display names --------------------------------------------------


@pytest.mark.parametrize(
    ("taken", "lookalike"),
    [
        ("Ada Lovelace", "\u0410da Lovelace"),  # Cyrillic capital A
        ("Ada Lovelace", "Ada Lov\u0435lace"),  # Cyrillic small e
        ("Lovelace", "Lov\u0435lace"),
        ("Ada", "\ua4eeda"),  # Lisu letter A
        ("Ada", "\u0391DA"),  # Greek capital alpha, other letters in another case
        ("Emma", "Ernrna"),  # rn reads as m
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_taken(db, taken, lookalike):
    player_set_display_name(player=PlayerFactory.create(), display_name=taken)
    player = PlayerFactory.create()
    response = _client_of(player).post(NAME_URL, {"display_name": lookalike}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "display_name_taken"
    player.refresh_from_db()
    assert player.display_name is None


@pytest.mark.parametrize(
    "name",
    [
        "Fu\u0441k",  # Cyrillic small es
        "\u0405hitHead",  # Cyrillic capital dze
        "B\u0456tch",  # Cyrillic small byelorussian-ukrainian i
        "x \u0441\u03c5nt 9",  # Cyrillic es, Greek upsilon: a whole-word entry
    ],
)
def test_a_listed_word_spelled_with_letters_of_another_script_is_refused(db, name):
    player = PlayerFactory.create()
    response = _client_of(player).post(NAME_URL, {"display_name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "display_name_offensive"


@pytest.mark.parametrize(
    "name",
    [
        "\u0414\u043c\u0438\u0442\u0440\u0438\u0439",  # Dmitriy, in Cyrillic
        "\u0391\u03bb\u03ad\u03be\u03b7\u03c2",  # Alexis, in Greek
        "Yo\u0455hitaka",  # a whole-word entry inside a name, with a Cyrillic dze
    ],
)
def test_names_in_other_scripts_are_still_accepted(db, name):
    player = PlayerFactory.create()
    response = _client_of(player).post(NAME_URL, {"display_name": name}, format="json")
    assert response.status_code == 200, response.json()


# -- a puzzle played again once its solution was shown -------------------------


def _start(api: APIClient, seed: int) -> dict:
    response = api.post(PUZZLES_URL, {"kind": "kenken", "seed": seed}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _enter(api: APIClient, attempt: dict, solution: list[list[int]]) -> dict:
    body = attempt
    for step, (r, c) in enumerate(
        (r, c) for r in range(len(solution)) for c in range(len(solution))
    ):
        response = api.post(
            f"{PUZZLES_URL}{attempt['id']}/actions/",
            {"step": step, "kind": "entry", "payload": {"cell": [r, c], "value": solution[r][c]}},
            format="json",
        )
        assert response.status_code == 201, response.json()
        body = response.json()["attempt"]
    return body


def test_a_seed_given_up_and_played_again_is_not_research_data(researcher_client):  # noqa: F811
    player = PlayerFactory.create()
    api = _client_of(player)
    given_up = _start(api, 12345)
    shown = api.post(f"{PUZZLES_URL}{given_up['id']}/finish/").json()
    assert shown["status"] == "abandoned"
    solution = shown["solution"]

    replay = _enter(api, _start(api, 12345), solution)
    assert replay["status"] == "solved"
    assert Attempt.objects.get(pk=replay["id"]).wrong_entries == 0

    # Neither the statistics page nor the exports count the replay; the attempt
    # given up (before the solution was shown) still counts.
    assert solve_times() == []
    (rates,) = error_rates()
    assert (rates.attempts, rates.solved) == (1, 0)
    exported = csv_rows(body_of(researcher_client.get("/research/export/puzzle_attempts.csv")))
    assert [row["attempt_id"] for row in exported] == [given_up["id"]]
    actions = csv_rows(body_of(researcher_client.get("/research/export/puzzle_actions.csv")))
    assert replay["id"] not in {row["attempt_id"] for row in actions}
    assert Attempt.objects.get(pk=replay["id"]).seen_solution
    assert not Attempt.objects.get(pk=given_up["id"]).seen_solution


def test_an_attempt_open_while_another_shows_the_solution_is_not_research_data(db):
    player = PlayerFactory.create()
    api = _client_of(player)
    kept_open = _start(api, 777)
    given_up = _start(api, 777)
    solution = api.post(f"{PUZZLES_URL}{given_up['id']}/finish/").json()["solution"]
    assert _enter(api, kept_open, solution)["status"] == "solved"
    assert solve_times() == []
    assert Attempt.objects.get(pk=kept_open["id"]).seen_solution


# -- the shared game's image ---------------------------------------------------


def test_the_shared_image_is_drawn_once_per_link(db, monkeypatch):
    from games.web import views

    drawn = []
    draw = views.render_share_card

    def counting(**card):
        drawn.append(card)
        return draw(**card)

    monkeypatch.setattr(views, "render_share_card", counting)
    game = play(GameFactory.create(size=5))
    token = game_share(game_id=game.pk, player=game.player).share_token
    anybody = APIClient()
    answers = [anybody.get(f"/shared/{token}/image.png") for _ in range(30)]
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert len(drawn) == 1
    # A link no longer shared serves nothing, though its image is still cached.
    Game.objects.filter(pk=game.pk).update(share_token=None)
    assert anybody.get(f"/shared/{token}/image.png").status_code == 404
    assert len(drawn) == 1
