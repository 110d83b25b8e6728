"""Generated Decodoku puzzles: seeded, deterministic, with their true corners."""

from __future__ import annotations

import pytest

from puzzles.engines.decodoku import DecodokuError, check, parse_grid, solve
from puzzles.engines.decodoku.generate import GENERATOR_VERSION, generate, stored


def test_the_stored_puzzles_regenerate_exactly_from_their_seeds() -> None:
    entries = stored()
    assert len(entries) >= 8
    for entry in entries:
        assert entry["generator_version"] == GENERATOR_VERSION
        made = generate(seed=entry["seed"], rate=entry["rate"], size=entry["size"])
        assert made.as_dict() == entry


def test_a_stored_puzzle_round_trips_through_its_grid_and_the_solver() -> None:
    for entry in stored():
        made = generate(seed=entry["seed"], rate=entry["rate"], size=entry["size"])
        board = parse_grid(entry["grid"], rows=entry["size"], cols=entry["size"])
        assert board.values == made.board.values
        # The noise itself explains the board, and gives the true top-left value.
        verdict = check(board, made.noise_links)
        assert verdict.valid
        assert entry["corners"][0] in verdict.answers
        assert board.bottom_right_for(entry["corners"][0]) == entry["corners"][1]
        solution = solve(board)
        assert solution.optimal
        assert solution.links <= entry["noise_links"]


def test_the_solver_finds_the_true_corner_of_light_noise() -> None:
    made = generate(seed=7, rate=0.2)
    assert made.corners == (6, 0)
    solution = solve(made.board)
    assert (solution.corner, solution.ties) == (6, ())


def test_generation_is_deterministic_and_depends_on_the_seed() -> None:
    first = generate(seed=123, rate=0.25)
    assert generate(seed=123, rate=0.25) == first
    assert generate(seed=124, rate=0.25).board != first.board
    assert sum(first.board.values) % 10 == (-sum(first.corners)) % 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": 1, "rate": 0.0}, "noise rate"),
        ({"seed": 1, "rate": 1.5}, "noise rate"),
        ({"seed": -1, "rate": 0.1}, "seed"),
        ({"seed": 1, "rate": 0.1, "size": 2}, "3 to 16"),
    ],
)
def test_bad_generation_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(DecodokuError, match=message):
        generate(**kwargs)
