"""2mino on the puzzles API: toggles recorded with the pairs they form, any tiling wins."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from puzzles.engines import twomino
from puzzles.models import Action, Attempt

URL = "/api/v1/puzzles/"
SEED = 0  # a 4-symbol board with several tilings (see test_the_board_has_several_tilings)


def start(api: APIClient, **body: Any) -> dict:
    response = api.post(URL, {"kind": "2mino", "size": 4, "seed": SEED, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def act(api: APIClient, attempt: dict, step: int, kind: str, payload: dict | None = None):
    body = {"step": step, "kind": kind, "payload": payload or {}}
    return api.post(f"{URL}{attempt['id']}/actions/", body, format="json")


def board_of(attempt: dict) -> twomino.Puzzle:
    return twomino.puzzle_from_json(attempt["puzzle"])


def bars_for(puzzle: twomino.Puzzle, tiling: tuple[twomino.Bar, ...]) -> list[twomino.Bar]:
    """The bars a player draws to cut the board into ``tiling`` (locked ones are already on)."""
    inside = set(tiling)
    return [b for b in puzzle.board.inner_bars() if b not in inside and b not in puzzle.locked]


def toggle_payload(b: twomino.Bar) -> dict:
    return {"a": list(b[0]), "b": list(b[1])}


def test_the_board_has_several_tilings():
    puzzle = twomino.generate(size=4, seed=SEED)
    assert twomino.count_solutions(puzzle, limit=3) >= 2


def test_start_shows_the_board_but_not_the_solution(api):
    attempt = start(api)
    assert attempt["kind"] == "2mino"
    assert len(attempt["puzzle"]["grid"]) == 5
    assert attempt["puzzle"]["locked_bars"]
    assert "solution" not in attempt["puzzle"]
    assert "solution" not in attempt
    assert attempt["state"]["bars"] == []
    assert set(attempt["state"]["counts"].values()) == {0}


@pytest.mark.parametrize("which", [0, 1])
def test_any_valid_tiling_is_accepted_as_solved(api, which):
    attempt = start(api)
    puzzle = board_of(attempt)
    tilings = list(twomino.solve(4, puzzle.grid, puzzle.locked, limit=2))
    assert len(tilings) == 2
    assert tilings[0] != tilings[1]
    step = 0
    for b in bars_for(puzzle, tilings[which]):
        response = act(api, attempt, step, "toggle", toggle_payload(b))
        assert response.status_code == 201, response.json()
        step += 1
    body = response.json()
    assert body["attempt"]["status"] == "solved"
    assert body["action"]["result"]["solved"] is True
    assert set(body["attempt"]["state"]["counts"].values()) == {1}
    stored = Attempt.objects.get(pk=attempt["id"])
    assert stored.entries_count == step


def test_toggles_are_recorded_in_order_with_the_pairs_formed_and_broken(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    tiling = next(twomino.solve(4, puzzle.grid, puzzle.locked, limit=1))
    bars = bars_for(puzzle, tiling)
    step = 0
    for b in bars:
        assert act(api, attempt, step, "toggle", toggle_payload(b)).status_code == 201
        step += 1
    # Undo the last bar: whatever it formed is broken again.
    last = bars[-1]
    off = act(api, attempt, step, "toggle", toggle_payload(last))
    assert off.status_code == 409  # the board was solved by the last bar: the attempt has ended
    actions = list(Action.objects.filter(attempt_id=attempt["id"]).order_by("step"))
    assert [a.step for a in actions] == list(range(1, len(bars) + 1))
    formed = [d for a in actions for d in a.result["formed"]]
    assert sorted((tuple(d["a"]), tuple(d["b"])) for d in formed) == sorted(tiling)
    for d in formed:
        assert tuple(d["pair"]) == puzzle.pair_at(tuple(d["a"]), tuple(d["b"]))
    assert all(a.elapsed_ms >= 0 for a in actions)


def test_breaking_a_pair_is_recorded(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    tiling = next(twomino.solve(4, puzzle.grid, puzzle.locked, limit=1))
    bars = bars_for(puzzle, tiling)
    step = 0
    for b in bars[:-1]:
        assert act(api, attempt, step, "toggle", toggle_payload(b)).status_code == 201
        step += 1
    state = Attempt.objects.get(pk=attempt["id"]).state
    # The board of SEED forms pairs before its last bar is drawn: the case under test.
    assert state["formed"], "a pair must be formed before the last bar on this board"
    first = state["formed"][0]
    inner = [x for x in puzzle.board.outer_bars((first[0], first[1]), (first[2], first[3]))]
    victim = next(b for b in inner if b not in puzzle.locked)
    response = act(api, attempt, step, "toggle", toggle_payload(victim))
    assert response.status_code == 201
    broken = response.json()["action"]["result"]["broken"]
    assert {
        "a": first[:2],
        "b": first[2:],
        "pair": list(puzzle.pair_at((first[0], first[1]), (first[2], first[3]))),
    } in broken


def test_an_invalid_tiling_is_refused_naming_the_pair(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    tiling = list(next(twomino.solve(4, puzzle.grid, puzzle.locked, limit=1)))
    # Swap one domino for another placement on the same cells' neighbours: a pair goes missing.
    check = act(api, attempt, 0, "check", {"dominoes": [toggle_payload(d) for d in tiling[1:]]})
    assert check.status_code == 422
    error = check.json()["error"]
    assert error["code"] == "illegal_action"
    lost = puzzle.pair_at(*tiling[0])
    assert f"the pair {lost[0]}-{lost[1]} is missing" in error["message"]
    # The current board (nothing drawn) is refused too, naming a pair.
    empty = act(api, attempt, 0, "check")
    assert empty.status_code == 422
    assert "the pair" in empty.json()["error"]["message"]
    assert not Action.objects.filter(attempt_id=attempt["id"]).exists()
    assert Attempt.objects.get(pk=attempt["id"]).status == "active"


def test_a_doubled_pair_is_named():
    from puzzles.engines import twomino_play

    puzzle = twomino.generate(size=4, seed=SEED)
    options = twomino.placements(4, puzzle.grid, puzzle.locked)
    first, second = next(
        (d1, d2)
        for d1, p1 in options
        for d2, p2 in options
        if p1 == p2 and d1 < d2 and not set(d1) & set(d2)
    )
    state = twomino_play.empty_state(puzzle)
    outer = set(puzzle.board.outer_bars(*first)) | set(puzzle.board.outer_bars(*second))
    for b in sorted(outer - puzzle.locked):
        state = twomino_play.apply_action(puzzle, None, state, "toggle", toggle_payload(b)).state
    x, y = puzzle.pair_at(*first)
    with pytest.raises(twomino_play.ActionRejected, match=f"the pair {x}-{y} is found 2 times"):
        twomino_play.apply_action(puzzle, None, state, "check", {})


def test_check_with_a_valid_tiling_solves(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    tilings = list(twomino.solve(4, puzzle.grid, puzzle.locked, limit=2))
    body = {"dominoes": [toggle_payload(d) for d in tilings[1]]}
    response = act(api, attempt, 0, "check", body)
    assert response.status_code == 201, response.json()
    assert response.json()["attempt"]["status"] == "solved"


def test_hint_reset_and_retries(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    hint = act(api, attempt, 0, "hint")
    assert hint.status_code == 201
    found = hint.json()["action"]["result"]["hint"]
    assert found["kind"] in {"forced", "tiling"}
    d = (tuple(found["a"]), tuple(found["b"]))
    assert tuple(found["pair"]) == puzzle.pair_at(*d)
    # The hinted domino lies in some tiling of the board.
    assert any(d in t for t in twomino.solve(4, puzzle.grid, puzzle.locked | set(), limit=50))
    again = act(api, attempt, 0, "hint")
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    nothing = act(api, attempt, 1, "reset")
    assert nothing.status_code == 422
    free = next(b for b in puzzle.board.inner_bars() if b not in puzzle.locked)
    assert act(api, attempt, 1, "toggle", toggle_payload(free)).status_code == 201
    reset = act(api, attempt, 2, "reset")
    assert reset.status_code == 201
    assert reset.json()["attempt"]["state"]["bars"] == []
    stale = act(api, attempt, 1, "hint")
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_step"
    assert stale.json()["error"]["current_step"] == 3
    kinds = list(
        Action.objects.filter(attempt_id=attempt["id"])
        .order_by("step")
        .values_list("kind", flat=True)
    )
    assert kinds == ["hint", "toggle", "reset"]


def test_a_hint_names_a_wrong_bar_when_no_tiling_agrees():
    from puzzles.engines import twomino_play

    puzzle = twomino.generate(size=4, seed=SEED)
    state = twomino_play.empty_state(puzzle)
    # Cut every domino of every tiling the solver finds: draw all the inner bars.
    for b in puzzle.board.inner_bars():
        if b not in puzzle.locked:
            state = twomino_play.apply_action(
                puzzle, None, state, "toggle", toggle_payload(b)
            ).state
    hint = twomino_play.apply_action(puzzle, None, state, "hint", {}).result["hint"]
    assert hint["kind"] == "wrong_bar"
    assert (tuple(hint["a"]), tuple(hint["b"])) in puzzle.solution


def test_a_locked_bar_is_refused_and_nothing_changes(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    locked = sorted(puzzle.locked)[0]
    response = act(api, attempt, 0, "toggle", toggle_payload(locked))
    assert response.status_code == 422
    assert "locked" in response.json()["error"]["message"]
    stored = Attempt.objects.get(pk=attempt["id"])
    assert stored.steps == 0
    assert stored.state == {"bars": [], "formed": []}


BAD_PAYLOADS = [
    {"a": [0, 0], "b": [2, 0]},  # not neighbours
    {"a": [0, 0], "b": [0, 0]},
    {"a": [-1, 0], "b": [0, 0]},
    {"a": [4, 3], "b": [5, 3]},  # off the board
    {"a": [0, 0]},
    {"a": "0,0", "b": [0, 1]},
    {"a": [0, True], "b": [0, 1]},
    {"a": [0, 0], "b": [0, 1], "c": [1, 1]},
]


@pytest.mark.parametrize("payload", BAD_PAYLOADS)
def test_bad_bars_are_refused_with_400(api, payload):
    attempt = start(api)
    response = act(api, attempt, 0, "toggle", payload)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert Attempt.objects.get(pk=attempt["id"]).steps == 0


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(["toggle", "check", "hint", "reset", "entry", ""]),
    payload=st.dictionaries(
        st.sampled_from(["a", "b", "dominoes", "cell", "value"]),
        st.one_of(
            st.integers(-3, 8),
            st.lists(st.integers(-2, 7), max_size=3),
            st.lists(
                st.dictionaries(
                    st.sampled_from(["a", "b"]), st.lists(st.integers(-1, 6), max_size=3)
                ),
                max_size=3,
            ),
            st.text(max_size=3),
            st.none(),
        ),
        max_size=3,
    ),
    step=st.integers(-1, 3),
)
@pytest.mark.django_db
def test_hostile_actions_give_4xx_and_leave_the_board_alone(player, kind, payload, step):
    from django.core.cache import cache

    cache.clear()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    attempt = start(client)
    before = Attempt.objects.get(pk=attempt["id"])
    response = act(client, attempt, step, kind, payload)
    after = Attempt.objects.get(pk=attempt["id"])
    if response.status_code in (200, 201):
        # Only well-formed actions at the right step pass (a hint, a valid toggle).
        assert step == 0
        assert kind in {"toggle", "hint"}
        assert after.steps == 1
    else:
        assert 400 <= response.status_code < 500
        assert "error" in response.json()
        assert after.steps == before.steps
        assert after.state == before.state
        assert not Action.objects.filter(attempt=after).exists()


def test_replay_and_stored_puzzle(api):
    attempt = start(api)
    puzzle = board_of(attempt)
    free = [b for b in puzzle.board.inner_bars() if b not in puzzle.locked][:3]
    for step, b in enumerate(free):
        act(api, attempt, step, "toggle", toggle_payload(b))
    from puzzles.selectors import attempt_replay

    stored = Attempt.objects.select_related("puzzle").get(pk=attempt["id"])
    states = attempt_replay(attempt=stored)
    assert len(states) == 4
    assert states[-1] == stored.state
    assert stored.puzzle.difficulty == "normal"
    assert stored.puzzle.solver_steps >= 0
    assert (
        twomino.tiling_problem(
            puzzle,
            [((d["a"][0], d["a"][1]), (d["b"][0], d["b"][1])) for d in stored.puzzle.solution],
        )
        is None
    )
