"""Several actions in one request: each recorded as its own step, all or none."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from puzzles.engines import kenken
from puzzles.models import Action, Attempt
from puzzles.services import MAX_BATCH_ACTIONS

URL = "/api/v1/puzzles/"


def start(api: APIClient, size: int = 4) -> dict[str, Any]:
    response = api.post(URL, {"kind": "kenken", "size": size, "seed": 9}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def batch(api: APIClient, attempt: dict[str, Any], step: int, actions: list[dict[str, Any]]):
    body = {"step": step, "actions": actions}
    return api.post(f"{URL}{attempt['id']}/actions/batch/", body, format="json")


def candidate(r: int, c: int, v: int) -> dict[str, Any]:
    return {"kind": "candidate", "payload": {"cell": [r, c], "value": v}}


def every_candidate(size: int) -> list[dict[str, Any]]:
    return [
        candidate(r, c, v) for r in range(size) for c in range(size) for v in range(1, size + 1)
    ]


def test_a_batch_records_each_action_as_its_own_step_like_single_actions(api):
    attempt = start(api)
    sent = every_candidate(4)
    response = batch(api, attempt, 0, sent)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["replayed"] is False
    assert [a["step"] for a in body["actions"]] == list(range(1, 65))
    assert body["attempt"]["step"] == 64
    assert body["attempt"]["state"]["marks"] == [[15] * 4 for _ in range(4)]
    rows = list(Action.objects.filter(attempt_id=attempt["id"]).order_by("step"))
    assert [(a.kind, a.payload, a.row, a.col, a.value) for a in rows] == [
        ("candidate", s["payload"], *s["payload"]["cell"], s["payload"]["value"]) for s in sent
    ]
    # The same actions one by one give the same state and the same records.
    other = start(api)
    for step, action in enumerate(sent):
        api.post(f"{URL}{other['id']}/actions/", {"step": step, **action}, format="json")
    one_by_one = api.get(f"{URL}{other['id']}/").json()
    assert one_by_one["state"] == body["attempt"]["state"]
    singles = Action.objects.filter(attempt_id=other["id"]).order_by("step")
    assert [(a.kind, a.payload, a.result) for a in singles] == [
        (a.kind, a.payload, a.result) for a in rows
    ]


def test_a_resent_batch_answers_what_was_recorded(api):
    attempt = start(api)
    sent = [candidate(0, 0, 1), candidate(0, 0, 2)]
    assert batch(api, attempt, 0, sent).status_code == 201
    again = batch(api, attempt, 0, sent)
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert [a["step"] for a in again.json()["actions"]] == [1, 2]
    assert Action.objects.filter(attempt_id=attempt["id"]).count() == 2
    # A different batch at the same step is stale, not a replay.
    other = batch(api, attempt, 0, [candidate(0, 0, 1), candidate(0, 0, 3)])
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "stale_step"
    longer = batch(api, attempt, 0, [*sent, candidate(0, 0, 3)])
    assert longer.status_code == 409


def test_one_refused_action_refuses_the_whole_batch_and_names_it(api):
    attempt = start(api)
    sent = [candidate(0, 0, 1), candidate(0, 0, 9), candidate(0, 0, 2)]
    response = batch(api, attempt, 0, sent)
    assert 400 <= response.status_code < 500
    assert "action 1" in response.json()["error"]["message"]
    assert not Action.objects.filter(attempt_id=attempt["id"]).exists()
    stored = Attempt.objects.get(pk=attempt["id"])
    assert stored.steps == 0
    assert stored.state["marks"] == [[0] * 4 for _ in range(4)]


@pytest.mark.parametrize(
    "body",
    [
        {"step": 0, "actions": []},
        {"step": 0, "actions": [candidate(0, 0, 1)] * (MAX_BATCH_ACTIONS + 1)},
        {"step": 0, "actions": "all"},
        {"step": 0, "actions": [{"kind": "candidate", "payload": {"cell": [0, 0]}, "x": 1}]},
        {"actions": [candidate(0, 0, 1)]},
        {"step": -1, "actions": [candidate(0, 0, 1)]},
    ],
)
def test_malformed_batches_are_refused_before_anything_is_applied(api, body):
    attempt = start(api)
    response = api.post(f"{URL}{attempt['id']}/actions/batch/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Action.objects.filter(attempt_id=attempt["id"]).exists()


def test_actions_after_the_one_that_solves_the_puzzle_are_not_applied(api):
    attempt = start(api)
    solution = kenken.generate(size=4, seed=9).solution
    entries = [
        {"kind": "entry", "payload": {"cell": [r, c], "value": solution[r][c]}}
        for r in range(4)
        for c in range(4)
    ]
    response = batch(api, attempt, 0, [*entries, candidate(0, 0, 1)])
    assert response.status_code == 201, response.json()
    body = response.json()
    assert len(body["actions"]) == 16
    assert body["attempt"]["status"] == "solved"
    assert Attempt.objects.get(pk=attempt["id"]).entries_count == 16
    # The same batch again is the recorded one, not an error.
    again = batch(api, attempt, 0, [*entries, candidate(0, 0, 1)])
    assert again.status_code == 200
    assert len(again.json()["actions"]) == 16
    # Nothing more can be sent to a solved attempt.
    assert batch(api, attempt, 16, [candidate(0, 0, 1)]).status_code == 409


def test_another_players_attempt_is_not_found(api, db):
    from tests.factories import PlayerFactory, api_token

    attempt = start(api)
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {api_token(PlayerFactory.create())}")
    assert batch(stranger, attempt, 0, [candidate(0, 0, 1)]).status_code == 404


def test_a_batch_counts_its_actions_against_the_player_s_action_rate(api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "actions": "70/hour",
        },
    }
    attempt = start(api)
    assert batch(api, attempt, 0, every_candidate(4)).status_code == 201  # 64 actions
    over = batch(api, attempt, 64, every_candidate(4)[:10])  # 74 > 70
    assert over.status_code == 429
    assert over.json()["error"]["code"] == "throttled"
    assert Attempt.objects.get(pk=attempt["id"]).steps == 64
