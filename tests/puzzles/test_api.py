"""The puzzles API under /api/v1/puzzles/: same identity and error body as the play API."""

from __future__ import annotations

from rest_framework.test import APIClient

from puzzles.models import Action

URL = "/api/v1/puzzles/"


def start(api: APIClient, **body) -> dict:
    response = api.post(URL, {"kind": "kenken", "size": 4, "seed": 9, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def act(api: APIClient, attempt: dict, step: int, kind: str, payload: dict | None = None):
    body = {"step": step, "kind": kind, "payload": payload or {}}
    return api.post(f"{URL}{attempt['id']}/actions/", body, format="json")


def test_start_hides_seed_and_solution_until_the_end(api):
    attempt = start(api)
    assert attempt["status"] == "active"
    assert attempt["step"] == 0
    assert "cages" in attempt["puzzle"]
    assert "solution" not in attempt
    assert "seed" not in attempt
    ended = api.post(f"{URL}{attempt['id']}/finish/").json()
    assert ended["status"] == "abandoned"
    assert ended["seed"] == 9
    assert len(ended["solution"]) == 4


def test_solving_through_the_api(api):
    attempt = start(api)
    detail = api.get(f"{URL}{attempt['id']}/").json()
    # The solution comes from the command-line generator for the same seed.
    from puzzles.engines import kenken

    solution = kenken.generate(size=4, seed=9).solution
    step = 0
    for r in range(4):
        for c in range(4):
            response = act(api, detail, step, "entry", {"cell": [r, c], "value": solution[r][c]})
            assert response.status_code == 201, response.json()
            step += 1
    body = response.json()
    assert body["attempt"]["status"] == "solved"
    assert body["attempt"]["solve_seconds"] is not None
    assert len(body["attempt"]["actions"]) == 16
    assert {a["technique"] for a in body["attempt"]["actions"]} - {""}


def test_retry_returns_200_and_stale_step_409(api):
    attempt = start(api)
    first = act(api, attempt, 0, "hint")
    assert first.status_code == 201
    again = act(api, attempt, 0, "hint")
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    stale = act(api, attempt, 0, "check")
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_step"
    assert stale.json()["error"]["current_step"] == 1


def test_errors_have_the_api_body(api):
    attempt = start(api)
    bad = act(api, attempt, 0, "entry", {"cell": [0, 0], "value": 0})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_request"
    illegal = act(api, attempt, 0, "undo")
    assert illegal.status_code == 422
    assert illegal.json()["error"]["code"] == "illegal_action"
    unknown_field = api.post(URL, {"kind": "kenken", "colour": "red"}, format="json")
    assert unknown_field.status_code == 400
    assert "colour" in unknown_field.json()["error"]["fields"]
    as_string = act(api, attempt, "0", "hint")
    assert as_string.status_code == 400
    assert not Action.objects.exists()


def test_other_players_and_anonymous_callers_see_nothing(api, db):
    attempt = start(api)
    anonymous = APIClient().get(f"{URL}{attempt['id']}/")
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "not_authenticated"
    from tests.factories import PlayerFactory

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {PlayerFactory().token}")
    assert other.get(f"{URL}{attempt['id']}/").status_code == 404


def test_list_of_my_attempts(api):
    start(api)
    start(api, kind="futoshiki", size=4)
    listed = api.get(URL).json()
    assert listed["count"] == 2
    assert {a["kind"] for a in listed["results"]} == {"kenken", "futoshiki"}
