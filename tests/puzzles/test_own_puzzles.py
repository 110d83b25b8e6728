"""Puzzles that players make: the check endpoint, playing one, and the puzzle file format."""

from __future__ import annotations

from typing import Any

import pytest

from puzzles import selectors
from puzzles.engines.futoshiki import from_dict as futoshiki_from_dict
from puzzles.engines.grading import grade
from puzzles.models import Attempt, Puzzle
from puzzles.services import OWN

CHECK = "/api/v1/puzzles/check/"
OWN_URL = "/api/v1/puzzles/own/"
SQUARE = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]


def futoshiki_missing_one() -> dict[str, Any]:
    """The square above with one cell left empty: exactly one solution."""
    givens = [[r, c, SQUARE[r][c]] for r in range(4) for c in range(4) if (r, c) != (3, 3)]
    return {"kind": "futoshiki", "size": 4, "givens": givens, "relations": []}


def kenken_single_cells(size: int = 3) -> dict[str, Any]:
    square = [[(r + c) % size + 1 for c in range(size)] for r in range(size)]
    cages = [
        {"cells": [[r, c]], "op": "=", "target": square[r][c]}
        for r in range(size)
        for c in range(size)
    ]
    return {"kind": "kenken", "size": size, "cages": cages}


def error_of(response: Any) -> dict[str, Any]:
    return response.json()["error"]


def test_a_puzzle_with_one_solution_is_graded_and_its_solution_shown_when_asked(api):
    definition = futoshiki_missing_one()
    hidden = api.post(CHECK, definition, format="json")
    assert hidden.status_code == 200
    body = hidden.json()
    assert body["solutions"] == "one"
    expected = grade(futoshiki_from_dict(definition))
    assert (body["level"], body["level_rank"]) == (expected.label, expected.rank)
    assert "solution" not in body
    shown = api.post(CHECK, {**definition, "reveal": True}, format="json").json()
    assert shown["solution"] == SQUARE


def test_a_kenken_of_single_cells_has_one_solution(api):
    body = api.post(CHECK, kenken_single_cells(), format="json").json()
    assert body["solutions"] == "one"
    assert body["level"] is not None


def test_an_empty_futoshiki_has_many_solutions_and_a_contradiction_none(api):
    empty = {"kind": "futoshiki", "size": 4}
    many = api.post(CHECK, {**empty, "reveal": True}, format="json").json()
    assert (many["solutions"], many["level"]) == ("many", None)
    assert "solution" not in many
    impossible = {
        **empty,
        "givens": [[0, 0, 4]],
        "relations": [{"a": [0, 0], "b": [0, 1], "op": "<"}],
    }
    assert api.post(CHECK, impossible, format="json").json()["solutions"] == "none"


def test_the_checker_answers_unknown_when_its_budget_runs_out(api, monkeypatch):
    monkeypatch.setattr(selectors, "OWN_CHECK_MAX_NODES", 1)
    body = api.post(CHECK, {"kind": "futoshiki", "size": 9}, format="json").json()
    assert (body["solutions"], body["max_nodes"]) == ("unknown", 1)


def test_a_file_s_format_and_version_are_accepted(api):
    definition = {**futoshiki_missing_one(), "format": "decodoku-lab-puzzle", "version": 1}
    assert api.post(CHECK, definition, format="json").json()["solutions"] == "one"
    wrong = api.post(CHECK, {**definition, "version": 2}, format="json")
    assert wrong.status_code == 400
    assert "version" in error_of(wrong)["fields"]


def cage(cells: list[list[int]], op: str, target: int) -> dict[str, Any]:
    return {"cells": cells, "op": op, "target": target}


def kenken_with(first: dict[str, Any], *, covered: set[tuple[int, int]]) -> dict[str, Any]:
    """A 4 x 4 KenKen: ``first`` and one-cell cages on the cells not in ``covered``."""
    rest = [
        cage([[r, c]], "=", SQUARE[r][c])
        for r in range(4)
        for c in range(4)
        if (r, c) not in covered
    ]
    return {"kind": "kenken", "size": 4, "cages": [first, *rest]}


