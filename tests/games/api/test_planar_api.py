"""Planar games through the play API: started, played off the board, finished, refused."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.api import ERROR_CODES
from games.engine import Family, RuleSet
from games.engine.planar import PlanarGame, get_decoder, play
from games.models import Event, Game
from tests.factories import PlanarGameFactory, decoder_moves
from tests.games.api.conftest import games_url

pytestmark = pytest.mark.django_db

PLANAR_REQUEST = {"family": "planar", "size": 5, "modulus": 2, "error_rate": 0.1}


def _move(client: APIClient, game: Game | str, step: int, move: tuple[int, int, int, int]):
    url = games_url(game, "moves/") if isinstance(game, Game) else f"/api/v1/games/{game}/moves/"
    return client.post(url, {"step": step, "from": list(move[:2]), "to": list(move[2:])},
                       format="json")


def test_it_starts_a_planar_game_and_shows_its_rules_but_no_outcome(api):
    response = api.post(games_url(), PLANAR_REQUEST, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["rules"] == {
        "size": 5, "variant": "planar", "noise_budget": 0.0, "moves_per_round": 0,
        "merge_label": "", "family": "planar", "modulus": 2, "error_rate": 0.1,
        "key": "z2-planar-L5-p0.100",
    }
    assert (body["status"], body["step"], body["round"], body["score"]) == ("active", 0, 1, 0)
    assert body["moves_until_noise"] is None
    assert (body["outcome"], body["events"], body["seed"], body["loss"]) == (None, None, None,
                                                                            None)
    assert body["board"]["groups"] is None
    game = Game.objects.get(pk=body["id"])
    assert body["board"]["rows"] == [game.state["values"][r * 5:(r + 1) * 5] for r in range(5)]


@pytest.mark.parametrize(("request_body", "code"), [
    ({"family": "planar", "size": 5, "error_rate": 0.1}, "invalid_rule_set"),
    ({"family": "planar", "size": 5, "modulus": 2}, "invalid_rule_set"),
    ({**PLANAR_REQUEST, "variant": "z10"}, "invalid_rule_set"),
    ({"modulus": 2}, "invalid_rule_set"),
    ({"size": 5, "error_rate": 0.1}, "invalid_rule_set"),
    ({**PLANAR_REQUEST, "size": 17}, "invalid_request"),
    ({**PLANAR_REQUEST, "modulus": 11}, "invalid_request"),
    ({**PLANAR_REQUEST, "error_rate": 0}, "invalid_request"),
    ({**PLANAR_REQUEST, "error_rate": 1.5}, "invalid_request"),
    ({**PLANAR_REQUEST, "error_rate": "0.1"}, "invalid_request"),
    ({**PLANAR_REQUEST, "error_rate": True}, "invalid_request"),
    ({**PLANAR_REQUEST, "family": "one_shot"}, "invalid_request"),
    ({**PLANAR_REQUEST, "mode": "practice"}, "invalid_request"),
])
def test_a_planar_rule_set_that_cannot_be_played_is_refused(api, request_body, code):
    response = api.post(games_url(), request_body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert error["code"] in ERROR_CODES
    assert error["message"]
    assert not Game.objects.exists()


def test_a_planar_game_is_played_off_the_board_to_its_logical_outcome(api, player):
    game = PlanarGameFactory.create(player=player, seed=5001)
    moves = decoder_moves(game)
    engine = PlanarGame(RuleSet(size=5, family=Family.PLANAR, modulus=2, error_rate=0.1), 5001)
    play(engine, get_decoder("clustering"))
    assert any(move[3] in (-1, 5) for move in moves)
    for step, move in enumerate(moves[:-1]):
        response = _move(api, game, step, move)
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["move"]["to"] == list(move[2:])
        assert (body["game_over"], body["events"], body["noise"], body["noise_rounds"]) == (
            False, None, [], 0)
        # The logical outcome is hidden until the board is clean.
        assert body["game"]["outcome"] is None
        state = api.get(games_url(game)).json()
        assert (state["outcome"], state["events"], state["seed"]) == (None, None, None)
        assert "charge" not in str(state)
    last = _move(api, game, len(moves) - 1, moves[-1])
    assert last.status_code == 201
    body = last.json()
    assert body["game_over"] is True
    assert body["score"] == len(moves)
    assert [event["kind"] for event in body["events"]] == ["move", "logical_outcome"]
    outcome = {"charge": engine.charge, "failed": engine.failed}
    assert body["events"][-1] | {"seq": 0} == {"seq": 0, "kind": "logical_outcome",
                                               "t": len(moves), "round": 1, **outcome}
    state = body["game"]
    game.refresh_from_db()
    outcome |= {"class_odds": game.class_odds, "best_class_odds": game.best_class_odds}
    assert game.class_odds is not None
    shown = {name: state["outcome"][name] for name in outcome}
    assert (state["status"], shown, state["game_over"]) == ("finished", outcome, True)
    assert f"{game.class_odds:.2f}." in state["outcome"]["odds_text"]
    full = api.get(games_url(game)).json()
    assert {name: full["outcome"][name] for name in outcome} == outcome
    assert full["seed"] == "5001"
    assert [event["kind"] for event in full["events"]][-1] == "logical_outcome"
    sides = [event for event in full["events"] if event["kind"] == "noise"
             and (event["col1"] == -1 or event["col2"] == 5)]
    assert all(event["case"] == "side" for event in sides)
    assert len(full["replay"]) == len(moves) + 1
    history = api.get(games_url(game, "history/"), {"step": 1}).json()
    assert history["step"] == 1
    again = _move(api, game, len(moves), moves[-1])
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "game_over"
    retried = _move(api, game, len(moves) - 1, moves[-1])
    assert retried.status_code == 200
    assert retried.json()["replayed"] is True


@pytest.mark.parametrize(("move_of", "code"), [
    (lambda r, c: (r, c, -1 if r == 0 else 5, c), "closed_side"),
    (lambda r, c: (r, c, r, c + 2), "not_adjacent"),
    (lambda r, c: (r, c, r, -2), "off_grid"),
    (lambda r, c: (r, c, r, 7), "off_grid"),
])
def test_an_illegal_planar_move_is_refused_with_its_code_and_changes_nothing(
    api, player, move_of, code
):
    game = PlanarGameFactory.create(player=player, seed=5001)
    values = game.state["values"]
    edge = [i for i, v in enumerate(values) if v != "0" and i // 5 in (0, 4)]
    cell = edge[0] if code == "closed_side" else next(i for i, v in enumerate(values) if v != "0")
    before = api.get(games_url(game)).json()
    events = Event.objects.filter(game=game).count()
    response = _move(api, game, 0, move_of(*divmod(cell, 5)))
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["current_step"]) == (code, 0)
    assert error["code"] in ERROR_CODES
    assert error["message"]
    assert api.get(games_url(game)).json() == before
    assert Event.objects.filter(game=game).count() == events


def test_an_original_game_still_refuses_a_move_off_the_grid(api, game):
    values = game.state["values"]
    row, col = next(divmod(i, 7) for i, v in enumerate(values) if v != "0")
    response = _move(api, game, 0, (row, col, row, -1 if col == 0 else 7))
    assert response.status_code == 422
    assert response.json()["error"]["code"] in ("off_grid", "not_adjacent")


def test_a_finished_planar_game_can_be_shared_with_its_outcome(api, player):
    game = PlanarGameFactory.create(player=player, seed=5000)
    for step, move in enumerate(decoder_moves(game)):
        assert _move(api, game, step, move).status_code == 201
    shared = api.post(games_url(game, "share/"))
    assert shared.status_code == 200
    assert "planar Z2 code" in shared.json()["text"]
    public = APIClient().get(f"/api/v1/shared/{shared.json()['share_token']}/").json()
    assert public["status"] == "finished"
    assert (public["outcome"]["charge"], public["outcome"]["failed"]) == (0, False)
    assert public["rules"]["family"] == "planar"
    page = APIClient().get(f"/shared/{shared.json()['share_token']}/")
    assert page.status_code == 200
    assert "no logical error" in page.content.decode()
    image = APIClient().get(shared.json()["image_url"])
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"


def test_my_games_lists_a_planar_game_without_a_percentile(api, player):
    PlanarGameFactory.create(player=player, seed=5000)
    body = api.get("/api/v1/me/games/").json()
    assert [(g["variant"], g["percentile"]) for g in body["games"]] == [("planar", None)]
