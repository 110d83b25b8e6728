"""A player's puzzle is checked within a processor-time budget, not only a node budget.

Four thousand search nodes of an empty 16 x 16 Adjacent Futoshiki cost about 8 s of
processor time; the deadline is asked at every node, so a check stops soon after its
budget whatever the size. These tests count the deadline's answers instead of
measuring time (bench/request_budgets.py prints the times).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import selectors
from puzzles.engines import futoshiki, puzzle_id
from puzzles.engines.budget import BudgetSpent
from puzzles.engines.grading import grade
from puzzles.engines.solver import count_solutions
from puzzles.models import Attempt, Puzzle

CHECK = "/api/v1/puzzles/check/"
OWN_URL = "/api/v1/puzzles/own/"
FROM_ID = "/api/v1/puzzles/from-id/"
EMPTY_ADJACENT_16 = {"kind": "futoshiki-adjacent", "size": 16}


class PassesAfter:
    """A deadline that passes once it has been asked ``asks`` times."""

    def __init__(self, asks: int) -> None:
        self.asks_left = asks
        self.asked = 0

    def passed(self) -> bool:
        self.asked += 1
        self.asks_left -= 1
        return self.asks_left < 0


def install_deadline(monkeypatch: pytest.MonkeyPatch, asks: int) -> list[PassesAfter]:
    """Make every check of a player's puzzle get a deadline passing after ``asks`` asks."""
    made: list[PassesAfter] = []

    class FakeDeadline:
        @staticmethod
        def after(**_: Any) -> PassesAfter:
            made.append(PassesAfter(asks))
            return made[-1]

    monkeypatch.setattr(selectors, "Deadline", FakeDeadline)
    return made


def test_the_count_asks_the_deadline_at_every_node_and_stops_once_it_has_passed() -> None:
    puzzle = selectors.own_puzzle_load(definition=EMPTY_ADJACENT_16)
    deadline = PassesAfter(5)
    counted = count_solutions(puzzle, limit=2, max_nodes=4_000, deadline=deadline)
    assert not counted.complete
    # Five nodes searched, the sixth ask said stop: nowhere near the 4,000 nodes.
    assert deadline.asked == 6


@settings(max_examples=40, deadline=None)
@given(asks=st.integers(min_value=0, max_value=60))
def test_a_count_cut_short_by_its_deadline_never_claims_more_than_the_full_count(
    asks: int,
) -> None:
    puzzle = futoshiki.from_dict({"kind": "futoshiki", "size": 4})
    full = count_solutions(puzzle, limit=3)
    cut = count_solutions(puzzle, limit=3, deadline=PassesAfter(asks))
    assert cut.count <= full.count
    if cut.complete:
        assert (cut.count, cut.solutions) == (full.count, full.solutions)


def test_grading_stops_with_budget_spent_once_its_deadline_has_passed() -> None:
    generated = futoshiki.generate(size=6, seed=3)
    with pytest.raises(BudgetSpent):
        grade(generated.puzzle, deadline=PassesAfter(0))


def test_checking_an_empty_16x16_adjacent_futoshiki_answers_unknown_at_the_deadline(
    api, monkeypatch
):
    made = install_deadline(monkeypatch, asks=20)
    response = api.post(CHECK, EMPTY_ADJACENT_16, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["solutions"] == "unknown"
    assert body["cpu_seconds"] == selectors.OWN_CHECK_CPU_SECONDS
    assert [deadline.asked for deadline in made] == [21]


def test_a_check_within_its_budget_still_grades_the_puzzle(api):
    square = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    givens = [[r, c, square[r][c]] for r in range(4) for c in range(4) if (r, c) != (0, 0)]
    body = api.post(
        CHECK, {"kind": "futoshiki", "size": 4, "givens": givens}, format="json"
    ).json()
    assert body["solutions"] == "one"
    assert body["level"] is not None


def test_playing_a_puzzle_whose_check_runs_out_of_time_is_refused_and_nothing_stored(
    api, monkeypatch
):
    install_deadline(monkeypatch, asks=20)
    own = api.post(OWN_URL, EMPTY_ADJACENT_16, format="json")
    from_id = api.post(
        FROM_ID, {"id": puzzle_id.encode_definition(EMPTY_ADJACENT_16)}, format="json"
    )
    for response in (own, from_id):
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "invalid_puzzle"
        assert "unknown" in error["message"]
    assert not Puzzle.objects.exists()
    assert not Attempt.objects.exists()