@pytest.mark.parametrize(
    ("definition", "named"),
    [
        pytest.param(
            {
                "kind": "kenken",
                "size": 4,
                "cages": [
                    cage([[0, 0], [0, 1]], "+", 3),
                    cage([[0, 1], [0, 2]], "+", 5),
                ],
            },
            "cell [0, 1] is in cage 0 and in cage 1",
            id="overlapping-cages",
        ),
        pytest.param(
            kenken_with(cage([[0, 0], [0, 2]], "+", 4), covered={(0, 0), (0, 2)}),
            "cage 0: its cells are not contiguous",
            id="non-contiguous-cage",
        ),
        pytest.param(
            kenken_with(cage([[0, 0], [0, 1]], "+", 8), covered={(0, 0), (0, 1)}),
            "cage 0: no filling of its 2 cells gives 8 with +",
            id="target-that-cannot-be-met",
        ),
        pytest.param(
            kenken_with(cage([[0, 0], [0, 1], [0, 2]], "-", 1), covered={(0, 0), (0, 1), (0, 2)}),
            "cage 0: '-' is for two-cell cages only",
            id="minus-on-three-cells",
        ),
        pytest.param(
            {"kind": "kenken", "size": 4, "cages": [cage([[0, 0]], "=", 1)]},
            "is in no cage",
            id="cells-left-out",
        ),
        pytest.param(
            {"kind": "kenken", "size": 4, "cages": [cage([[0, 0], [5, 5]], "+", 3)]},
            "cage 0 cell",
            id="cell-outside-the-grid",
        ),
        pytest.param(
            {"kind": "futoshiki", "size": 4, "relations": [{"a": [0, 0], "b": [1, 1], "op": "<"}]},
            "relation 0: a and b must be neighbouring cells",
            id="sign-between-far-cells",
        ),
        pytest.param(
            {"kind": "futoshiki", "size": 4, "givens": [[0, 0, 1], [0, 0, 2]]},
            "given 1: cell [0, 0] is given twice",
            id="cell-given-twice",
        ),
    ],
)
def test_definitions_that_are_not_puzzles_are_refused_naming_the_fault(api, definition, named):
    response = api.post(CHECK, definition, format="json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_puzzle"
    assert named in error["message"]


@pytest.mark.parametrize(
    "definition",
    [
        pytest.param({"kind": "kenken", "size": 50, "cages": []}, id="huge-size"),
        pytest.param(
            {"kind": "kenken", "size": 9, "cages": [cage([[0, 0]], "=", 1)] * 500},
            id="too-many-cages",
        ),
        pytest.param(
            {"kind": "kenken", "size": 9, "cages": [cage([[0, c] for c in range(9)], "+", 45)]},
            id="cage-of-nine-cells",
        ),
        pytest.param({"kind": "kenken", "size": 4, "cages": "all"}, id="cages-not-a-list"),
        pytest.param({"kind": "kenken", "size": 4}, id="kenken-without-cages"),
        pytest.param({"kind": "futoshiki", "size": 3}, id="futoshiki-too-small"),
        pytest.param(
            {"kind": "futoshiki", "size": 4, "cages": [cage([[0, 0]], "=", 1)]},
            id="futoshiki-with-cages",
        ),
        pytest.param({"kind": "sudoku", "size": 4}, id="unknown-kind"),
        pytest.param({"kind": "futoshiki", "size": 4, "colour": "red"}, id="unknown-field"),
        pytest.param(
            {"kind": "kenken", "size": 4, "cages": [{"cells": [[0, 0]], "op": "%", "target": 1}]},
            id="unknown-operation",
        ),
    ],
)
def test_malformed_and_oversized_definitions_are_refused_before_any_search(api, definition):
    response = api.post(CHECK, definition, format="json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_request"


@pytest.mark.parametrize(
    "definition",
    [
        pytest.param(
            {"kind": "futoshiki-adjacent", "size": 4, "relations": []}, id="adjacent-with-signs"
        ),
        pytest.param(
            {"kind": "kenken", "size": 3, "cages": kenken_single_cells()["cages"], "bars": []},
            id="kenken-with-bars",
        ),
        pytest.param({"kind": "futoshiki", "size": 11}, id="futoshiki-of-eleven"),
        pytest.param({"kind": "kenken-multiply", "size": 10, "cages": []}, id="multiply-of-ten"),
        pytest.param({"kind": "futoshiki-adjacent", "size": 17}, id="adjacent-of-seventeen"),
        pytest.param({"kind": "kenken-multiply", "size": 4}, id="multiply-without-cages"),
        pytest.param(
            {"kind": "futoshiki-adjacent", "size": 4, "mode": "signs"}, id="adjacent-other-mode"
        ),
    ],
)
def test_each_kind_takes_only_its_own_fields_and_sizes(api, definition):
    response = api.post(CHECK, definition, format="json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_request"


@pytest.mark.parametrize(
    ("kind", "size"),
    [
        ("kenken-multiply", 5),
        ("futoshiki-adjacent", 6),
        ("futoshiki-adjacent", 14),
        ("futoshiki", 10),
    ],
)
def test_the_variants_and_large_grids_are_checked_and_played(api, kind, size):
    from puzzles.engines.registry import get_kind

    made = get_kind(kind).generate(size=size, seed=4)
    definition = {
        k: v for k, v in made.to_dict().items() if k not in ("seed", "solution", "difficulty")
    }
    body = api.post(CHECK, {**definition, "reveal": True}, format="json").json()
    assert body["solutions"] == "one"
    assert body["solution"] == made.solution
    assert body["level"] == made.to_dict()["difficulty"]["label"]
    started = api.post(OWN_URL, definition, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["kind"] == kind
    assert Puzzle.objects.get(kind=kind, requested_difficulty=OWN).solution == made.solution


def test_checking_needs_a_player(client):
    response = client.post(CHECK, futoshiki_missing_one(), content_type="application/json")
    assert response.status_code == 401


def test_playing_an_own_puzzle_stores_it_once_and_starts_attempts(api, player):
    definition = futoshiki_missing_one()
    first = api.post(OWN_URL, definition, format="json")
    assert first.status_code == 201
    body = first.json()
    assert (body["kind"], body["size"], body["status"]) == ("futoshiki", 4, "active")
    assert body["difficulty"] == grade(futoshiki_from_dict(definition)).label
    assert "solution" not in body
    second = api.post(OWN_URL, {**definition, "format": "decodoku-lab-puzzle"}, format="json")
    assert second.status_code == 201
    puzzle = Puzzle.objects.get()
    assert puzzle.requested_difficulty == OWN
    assert puzzle.solution == SQUARE
    assert Attempt.objects.filter(puzzle=puzzle, player=player).count() == 2
    # the attempt plays as any other: the missing cell solves it
    attempt_id = body["id"]
    move = api.post(
        f"/api/v1/puzzles/{attempt_id}/actions/",
        {"step": 0, "kind": "entry", "payload": {"cell": [3, 3], "value": 1}},
        format="json",
    )
    assert move.status_code == 201
    assert move.json()["attempt"]["status"] == "solved"


def test_only_a_puzzle_with_one_solution_can_be_played(api):
    response = api.post(OWN_URL, {"kind": "futoshiki", "size": 4}, format="json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_puzzle"
    assert "this one has many" in error["message"]
    assert not Puzzle.objects.exists()


def test_the_schema_declares_the_rules_between_fields():
    import jsonschema  # type: ignore[import-untyped]
    from drf_spectacular.generators import SchemaGenerator
    from referencing import Registry, Resource

    schema = SchemaGenerator().get_schema(request=None, public=True)
    resource = Resource.from_contents(
        {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema"}
    )
    validator = jsonschema.Draft202012Validator(
        {"$ref": "urn:api#/components/schemas/PuzzleOwnCheckRequest"},
        registry=Registry().with_resource("urn:api", resource),
    )
    refused = [
        {"kind": "kenken", "size": 4},
        {"kind": "kenken", "size": 4, "cages": [cage([[0, 0]], "=", 1)], "givens": []},
        {"kind": "futoshiki", "size": 3},
        {"kind": "futoshiki", "size": 4, "cages": [cage([[0, 0]], "=", 1)]},
        {"kind": "futoshiki", "size": 4, "version": 2},
    ]
    for body in refused:
        assert not validator.is_valid(body), body
    for body in (futoshiki_missing_one(), kenken_single_cells(), {"kind": "futoshiki", "size": 9}):
        assert validator.is_valid(body), body
