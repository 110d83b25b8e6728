"""Playing a Decodoku puzzle: links drawn and removed, checks, the answer and its score."""

from __future__ import annotations

import pytest

from puzzles.engines.base import ActionRejected
from puzzles.engines.decodoku import DecodokuError, parse_grid, solve
from puzzles.engines.decodoku.generate import generate
from puzzles.engines.decodoku.play import (
    apply_action,
    empty_state,
    is_solved,
    replay,
)

# A 3 next to the top-left corner and a 4 above a 6 in the middle of the board.
GRID = "?3" + "0" * 25 + "4" + "0" * 7 + "6" + "0" * 27 + "?"
TOP_LEFT_LINK = 0  # (0, 0)-(0, 1)
MIDDLE_LINK = 56 + 3 * 8 + 3  # (3, 3)-(4, 3): the 4 and the 6


def test_drawing_the_fewest_links_and_answering_scores_a_correct_answer() -> None:
    board = parse_grid("7" + GRID[1:-1] + "0", keep_corners=True)
    minimum = solve(board).links
    assert minimum == 2
    actions = [
        ("link", {"link": TOP_LEFT_LINK}),
        ("check", {}),
        ("link", {"link": MIDDLE_LINK}),
        ("answer", {"value": 7}),
    ]
    states = replay(board=board, minimum=minimum, actions=actions)
    assert states[-1] == {"links": sorted([TOP_LEFT_LINK, MIDDLE_LINK]), "answer": 7}
    assert is_solved(state=states[-1])
    assert not is_solved(state=states[-2])
    half = apply_action(board=board, minimum=minimum, state=states[1], kind="check", payload={})
    assert half.result == {"valid": False, "unbalanced": [[27], [35]], "answers": []}
    answered = apply_action(
        board=board, minimum=minimum, state=states[3], kind="answer", payload={"value": 7}
    )
    assert answered.result == {"links": 2, "minimum": 2, "excess": 0, "correct": True}
    assert answered.correct is True


def test_a_longer_explanation_is_accepted_with_its_excess_and_a_wrong_corner() -> None:
    board = parse_grid("4" + GRID[1:-1] + "3", keep_corners=True)  # recorded top-left 4
    state = {"links": [TOP_LEFT_LINK, 1, MIDDLE_LINK], "answer": None}
    outcome = apply_action(board=board, minimum=2, state=state, kind="answer", payload={"value": 7})
    assert outcome.result == {"links": 3, "minimum": 2, "excess": 1, "correct": False}


@pytest.mark.parametrize(
    ("state", "kind", "payload", "message"),
    [
        ({"links": [0], "answer": None}, "link", {"link": 0}, "already drawn"),
        ({"links": [], "answer": None}, "unlink", {"link": 5}, "not drawn"),
        ({"links": [0], "answer": None}, "answer", {"value": 7}, "do not explain"),
        ({"links": [0, MIDDLE_LINK], "answer": None}, "answer", {"value": 3}, "not 3"),
        ({"links": [0, MIDDLE_LINK], "answer": 7}, "check", {}, "answered"),
    ],
)
def test_actions_that_do_not_fit_the_state_are_rejected(
    state: dict, kind: str, payload: dict, message: str
) -> None:
    board = parse_grid(GRID)
    with pytest.raises(ActionRejected, match=message):
        apply_action(board=board, minimum=2, state=state, kind=kind, payload=payload)


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        ("draw", {}, "unknown action kind 'draw'"),
        ("link", {"link": 112}, "0 to 111"),
        ("link", {"link": True}, "not True"),
        ("link", {"cell": 3}, "unknown payload field 'cell'"),
        ("answer", {"value": 10}, "0 to 9"),
        ("check", [], "JSON object"),
    ],
)
def test_malformed_actions_are_errors(kind: str, payload: object, message: str) -> None:
    board = parse_grid(GRID)
    with pytest.raises(DecodokuError, match=message):
        apply_action(
            board=board, minimum=None, state=empty_state(board=board), kind=kind, payload=payload
        )


def test_the_noise_of_a_generated_puzzle_is_an_accepted_explanation() -> None:
    made = generate(seed=7, rate=0.2)
    minimum = solve(made.board).links
    actions = [("link", {"link": link}) for link in sorted(made.noise_links)]
    actions.append(("answer", {"value": made.corners[0]}))
    states = replay(board=made.board, minimum=minimum, actions=actions)
    assert states[-1]["answer"] == made.corners[0]
