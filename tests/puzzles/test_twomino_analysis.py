"""The analysis of a 2mino attempt, and its admin page with the replay."""

from __future__ import annotations

import json
import re

import pytest

from puzzles.engines import twomino, twomino_play
from puzzles.selectors import attempt_twomino_analysis
from puzzles.services import attempt_act, attempt_start
from tests.factories import PlayerFactory


def payload(b: twomino.Bar) -> dict:
    return {"a": list(b[0]), "b": list(b[1])}


def play_tiling(player, *, seed: int, size: int = 4, wrong_first: bool = True):
    attempt = attempt_start(player=player, kind="2mino", size=size, seed=seed)
    puzzle = twomino_play.load({**attempt.puzzle.definition, "solution": attempt.puzzle.solution})
    inside = set(puzzle.solution)
    draw = [b for b in puzzle.board.inner_bars() if b not in inside and b not in puzzle.locked]
    moves = []
    if wrong_first:
        # Cut a domino of the solution and put the bar back: a pair may be formed and broken.
        moves += [puzzle.solution[0], puzzle.solution[0]]
    moves += draw
    for b in moves:
        attempt = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="toggle",
            payload=payload(b),
        ).attempt
    return attempt, puzzle, draw


def test_analysis_of_a_solved_attempt(player):
    attempt, puzzle, draw = play_tiling(player, seed=3)
    assert attempt.status == "solved"
    result = attempt_twomino_analysis(attempt=attempt)
    n = puzzle.size * (puzzle.size + 1) // 2
    assert result["solved"] is True
    assert result["toggles"] == len(draw) + 2
    assert sorted(result["order"]) == sorted(f"{x}-{y}" for x, y in twomino.all_pairs(puzzle.size))
    orders = sorted(p["order"] for p in result["pairs"])
    assert orders == list(range(1, n + 1))
    for p in result["pairs"]:
        assert p["formed"] >= 1
        assert p["found_ms"] >= p["first_formed_ms"] >= 0
        assert p["places"] >= 1
    # The order is by the time each pair was formed for the last time.
    by_order = sorted(result["pairs"], key=lambda p: p["order"])
    assert [p["found_ms"] for p in by_order] == sorted(p["found_ms"] for p in by_order)
    assert 0 < result["doubles_mean_rank"] <= 1
    assert result["forced"]["solver_steps"] == len(twomino_play.forced_trace(puzzle))
    assert result["forced"]["found_by_player"] == result["forced"]["solver_steps"]
    assert result["wrong"]["formed_then_broken"] == sum(p["broken"] for p in result["pairs"])


def test_a_formed_then_broken_pair_is_counted():
    puzzle = twomino.generate(size=4, seed=3)
    d = puzzle.solution[0]
    outer = [b for b in puzzle.board.outer_bars(*d) if b not in puzzle.locked]
    actions = [("toggle", payload(b), 100 * i) for i, b in enumerate(outer)]
    actions.append(("toggle", payload(d), 5000))  # cut it in two: broken
    result = twomino_play.analyse(puzzle, actions)
    pair = puzzle.pair_at(*d)
    row = next(p for p in result["pairs"] if tuple(p["pair"]) == pair)
    assert row["formed"] >= 1
    assert row["broken"] >= 1
    assert row["order"] is None
    assert result["wrong"]["formed_then_broken"] >= 1
    assert result["solved"] is False


@pytest.mark.parametrize(
    ("xs", "ys", "expected"),
    [
        ([1, 2, 3, 4], [10, 20, 30, 40], 1.0),
        ([1, 2, 3, 4], [4, 3, 2, 1], -1.0),
        ([1, 1, 1], [1, 2, 3], None),
    ],
)
def test_spearman(xs, ys, expected):
    assert twomino_play.spearman(xs, ys) == expected


def test_admin_page_replays_a_2mino_attempt(admin_client, player):
    attempt, puzzle, draw = play_tiling(player, seed=5, wrong_first=False)
    response = admin_client.get(f"/admin/puzzles/attempt/{attempt.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    found = re.search(r'<script id="pz-replay-data" type="application/json">(.*?)</script>', html)
    assert found is not None
    replay = json.loads(found.group(1))
    assert len(replay["states"]) == len(draw) + 1
    assert replay["states"][0] == {"bars": [], "formed": []}
    assert len(replay["states"][-1]["formed"]) == len(puzzle.solution)
    assert "admin-replay-2mino.js" in html
    assert "2mino analysis" in html


def test_statistics_page_has_the_2mino_panel(client, player):
    from puzzles.stats import twomino_search

    play_tiling(player, seed=3)
    play_tiling(PlayerFactory(consent_version=None), seed=4)
    (row,) = twomino_search()
    assert row.size == 4
    assert row.attempts == 1
    assert row.doubles_rank is not None
    assert 0 < row.doubles_rank <= 1
    assert row.wrong_per_attempt >= 0
    page = client.get("/puzzles/stats/")
    assert page.status_code == 200
    assert "2mino: how players search" in page.content.decode()
