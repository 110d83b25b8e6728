"""Hints past the singles: the next steps of the grading ladder on the player's grid."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.engines import futoshiki, grading, kenken, latin_play
from puzzles.engines.hints import STUCK, TECHNIQUE, WRONG_ENTRY, ladder_hint, next_hint
from puzzles.engines.latin import Grid, LatinPuzzle
from puzzles.engines.solver import find_hint

SIMPLE_KINDS = {"single_candidate", "single_place", "no_candidate"}


@cache
def made(
    kind: str, size: int, level: str, seed: int, engine_version: int | None = None
) -> tuple[LatinPuzzle, Grid]:
    module = kenken if kind == "kenken" else futoshiki
    version = module.ENGINE_VERSION if engine_version is None else engine_version
    generated = module.generate(size=size, seed=seed, difficulty=level, engine_version=version)
    return generated.puzzle, generated.solution


def start_grid(puzzle: LatinPuzzle) -> Grid:
    n = puzzle.size
    grid = [[0] * n for _ in range(n)]
    for index, value in puzzle.given_cells().items():
        grid[index // n][index % n] = value
    return grid


def must_hint(puzzle: LatinPuzzle, grid: Grid, solution: Grid) -> dict[str, Any]:
    hint = next_hint(puzzle, grid, solution=solution)
    assert hint is not None
    return hint


def assert_sound(hint: dict[str, Any], solution: Grid) -> None:
    """A hint never removes the answer of a cell, and the number it names is the answer."""
    for removal in hint.get("removes", []):
        r, c = removal["cell"]
        assert solution[r][c] not in removal["values"], hint
    if hint.get("value") is not None:
        r, c = hint["cell"]
        assert solution[r][c] == hint["value"], hint


def follow_hints(puzzle: LatinPuzzle, solution: Grid) -> list[dict[str, Any]]:
    """Write every hinted number from the start until the hints stop; the hints given."""
    grid = start_grid(puzzle)
    hints = []
    while (hint := next_hint(puzzle, grid, solution=solution)) is not None:
        hints.append(hint)
        assert_sound(hint, solution)
        if hint["value"] is None:
            break
        r, c = hint["cell"]
        grid[r][c] = hint["value"]
    assert grid == solution, hints[-1:]
    return hints


@pytest.mark.parametrize(
    ("kind", "level", "seed"),
    [
        ("kenken", "hard", 0),
        ("kenken", "extreme", 0),
        ("futoshiki", "hard", 0),
        ("futoshiki", "extreme", 0),
    ],
)
def test_the_hints_alone_solve_a_puzzle_of_the_ladder(kind: str, level: str, seed: int) -> None:
    puzzle, solution = made(kind, 6, level, seed)
    hints = follow_hints(puzzle, solution)
    ladder = [h for h in hints if h["kind"] == TECHNIQUE]
    # These levels need more than singles: some hint climbs the ladder.
    assert ladder
    for hint in ladder:
        assert hint["technique"] in grading.TECHNIQUE_NAMES
        assert hint["technique"] == hint["steps"][0]["technique"]
        assert hint["cells"] == hint["steps"][0]["cells"]
        assert 2 <= hint["level"] <= 4
        assert hint["text"].startswith(hint["steps"][0]["text"])
        assert hint["text"].endswith(hint["then"])
        assert bool(hint["then"]) == (hint["value"] is not None)
        assert all(step["removes"] for step in hint["steps"])
        # Every removal of a step is in the hint's total.
        total = {(tuple(x["cell"]), v) for x in hint["removes"] for v in x["values"]}
        for step in hint["steps"]:
            for removal in step["removes"]:
                for v in removal["values"]:
                    assert (tuple(removal["cell"]), v) in total


def test_the_old_hints_come_first_and_are_unchanged() -> None:
    puzzle, solution = made("kenken", 6, "hard", 0)
    grid = start_grid(puzzle)
    seen = 0
    while (hint := next_hint(puzzle, grid, solution=solution)) is not None:
        simple = find_hint(puzzle, grid)
        if simple is not None:
            seen += 1
            assert hint == simple.to_dict()
        else:
            assert hint["kind"] == TECHNIQUE
        grid[hint["cell"][0]][hint["cell"][1]] = hint["value"]
    assert seen


def test_a_ladder_hint_names_a_technique_in_plain_english() -> None:
    puzzle, solution = made("futoshiki", 6, "extreme", 0)
    hint = next(h for h in follow_hints(puzzle, solution) if h["kind"] == TECHNIQUE)
    text = hint["text"]
    assert text.endswith(".")
    assert "_" not in text  # titles, not identifiers
    if hint["value"] is not None:
        r, c = hint["cell"]
        assert f"({r + 1}, {c + 1})" in text  # cells counted from 1, as on the page
        assert str(hint["value"]) in text


def test_a_hint_is_an_action_that_changes_nothing_and_repeats() -> None:
    puzzle, solution = made("kenken", 6, "extreme", 0)
    grid = start_grid(puzzle)
    # Walk the singles until the ladder is needed.
    while (hint := must_hint(puzzle, grid, solution))["kind"] != TECHNIQUE:
        grid[hint["cell"][0]][hint["cell"][1]] = hint["value"]
    state = {**latin_play.empty_state(puzzle), "entries": grid}
    first = latin_play.apply_action(puzzle, solution, state, "hint", {})
    second = latin_play.apply_action(puzzle, solution, first.state, "hint", {})
    assert first.state == latin_play._copy(state)
    assert first.result == second.result
    assert first.result["hint"]["kind"] == TECHNIQUE


def test_pencil_marks_do_not_change_the_hint() -> None:
    puzzle, solution = made("futoshiki", 6, "hard", 0)
    grid = start_grid(puzzle)
    while (hint := must_hint(puzzle, grid, solution))["kind"] != TECHNIQUE:
        grid[hint["cell"][0]][hint["cell"][1]] = hint["value"]
    state = {**latin_play.empty_state(puzzle), "entries": grid}
    # Marks that would be wrong: only the value 1 everywhere.
    marked = {**state, "marks": [[1] * puzzle.size for _ in range(puzzle.size)]}
    plain = latin_play.apply_action(puzzle, solution, state, "hint", {})
    with_marks = latin_play.apply_action(puzzle, solution, marked, "hint", {})
    assert plain.result == with_marks.result


def test_a_wrong_entry_the_singles_miss_is_reported_without_naming_it() -> None:
    # A puzzle of engine version 2 where such an entry was found (hints work the same
    # on every version's puzzles).
    puzzle, solution = made("kenken", 6, "extreme", 0, engine_version=2)
    grid = start_grid(puzzle)
    while (hint := must_hint(puzzle, grid, solution))["kind"] != TECHNIQUE:
        grid[hint["cell"][0]][hint["cell"][1]] = hint["value"]
    n = puzzle.size
    found = None
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                continue
            for v in range(1, n + 1):
                if v == solution[r][c]:
                    continue
                trial = [row[:] for row in grid]
                trial[r][c] = v
                if find_hint(puzzle, trial) is not None:
                    continue  # the singles see it (or give a hint from it)
                ladder = ladder_hint(puzzle, trial, solution=solution)
                if ladder is not None and ladder["kind"] == WRONG_ENTRY:
                    found = ladder
                    break
            if found:
                break
        if found:
            break
    assert found is not None
    assert found["cell"] is None
    assert found["value"] is None
    assert "wrong" in found["text"]


def test_a_grid_no_technique_can_help_with_is_stuck() -> None:
    # No givens and no signs: every candidate stays open and nothing removes one.
    puzzle = futoshiki.from_dict({"kind": "futoshiki", "size": 4, "givens": [], "relations": []})
    solution = [[(r + c) % 4 + 1 for c in range(4)] for r in range(4)]
    hint = next_hint(puzzle, start_grid(puzzle), solution=solution)
    assert hint is not None
    assert hint["kind"] == STUCK
    assert hint["cell"] is None
    assert "trial and error" in hint["text"]


def test_a_full_grid_has_no_hint() -> None:
    puzzle, solution = made("kenken", 6, "hard", 0)
    assert next_hint(puzzle, [row[:] for row in solution], solution=solution) is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hints_on_any_correct_partial_grid_are_sound(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["kenken", "futoshiki"]))
    puzzle, solution = made(kind, 6, "extreme", 0)
    n = puzzle.size
    keep = data.draw(st.sets(st.integers(0, n * n - 1), max_size=n * n - 1))
    grid = start_grid(puzzle)
    for index in keep:
        grid[index // n][index % n] = solution[index // n][index % n]
    hint = next_hint(puzzle, grid, solution=solution)
    assert hint is not None  # a grid with an empty cell always gets something
    assert hint["kind"] in SIMPLE_KINDS | {TECHNIQUE, STUCK}
    assert hint["kind"] != "no_candidate"  # no entry is wrong
    assert_sound(hint, solution)
