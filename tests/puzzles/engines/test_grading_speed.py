"""Large KenKen grids: the uniqueness proof's budget and the faster cage filtering."""

from __future__ import annotations

import pytest

from puzzles.engines import kenken
from puzzles.engines.grading import TECHNIQUE_NAMES
from puzzles.engines.kenken import generator as kenken_generator
from puzzles.engines.latin import random_latin_square
from puzzles.engines.rng import Rng
from puzzles.engines.solver import count_solutions


def _loose_9x9(seed: int) -> tuple[kenken.KenKen, list[list[int]]]:
    """A 9 x 9 KenKen of big cages, before any repair (usually ambiguous)."""
    rng = Rng(seed)
    solution = random_latin_square(9, rng)
    groups = kenken.grow_cages_v2(9, rng, kenken.V2_MAX_CAGE)
    return kenken.KenKen(9, [kenken._pick_v2(c, solution, rng) for c in groups]), solution


def test_count_gives_up_at_the_node_budget_and_says_so() -> None:
    puzzle, _ = _loose_9x9(0)
    found = count_solutions(puzzle, limit=2, max_nodes=3)
    assert not found.complete
    assert found.count < 2


def test_trying_the_known_value_last_finds_the_same_number_of_solutions() -> None:
    for seed in range(3):
        rng = Rng(seed)
        solution = random_latin_square(5, rng)
        groups = kenken.grow_cages_v2(5, rng, kenken.V2_MAX_CAGE)
        puzzle = kenken.KenKen(5, [kenken._pick_v2(c, solution, rng) for c in groups])
        plain = count_solutions(puzzle, limit=50)
        known = count_solutions(puzzle, limit=50, known=solution)
        assert plain.complete
        assert known.complete
        assert plain.count == known.count
        assert sorted(map(str, plain.solutions)) == sorted(map(str, known.solutions))


def test_a_large_grid_not_proved_unique_in_budget_counts_as_ambiguous(monkeypatch) -> None:
    puzzle, solution = _loose_9x9(1)
    # Patched where _differing reads it (the package only names it).
    monkeypatch.setattr(kenken_generator, "PROOF_NODE_LIMIT", 1)
    differing = kenken._differing(puzzle, solution)
    assert differing
    fillings = puzzle.cage_fillings()
    widest = max(len(tuples) for _, tuples in fillings)
    cages_hit = [c for c in puzzle.cages if differing.intersection(c.cells)]
    assert any(len(kenken._cage_tuples(9, c)) == widest for c in cages_hit), (
        "the cells of the cage with the most fillings"
    )


@pytest.mark.slow
@pytest.mark.parametrize("size", [8, 9])
def test_large_grids_are_generated_unique(size: int) -> None:
    made = kenken.generate(size=size, seed=3)
    exact = count_solutions(made.puzzle, limit=2)  # no budget: the full proof
    assert exact.complete
    assert exact.count == 1
    assert max(len(c.cells) for c in made.puzzle.cages) <= kenken.LARGE_GRID_MAX_CAGE
    assert exact.solutions[0] == made.solution


def test_filtering_from_recent_fillings_narrows_as_from_scratch() -> None:
    puzzle, _ = _loose_9x9(2)
    rng = Rng(7)
    cands = puzzle.initial_candidates()
    for _ in range(30):
        i = rng.below(81)
        values = [v for v in range(1, 10) if cands[i] & (1 << (v - 1))]
        if len(values) > 1:
            cands[i] &= ~(1 << (rng.choice(values) - 1))
        reused = list(cands)
        fresh = list(cands)
        answer = puzzle.narrow(reused)
        assert answer == kenken.KenKen(9, puzzle.cages).narrow(fresh)
        assert reused == fresh
        if answer is None:
            break
        cands = reused


def test_the_ladder_names_every_technique_a_grade_can_report() -> None:
    seen = set()
    for seed in range(6):
        seen.add(kenken.generate(size=5, seed=seed).difficulty.hardest)
    assert seen <= set(TECHNIQUE_NAMES)
