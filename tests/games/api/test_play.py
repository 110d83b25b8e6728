"""Playing through the API: players, games, moves, retries, history, notes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.engine import Game as EngineGame
from games.engine import RuleSet
from games.models import Event, Game, Player
from tests.factories import GameFactory, next_legal_move, play
from tests.games.api.conftest import games_url, token_client

pytestmark = pytest.mark.django_db


def _move_body(game: Game, step: int | None = None, move=None, **extra):
    move = move or next_legal_move(game)
    return {
        "step": game.moves_count if step is None else step,
        "from": [move[0], move[1]],
        "to": [move[2], move[3]],
        **extra,
    }


# -- players -----------------------------------------------------------------


def test_it_creates_a_player_and_shows_the_token_once():
    client = APIClient()
    response = client.post("/api/v1/players/", {"consent_version": "2026-11-v1"}, format="json")
    assert response.status_code == 201
    body = response.json()
    player = Player.objects.get(pk=body["player_id"])
    assert body["token"].startswith(body["token_prefix"])
    assert body["token"] != player.token_hash
    assert player.consent_version == "2026-11-v1"
    listed = token_client_for(body["token"]).get("/api/v1/games/")
    assert listed.status_code == 200


def token_client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_creating_a_player_needs_no_body():
    response = APIClient().post("/api/v1/players/")
    assert response.status_code == 201
    assert Player.objects.get().consent_version is None


def test_creating_a_player_opens_a_session_for_the_web_page():
    client = APIClient()
    body = client.post("/api/v1/players/", {"consent_version": None}, format="json").json()
    response = client.get("/api/v1/games/")  # no token: the session says who this is
    assert response.status_code == 200
    assert client.cookies["csrftoken"].value
    created = client.post("/api/v1/games/", {}, format="json")  # the test client skips CSRF
    assert created.status_code == 201
    assert Game.objects.get().player_id.hex == body["player_id"].replace("-", "")
    assert Game.objects.get().source == Game.Source.WEB


# -- starting and reading games ----------------------------------------------


def test_it_starts_a_game_with_the_original_rules_by_default(api, player):
    response = api.post(games_url(), {}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["rules"] == {
        "size": 7,
        "variant": "z10",
        "noise_budget": 6.0,
        "moves_per_round": 5,
        "merge_label": "destination",
        "family": None,
        "modulus": None,
        "error_rate": None,
        "key": RuleSet().key,
    }
    assert body["status"] == "active"
    assert body["mode"] == "normal"
    assert body["step"] == 0
    assert len(body["board"]["rows"]) == 7
    assert all(len(r) == 7 for r in body["board"]["rows"])
    game = Game.objects.get(pk=body["id"])
    assert game.source == Game.Source.API
    assert game.player == player
    assert game.client_info["auth"] == "token"


def test_it_starts_a_game_of_another_size_and_variant(api):
    body = api.post(games_url(), {"size": 9, "variant": "phi_lambda"}, format="json").json()
    assert body["rules"]["size"] == 9
    assert body["rules"]["variant"] == "phi_lambda"
    assert len(body["board"]["rows"]) == 9


def test_a_bot_name_is_kept_as_declared_and_the_game_stays_the_players(api):
    body = api.post(games_url(), {"bot_name": "greedy", "bot_version": "3"}, format="json").json()
    game = Game.objects.get(pk=body["id"])
    assert body["source"] == "api"
    assert (game.source, game.bot_name, game.bot_version) == ("api", "", "")
    assert (game.client_info["declared_bot_name"], game.client_info["declared_bot_version"]) == (
        "greedy", "3"
    )


def test_an_active_normal_game_shows_neither_groups_nor_seed(api, game):
    body = api.get(games_url(game)).json()
    assert body["seed"] is None
    assert body["board"]["groups"] is None
    assert body["events"] is None
    assert body["replay"] is None
    text = str(body)
    assert "group" not in text.replace("'groups': None", "")
    assert str(game.seed) not in text


def test_practice_mode_shows_groups_but_not_the_seed(api, player):
    game = GameFactory(player=player, mode=Game.Mode.PRACTICE)
    body = api.get(games_url(game)).json()
    assert body["seed"] is None
    labels = [label for row in body["board"]["groups"] for label in row]
    assert labels == list(game.state["labels"])


def test_an_active_phi_lambda_game_shows_only_phi_and_lambda(api, player):
    game = GameFactory(player=player, variant="phi_lambda")
    rows = api.get(games_url(game)).json()["board"]["rows"]
    shown = set("".join(rows))
    assert shown <= {"0", "P", "L"}
    assert "P" in shown | {"L"}
    for char, value in zip("".join(rows), game.state["values"], strict=True):
        assert char == {"0": "0", "5": "L"}.get(value, "P")


def test_it_lists_only_my_games_newest_first_and_paginated(api, player):
    mine = [GameFactory(player=player) for _ in range(3)]
    GameFactory()  # someone else's
    body = api.get(games_url(), {"page_size": 2}).json()
    assert body["count"] == 3
    assert len(body["results"]) == 2
    assert body["next"]
    assert [g["id"] for g in body["results"]] == [str(g.pk) for g in mine[::-1][:2]]
    assert all(g["events"] is None for g in body["results"])


# -- moves -------------------------------------------------------------------


def test_a_move_returns_the_new_state_and_score(api, game):
    move = next_legal_move(game)
    response = api.post(games_url(game, "moves/"), _move_body(game, move=move), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["step"] == 1
    assert body["replayed"] is False
    assert body["game_over"] is False
    assert body["move"]["from"] == [move[0], move[1]]
    assert body["move"]["to"] == [move[2], move[3]]
    engine = EngineGame(RuleSet(), game.seed)
    engine.move(*move)
    assert "".join(body["board"]["rows"]) == "".join(map(str, engine.values))
    assert body["score"] == engine.t
    assert body["game"]["step"] == 1
    assert body["board"]["groups"] is None
    assert body["events"] is None


def test_the_noise_after_a_move_is_shown_only_as_changed_cells(api, player):
    # Seed 1000 survives its first five moves (the first legal move each time), so the
    # fifth move is followed by a noise round on a board still in play.
    game = play(GameFactory(player=player, seed=1000), 4)
    before = EngineGame.from_state(game.state)
    move = next_legal_move(game)
    body = api.post(games_url(game, "moves/"), _move_body(game, move=move), format="json").json()
    assert not body["game_over"], "seed 1000 must not lose on the fifth move"
    assert body["noise_rounds"] == 1
    after_move = list(before.values)
    source, target = move[0] * 7 + move[1], move[2] * 7 + move[3]
    after_move[target] = (after_move[target] + after_move[source]) % 10
    after_move[source] = 0
    before.move(*move)
    assert body["noise"], "a noise round changes at least one cell"
    for change in body["noise"]:
        assert set(change) == {"row", "col", "before", "after"}
        assert int(change["before"]) == after_move[change["row"] * 7 + change["col"]]
        assert int(change["after"]) == before.values[change["row"] * 7 + change["col"]]
        assert change["before"] != change["after"]
    assert "group" not in str(body["noise"])
    assert body["events"] is None


def test_a_practice_game_shows_the_events_of_a_move(api, player):
    game = GameFactory(player=player, mode=Game.Mode.PRACTICE)
    body = api.post(games_url(game, "moves/"), _move_body(game), format="json").json()
    assert body["events"][0]["kind"] == "move"
    assert "from_group" in body["events"][0]
    assert body["board"]["groups"] is not None


def test_a_retried_move_returns_the_recorded_result(api, game):
    body = _move_body(game, client_time="2026-11-22T10:00:00Z", note="hm")
    first = api.post(games_url(game, "moves/"), body, format="json")
    again = api.post(games_url(game, "moves/"), body, format="json")
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["board"] == first.json()["board"]
    assert Event.objects.filter(game=game, kind="move").count() == 1
    move = Event.objects.get(game=game, kind="move")
    assert move.note == "hm"
    assert move.client_time.isoformat() == "2026-11-22T10:00:00+00:00"


def test_a_stale_step_is_a_conflict_with_the_current_step(api, game):
    response = api.post(games_url(game, "moves/"), _move_body(game, step=5), format="json")
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "stale_step",
        "message": "The game is at step 0, not 5.",
        "current_step": 0,
    }


@pytest.mark.parametrize(
    ("move", "code"),
    [((0, 0, 0, -1), "off_grid"), ((6, 6, 6, 7), "off_grid"), ((3, 3, 5, 3), "not_adjacent")],
)
def test_it_rejects_an_illegal_move_with_the_engines_code(api, game, move, code):
    response = api.post(games_url(game, "moves/"), _move_body(game, move=move), format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == code


def test_it_rejects_a_move_off_the_grid(api, game):
    body = {"step": 0, "from": [0, 0], "to": [100, 0]}
    response = api.post(games_url(game, "moves/"), body, format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "off_grid"


def test_it_rejects_a_move_from_an_empty_cell(api, game):
    engine = EngineGame.from_state(game.state)
    row, col = next((r, c) for r in range(7) for c in range(6) if engine.value(r, c) == 0)
    body = {"step": 0, "from": [row, col], "to": [row, col + 1]}
    response = api.post(games_url(game, "moves/"), body, format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "empty_source"


def test_a_finished_game_refuses_moves_and_reveals_everything(api, player):
    game = play(GameFactory(player=player, size=5))
    response = api.post(
        games_url(game, "moves/"), _move_body(game, move=(0, 0, 0, 1)), format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_over"
    body = api.get(games_url(game)).json()
    assert body["game_over"]
    assert body["status"] == "lost"
    assert body["seed"] == str(game.seed)
    assert body["board"]["groups"] is not None
    assert body["loss"]["t"] == game.score
    assert len(body["events"]) == game.next_seq
    assert [e["seq"] for e in body["events"]] == list(range(game.next_seq))
    assert [b["step"] for b in body["replay"]] == list(range(game.moves_count + 1))


def test_the_move_that_loses_reveals_the_game(api, player):
    game = GameFactory(player=player, size=5)
    game = play(game)
    last = Event.objects.filter(game=game, kind="move").order_by("-index").first()
    move = (last.from_row, last.from_col, last.to_row, last.to_col)
    body = api.post(
        games_url(game, "moves/"), _move_body(game, step=game.moves_count - 1, move=move),
        format="json",
    ).json()
    assert body["replayed"]
    assert body["game_over"]
    assert body["events"][-1]["kind"] == "loss"
    assert body["game"]["seed"] == str(game.seed)


# -- abandon, history, notes -------------------------------------------------


def test_abandoning_a_game_ends_it(api, game):
    response = api.post(games_url(game, "abandon/"))
    assert response.status_code == 200
    assert response.json()["status"] == "abandoned"
    assert response.json()["seed"]
    assert api.post(games_url(game, "abandon/")).status_code == 200


def test_history_goes_back_in_time_without_showing_groups(api, player):
    game = play(GameFactory(player=player), 3)
    response = api.get(games_url(game, "history/"), {"step": 1})
    assert response.status_code == 200
    body = response.json()
    assert body["step"] == 1
    assert body["groups"] is None
    engine = EngineGame(RuleSet(), game.seed)
    moves = Event.objects.filter(game=game, kind="move").order_by("index")
    first = moves.first()
    engine.move(first.from_row, first.from_col, first.to_row, first.to_col)
    assert "".join(body["rows"]) == "".join(map(str, engine.values))
    assert api.get(games_url(game, "history/")).json()["step"] == 3


@pytest.mark.parametrize("step", ["4", "-1", "x", "1.5", "99999999999999999999"])
def test_history_refuses_a_step_that_does_not_exist(api, player, step):
    game = play(GameFactory(player=player), 3)
    response = api.get(games_url(game, "history/"), {"step": step})
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"invalid_step", "invalid_request"}


def test_a_note_can_be_added_to_a_past_move(api, player):
    game = play(GameFactory(player=player), 2)
    response = api.post(games_url(game, "moves/1/note/"), {"note": "too hasty"}, format="json")
    assert response.status_code == 200
    assert response.json() == {"move_index": 1, "note": "too hasty"}
    assert Event.objects.get(game=game, kind="move", index=1).note == "too hasty"
    missing = api.post(games_url(game, "moves/9/note/"), {"note": "x"}, format="json")
    assert missing.status_code == 404
    huge = api.post(
        games_url(game, "moves/99999999999999999999/note/"), {"note": "x"}, format="json"
    )
    assert huge.status_code == 404


def test_someone_elses_game_is_not_found_anywhere(player):
    other = GameFactory()
    api = token_client(player)
    for method, tail, body in [
        ("get", "", None),
        ("post", "moves/", {"step": 0, "from": [0, 0], "to": [0, 1]}),
        ("post", "abandon/", None),
        ("get", "history/", None),
        ("post", "moves/1/note/", {"note": "x"}),
    ]:
        response = getattr(api, method)(games_url(other, tail), body, format="json")
        assert response.status_code == 404, tail
        assert response.json()["error"]["code"] == "not_found"
    other.refresh_from_db()
    assert other.status == "active"
    assert other.moves_count == 0
