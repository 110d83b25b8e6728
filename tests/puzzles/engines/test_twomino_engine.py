"""The 2mino engine: generation, the solver, and play by toggling bars."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.engines import twomino
from puzzles.engines.twomino import (
    Board,
    Play,
    TwominoError,
    all_pairs,
    count_solutions,
    generate,
    puzzle_from_json,
    tiling_problem,
)


def _bars_on_for(puzzle: twomino.Puzzle, dominoes: set[twomino.Bar]) -> list[twomino.Bar]:
    """The bars a player turns on to cut the board into these dominoes."""
    return [b for b in puzzle.board.inner_bars() if b not in dominoes and b not in puzzle.locked]


def _brute_force_tilings(puzzle: twomino.Puzzle) -> set[frozenset[twomino.Bar]]:
    """Every valid tiling, by plain recursion over the first free cell."""
    board = puzzle.board
    cells = list(board.cells())
    found: set[frozenset[twomino.Bar]] = set()

    def place(
        covered: set[twomino.Cell], used: set[twomino.Pair], chosen: list[twomino.Bar]
    ) -> None:
        free = next((c for c in cells if c not in covered), None)
        if free is None:
            found.add(frozenset(chosen))
            return
        r, c = free
        for other in ((r, c + 1), (r + 1, c)):
            if not board.contains(other) or other in covered:
                continue
            b = twomino.bar(free, other)
            p = puzzle.pair_at(free, other)
            if b in puzzle.locked or p in used:
                continue
            place(covered | {free, other}, used | {p}, [*chosen, b])

    place(set(), set(), [])
    return found


@pytest.mark.parametrize("size", range(3, 13))
def test_generated_boards_hold_every_pair_once(size: int) -> None:
    for seed in range(20):
        puzzle = generate(size=size, seed=seed)
        assert len(puzzle.grid) == size + 1
        assert all(len(row) == size for row in puzzle.grid)
        counts = Counter(v for row in puzzle.grid for v in row)
        assert counts == dict.fromkeys(range(size), size + 1)
        assert tiling_problem(puzzle, puzzle.solution) is None
        assert not set(puzzle.solution) & puzzle.locked
        assert len(puzzle.locked) == twomino.hint_bars(size)
        assert count_solutions(puzzle) >= 1


def test_the_same_seed_gives_the_same_board() -> None:
    assert generate(size=9, seed=123) == generate(size=9, seed=123)
    assert generate(size=9, seed=123).grid != generate(size=9, seed=124).grid


def test_the_tidy_layout_is_the_pairs_in_order() -> None:
    grid, tiles = twomino.tidy_layout(4)
    assert grid[0] == [0, 0, 1, 0]  # pairs 00 and 10, bigger symbol first
    assert tiles[0] == ((0, 0), (0, 1))  # horizontal for even N
    _, odd_tiles = twomino.tidy_layout(3)
    assert odd_tiles[0] == ((0, 0), (1, 0))  # vertical for odd N


@pytest.mark.parametrize("seed", range(12))
def test_the_solver_counts_what_brute_force_finds(seed: int) -> None:
    for size in (3, 4):
        puzzle = generate(size=size, seed=seed)
        tilings = _brute_force_tilings(puzzle)
        solutions = twomino.solve(size, puzzle.grid, puzzle.locked, limit=10_000)
        solved = {frozenset(s) for s in solutions}
        assert solved == tilings
        assert frozenset(puzzle.solution) in tilings


@pytest.mark.parametrize("size", [3, 5, 8, 12])
def test_unique_difficulty_leaves_exactly_one_solution(size: int) -> None:
    for seed in range(3):
        normal = generate(size=size, seed=seed)
        puzzle = generate(size=size, seed=seed, difficulty="unique")
        assert count_solutions(puzzle) == 1
        assert puzzle.locked >= normal.locked
        assert not set(puzzle.solution) & puzzle.locked
        # irreducible: no extra bar can be unlocked without a second solution
        for extra in puzzle.locked - normal.locked:
            fewer = twomino.count_solutions_of(size, puzzle.grid, puzzle.locked - {extra})
            assert fewer >= 2


def test_every_valid_tiling_solves_the_board() -> None:
    for seed in range(40):
        puzzle = generate(size=4, seed=seed)
        tilings = list(twomino.solve(4, puzzle.grid, puzzle.locked, limit=3))
        if len(tilings) >= 2:
            break
    else:  # pragma: no cover - the seeds above include boards with several tilings
        pytest.fail("no board with two tilings among the seeds")
    for tiling in tilings:
        play = Play(puzzle, _bars_on_for(puzzle, set(tiling)))
        assert play.solved
        assert play.problem() is None


def test_toggling_forms_and_breaks_pairs() -> None:
    puzzle = generate(size=3, seed=1)
    play = Play(puzzle)
    assert not play.solved
    on = _bars_on_for(puzzle, set(puzzle.solution))
    formed: set[twomino.Bar] = set()
    for b in on:
        result = play.toggle(*b)
        assert result.on
        formed |= set(result.formed)
        formed -= set(result.broken)
    assert play.solved
    assert formed == set(puzzle.solution)
    last = on[-1]
    undone = play.toggle(*last)
    assert not undone.on
    assert undone.broken
    assert not play.solved
    d = undone.broken[0]
    assert play.pair_status(puzzle.pair_at(*d)) in {"missing", "repeated", "found"}


def test_an_invalid_tiling_names_the_missing_or_doubled_pair() -> None:
    puzzle = generate(size=4, seed=3)
    assert "missing" in (Play(puzzle).problem() or "")
    first, *rest = puzzle.solution
    low, high = puzzle.pair_at(*first)
    assert tiling_problem(puzzle, rest) == f"the pair {low}-{high} is missing"
    assert tiling_problem(puzzle, [*puzzle.solution, first]) is not None


def test_locked_and_unknown_bars_cannot_be_toggled() -> None:
    puzzle = generate(size=5, seed=2)
    play = Play(puzzle)
    locked = next(iter(puzzle.locked))
    with pytest.raises(TwominoError, match="locked"):
        play.toggle(*locked)
    with pytest.raises(TwominoError, match="no bar"):
        play.toggle((0, 0), (1, 1))
    with pytest.raises(TwominoError, match="no bar"):
        play.toggle((0, 0), (0, -1))


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=3, max_value=7),
    seed=st.integers(min_value=0, max_value=2**32),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=80),
)
def test_incremental_counts_match_a_fresh_count(size: int, seed: int, picks: list[int]) -> None:
    puzzle = generate(size=size, seed=seed)
    free = [b for b in puzzle.board.inner_bars() if b not in puzzle.locked]
    play = Play(puzzle)
    for pick in picks:
        play.toggle(*free[pick % len(free)])
    fresh = Play(puzzle, play.on - puzzle.locked)
    assert fresh.counts == play.counts
    assert fresh.formed == play.formed
    assert sum(play.counts.values()) == len(play.formed)
    assert all(n >= 0 for n in play.counts.values())


def test_json_round_trip() -> None:
    puzzle = generate(size=6, seed=11, difficulty="unique")
    data = json.loads(json.dumps(puzzle.to_json()))
    assert data["kind"] == "2mino"
    assert data["rows"] == 7
    assert data["cols"] == 6
    assert data["solutions"] == 1
    assert data["engine_version"] == twomino.ENGINE_VERSION
    again = puzzle_from_json(data)
    assert again.grid == puzzle.grid
    assert again.locked == puzzle.locked
    assert again.solution == puzzle.solution
    data.pop("solution")
    assert puzzle_from_json(data).solution == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(kind="kenken"), "kind"),
        (lambda d: d.update(size=13), "size"),
        (lambda d: d.update(size="4"), "size"),
        (lambda d: d["grid"].pop(), "rows"),
        (lambda d: d["grid"][0].__setitem__(0, 99), "symbols"),
        (lambda d: d["grid"][0].__setitem__(0, True), "symbols"),
        (lambda d: d.update(locked_bars=[{"a": [0, 0], "b": [2, 2]}]), "not neighbours"),
        (lambda d: d.update(locked_bars=[{"a": [0], "b": [0, 1]}]), r"\[row, col\]"),
        (lambda d: d.update(locked_bars="x"), "must be a list"),
        (lambda d: d.update(solution=d["solution"][1:]), "missing"),
        (lambda d: d.update(seed=1.5), "seed"),
    ],
)
def test_malformed_json_is_refused_with_the_field_named(change, message: str) -> None:
    data = generate(size=4, seed=5).to_json(solutions=2)
    change(data)
    with pytest.raises(TwominoError, match=message):
        puzzle_from_json(data)


def test_a_grid_with_wrong_symbol_counts_is_refused() -> None:
    data = generate(size=4, seed=5).to_json(solutions=2)
    data.pop("solution")
    data["grid"][0] = [0, 0, 0, 0]
    data["grid"][4] = [0, 0, 0, 0]
    with pytest.raises(TwominoError, match="times"):
        puzzle_from_json(data)


def test_sizes_outside_the_range_are_refused() -> None:
    with pytest.raises(TwominoError):
        Board(2)
    with pytest.raises(TwominoError):
        generate(size=13, seed=0)
    with pytest.raises(TwominoError):
        generate(size=5, seed=-1)
    with pytest.raises(TwominoError):
        generate(size=5, seed=0, difficulty="extreme")  # type: ignore[arg-type]


def test_pairs_enumerate_in_the_original_order() -> None:
    assert all_pairs(3) == [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)]
    assert len(all_pairs(12)) == 78


# -- grading: the ladder of deductions -------------------------------------------


def test_a_board_the_ladder_tiles_has_exactly_one_solution() -> None:
    graded = 0
    for size in (4, 5, 6):
        for seed in range(8):
            for difficulty in ("normal", "unique"):
                puzzle = twomino.generate(size=size, seed=seed, difficulty=difficulty)
                found = twomino.grade(puzzle)
                if found.rank < 4:
                    graded += 1
                    assert twomino.count_solutions(puzzle) == 1
                else:
                    assert found.label == "recursive"
    assert graded >= 24  # every unique board here is tiled by the ladder


def test_an_ambiguous_board_is_recursive() -> None:
    puzzle = twomino.generate(size=4, seed=0)
    assert twomino.count_solutions(puzzle) == 2
    found = twomino.grade(puzzle)
    assert (found.rank, found.label, found.hardest) == (4, "recursive", "search")


def test_each_rung_is_needed_where_it_is_used(monkeypatch) -> None:
    hard = twomino.generate(size=6, seed=8, difficulty="unique")
    basic = twomino.generate(size=6, seed=9, difficulty="unique")
    assert twomino.grade(hard).label == "hard"
    assert twomino.grade(hard).techniques[twomino.FORCING] >= 1
    assert twomino.grade(basic).label == "basic"
    monkeypatch.setattr(twomino, "_level3", lambda pos, cells, pairs: None)
    assert twomino.grade(hard).label == "recursive"
    monkeypatch.setattr(twomino, "_level2", lambda pos, cells, pairs: None)
    assert twomino.grade(basic).label == "recursive"
