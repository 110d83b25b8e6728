"""The noise model's distributions, measured over many errors with fixed seeds.

The bounds are generous (about 6 sigma, or chi-square values with p far below
1e-6) so that the tests only fail when the model is wrong. Chi-square values
are computed by hand: the project takes no statistics dependency for this.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from games.engine import Game, NoiseError, RuleSet, Variant

SIZE = 7


def noise_errors(rules: RuleSet, seed: int, count: int) -> list[NoiseError]:
    """At least ``count`` noise errors from consecutive rounds of one game's generator."""
    game = Game(rules, seed)
    errors: list[NoiseError] = []
    while len(errors) < count:
        game.events.clear()
        game._noise_round()
        errors.extend(e for e in game.events if isinstance(e, NoiseError))
    return errors


def chi_square(observed: Counter, expected: dict) -> float:
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def edge(error: NoiseError) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = (error.row1, error.col1), (error.row2, error.col2)
    return (a, b) if a < b else (b, a)


def all_edges(size: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    edges = []
    for r in range(size):
        for c in range(size):
            if r + 1 < size:
                edges.append(((r, c), (r + 1, c)))
            if c + 1 < size:
                edges.append(((r, c), (r, c + 1)))
    return edges


def ends_on_the_border(e: tuple[tuple[int, int], tuple[int, int]], size: int) -> bool:
    """The edge has an end on the border it points at (where the step is forced)."""
    (r1, c1), (r2, c2) = e
    if c1 == c2:  # vertical edge
        return 0 in (r1, r2) or size - 1 in (r1, r2)
    return 0 in (c1, c2) or size - 1 in (c1, c2)


def lies_along_the_border(e: tuple[tuple[int, int], tuple[int, int]], size: int) -> bool:
    """Both ends on the same border line."""
    (r1, c1), (r2, c2) = e
    edge_lines = (0, size - 1)
    return (r1 == r2 and r1 in edge_lines) or (c1 == c2 and c1 in edge_lines)


def edge_probability(e: tuple[tuple[int, int], tuple[int, int]], size: int) -> float:
    """The exact chance of an edge: pick an end (1/L^2), its axis (1/2), its direction."""
    (r1, c1), (r2, c2) = e
    vertical = c1 == c2
    total = 0.0
    for r, c in ((r1, c1), (r2, c2)):
        on_boundary = r in (0, size - 1) if vertical else c in (0, size - 1)
        total += (1 / size**2) * 0.5 * (1.0 if on_boundary else 0.5)
    return total


@pytest.fixture(scope="module")
def z10_errors() -> list[NoiseError]:
    return noise_errors(RuleSet(size=SIZE), 20160328, 300_000)


def test_the_exact_edge_chances_add_up_to_one() -> None:
    edges = all_edges(SIZE)
    assert len(edges) == 2 * SIZE * (SIZE - 1)
    assert math.isclose(sum(edge_probability(e, SIZE) for e in edges), 1.0)
    border = [e for e in edges if ends_on_the_border(e, SIZE)]
    assert len(border) == 4 * SIZE
    for e in border:
        assert math.isclose(edge_probability(e, SIZE), 0.75 / SIZE**2)


def test_edges_ending_on_the_border_are_one_and_a_half_times_as_likely(z10_errors) -> None:
    counts = Counter(edge(e) for e in z10_errors)
    edges = all_edges(SIZE)
    assert set(counts) == set(edges)
    border = [e for e in edges if ends_on_the_border(e, SIZE)]
    interior = [e for e in edges if not ends_on_the_border(e, SIZE)]
    n = sum(counts.values())
    border_share = sum(counts[e] for e in border) / n
    p = len(border) * 0.75 / (len(border) * 0.75 + len(interior) * 0.5)  # 3/7 at L = 7
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(border_share - p) < 6 * sigma
    # without the boundary bias the share would be len(border)/len(edges) = 1/3
    assert abs(border_share - len(border) / len(edges)) > 50 * sigma
    ratio = (sum(counts[e] for e in border) / len(border)) / (
        sum(counts[e] for e in interior) / len(interior)
    )
    assert 1.45 < ratio < 1.55


def test_edges_along_the_border_are_as_likely_as_interior_edges(z10_errors) -> None:
    counts = Counter(edge(e) for e in z10_errors)
    n = sum(counts.values())
    along = [
        e for e in all_edges(SIZE)
        if lies_along_the_border(e, SIZE) and not ends_on_the_border(e, SIZE)
    ]
    assert len(along) == 4 * (SIZE - 3)
    share = sum(counts[e] for e in along) / n
    p = len(along) * 0.5 / SIZE**2
    assert abs(share - p) < 6 * math.sqrt(p * (1 - p) / n)


def test_every_edge_has_its_exact_chance(z10_errors) -> None:
    counts = Counter(edge(e) for e in z10_errors)
    n = sum(counts.values())
    expected = {e: n * edge_probability(e, SIZE) for e in all_edges(SIZE)}
    # 83 degrees of freedom: mean 83, sd 12.9; 180 is past 7 sd
    assert chi_square(counts, expected) < 180


def test_the_first_cell_is_uniform_over_the_grid(z10_errors) -> None:
    counts = Counter((e.row1, e.col1) for e in z10_errors)
    n = len(z10_errors)
    expected = {(r, c): n / SIZE**2 for r in range(SIZE) for c in range(SIZE)}
    # 48 degrees of freedom: mean 48, sd 9.8
    assert chi_square(counts, expected) < 120


def test_both_axes_are_equally_likely(z10_errors) -> None:
    n = len(z10_errors)
    vertical = sum(1 for e in z10_errors if e.col1 == e.col2)
    assert abs(vertical / n - 0.5) < 6 * math.sqrt(0.25 / n)


def test_a_is_uniform_over_1_to_9_in_z10(z10_errors) -> None:
    counts = Counter(e.a for e in z10_errors)
    n = len(z10_errors)
    assert set(counts) == set(range(1, 10))
    assert all(e.aa == 10 - e.a for e in z10_errors)
    # 8 degrees of freedom: p(chi2 > 50) is about 4e-8
    assert chi_square(counts, {a: n / 9 for a in range(1, 10)}) < 50


def test_phi_lambda_makes_five_five_pairs_at_033_plus_067_over_9() -> None:
    errors = noise_errors(RuleSet(size=SIZE, variant=Variant.PHI_LAMBDA), 1234567, 150_000)
    n = len(errors)
    fives = sum(1 for e in errors if (e.a, e.aa) == (5, 5))
    p = 0.33 + 0.67 / 9
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(fives / n - p) < 6 * sigma
    assert abs(fives / n - 1 / 9) > 50 * sigma  # plainly not the Z10 rate
    counts = Counter(e.a for e in errors)
    expected = {a: n * (p if a == 5 else 0.67 / 9) for a in range(1, 10)}
    assert chi_square(counts, expected) < 50
    assert all(e.aa == (10 - e.a) % 10 for e in errors)
