"""Maximum-likelihood decoding of the planar board: class probabilities and the decoder."""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from games.engine.errors import InvalidRuleSet
from games.engine.planar import OUTSIDE, PlanarGame, get_decoder, lattice, play
from games.engine.planar.decoders import _subset_sums, plan_class
from games.engine.planar.lattice import apply_noise, draw_noise
from games.engine.planar.optimal import (
    TooLargeForExact,
    class_probabilities,
    converged_class_probabilities,
    exact_reaches,
    posterior,
    truncated_class_probabilities,
)
from games.engine.rules import Family, RuleSet


def planar(size: int, modulus: int, rate: float) -> RuleSet:
    return RuleSet(size=size, family=Family.PLANAR, modulus=modulus, error_rate=rate)


def board_of(noise: list[tuple[int, int]], *, size: int, modulus: int) -> tuple[list[int], int]:
    """The values a noise leaves on the board, and the charge it carried across the left side."""
    values, crossings = [0] * (size * size), [0] * (size + 1)
    apply_noise(values, crossings, noise, size=size, modulus=modulus)
    return values, crossings[0]


# -- brute force ---------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _incidence(size: int) -> NDArray[np.int64]:
    """Cell x edge: +1 at an edge's upper or left end, -1 at its other end."""
    geometry = lattice(size)
    table = np.zeros((size * size, geometry.edges), dtype=np.int64)
    for edge in range(geometry.edges):
        if geometry.first[edge] != OUTSIDE:
            table[geometry.first[edge], edge] += 1
        if geometry.second[edge] != OUTSIDE:
            table[geometry.second[edge], edge] -= 1
    return table


def enumerated_classes(values: list[int], *, size: int, modulus: int,
                       rate: float) -> NDArray[np.float64]:
    """Every error set with the board's charges, weighed and summed class by class.

    The left side's edges and the vertical edges are free (d^(L^2) choices);
    each other horizontal edge is then the one value that gives its left cell
    its charge. Every error set found is checked against the charges.
    """
    geometry = lattice(size)
    incidence = _incidence(size)
    free = [e for e in range(geometry.edges) if geometry.cut[e] <= 0]
    count = modulus ** len(free)
    errors = np.zeros((count, geometry.edges), dtype=np.int64)
    errors[:, free] = np.array(list(itertools.product(range(modulus), repeat=len(free))))
    for col in range(size):
        for row in range(size):
            cell = row * size + col
            if col == size - 1:
                right = geometry.right_edge(row)
            else:
                right = geometry.edge_of(cell, cell + 1)
            others = incidence[cell].copy()
            others[right] = 0
            errors[:, right] = (incidence[cell, right]
                                * (values[cell] - errors @ others)) % modulus
    assert (errors @ incidence.T % modulus == np.array(values)).all()
    left = [e for e in range(geometry.edges) if geometry.cut[e] == 0]
    classes = (-errors[:, left].sum(axis=1)) % modulus
    wrong = (errors != 0).sum(axis=1)
    weights = (rate / (modulus - 1)) ** wrong * (1 - rate) ** (geometry.edges - wrong)
    # Summed exactly (fsum), so that the comparison measures the transfer matrix's rounding.
    totals = np.array([math.fsum(weights[classes == c]) for c in range(modulus)])
    result: NDArray[np.float64] = totals / math.fsum(totals)
    return result


def test_the_enumerated_class_is_the_charge_the_game_reads():
    rules = planar(3, 3, 0.3)
    for seed in range(20):
        noise = draw_noise(size=3, modulus=3, rate=0.3, seed=seed)
        values, charge = board_of(noise, size=3, modulus=3)
        errors = [0] * lattice(3).edges
        for edge, a in noise:
            errors[edge] = a
        left = [e for e in range(lattice(3).edges) if lattice(3).cut[e] == 0]
        assert -sum(errors[e] for e in left) % 3 == charge
        assert PlanarGame(rules, seed).values == tuple(values)


# -- class probabilities against enumeration -------------------------------------------------


def test_every_3x3_z2_board_matches_enumeration():
    for key in range(2**9):
        values = [(key >> cell) & 1 for cell in range(9)]
        expected = enumerated_classes(values, size=3, modulus=2, rate=0.13)
        got = class_probabilities(values, size=3, modulus=2, rate=0.13)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize(("size", "modulus", "rate", "seed"), [
    (4, 2, 0.1, 1), (4, 2, 0.2, 2), (4, 2, 0.35, 3), (3, 3, 0.15, 4), (3, 3, 0.3, 5),
    (3, 4, 0.25, 6),
])
def test_drawn_boards_match_enumeration(size, modulus, rate, seed):
    values, _ = board_of(draw_noise(size=size, modulus=modulus, rate=rate, seed=seed),
                         size=size, modulus=modulus)
    expected = enumerated_classes(values, size=size, modulus=modulus, rate=rate)
    got = class_probabilities(values, size=size, modulus=modulus, rate=rate)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


@settings(max_examples=25, deadline=None)
@given(modulus=st.sampled_from([2, 3]), rate=st.floats(0.005, 0.45),
       cells=st.lists(st.integers(0, 9), min_size=9, max_size=9))
def test_random_small_boards_match_enumeration_and_sum_to_one(modulus, rate, cells):
    values = [v % modulus for v in cells]
    expected = enumerated_classes(values, size=3, modulus=modulus, rate=rate)
    got = class_probabilities(values, size=3, modulus=modulus, rate=rate)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)
    assert got.sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize(("size", "modulus"), [(16, 2), (6, 10), (9, 4)])
def test_large_boards_give_probabilities_that_sum_to_one(size, modulus):
    values, _ = board_of(draw_noise(size=size, modulus=modulus, rate=0.1, seed=9),
                         size=size, modulus=modulus)
    got = class_probabilities(values, size=size, modulus=modulus, rate=0.1)
    assert got.shape == (modulus,)
    assert (got >= 0).all()
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_a_clean_board_at_a_low_rate_is_almost_surely_class_zero():
    got = class_probabilities([0] * 25, size=5, modulus=3, rate=0.01)
    assert got[0] > 0.999_999
    assert got[1] == pytest.approx(got[2], rel=1e-12)  # the two logicals are mirror images


def test_the_exact_reach_is_d_to_the_l_at_most_2_to_the_20():
    for size, modulus in ((20, 2), (6, 10), (12, 3), (8, 5)):
        assert exact_reaches(size=size, modulus=modulus)
        assert not exact_reaches(size=size + 1, modulus=modulus)


@pytest.mark.parametrize(("values", "size", "modulus", "rate", "error"), [
    ([0] * 49, 7, 10, 0.1, TooLargeForExact),
    ([0] * 8, 3, 2, 0.1, InvalidRuleSet),
    ([0] * 8 + [2], 3, 2, 0.1, InvalidRuleSet),
    ([0] * 8 + [-1], 3, 3, 0.1, InvalidRuleSet),
    ([0] * 9, 3, 11, 0.1, InvalidRuleSet),
    ([0] * 9, 3, 2, 0.0, InvalidRuleSet),
    ([0] * 9, 3, 2, 1.5, InvalidRuleSet),
])
def test_boards_it_cannot_decode_are_refused(values, size, modulus, rate, error):
    with pytest.raises(error):
        class_probabilities(values, size=size, modulus=modulus, rate=rate)


def test_at_rate_one_for_z2_only_the_board_with_every_edge_in_error_is_possible():
    every = [(edge, 1) for edge in range(lattice(3).edges)]
    values, charge = board_of(every, size=3, modulus=2)
    got = class_probabilities(values, size=3, modulus=2, rate=1.0)
    assert got[charge] == 1.0
    with pytest.raises(InvalidRuleSet):
        class_probabilities([1 - v for v in values], size=3, modulus=2, rate=1.0)


# -- truncated against exact -----------------------------------------------------------------


@pytest.mark.parametrize(("size", "modulus", "rate", "bond"), [
    (4, 3, 0.2, 9), (8, 2, 0.1, 16), (4, 5, 0.25, 25), (6, 2, 0.3, 8),
])
def test_a_bond_that_cuts_nothing_gives_the_exact_probabilities(size, modulus, rate, bond):
    for seed in range(3):
        values, _ = board_of(draw_noise(size=size, modulus=modulus, rate=rate, seed=seed),
                             size=size, modulus=modulus)
        exact = class_probabilities(values, size=size, modulus=modulus, rate=rate)
        cut = truncated_class_probabilities(values, size=size, modulus=modulus, rate=rate,
                                            bond=bond)
        np.testing.assert_allclose(cut, exact, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(("size", "modulus", "rate"), [(12, 2, 0.11), (16, 2, 0.1), (8, 3, 0.15)])
def test_the_converged_truncation_is_within_its_tolerance_of_exact(size, modulus, rate):
    for seed in range(2):
        values, _ = board_of(draw_noise(size=size, modulus=modulus, rate=rate, seed=seed),
                             size=size, modulus=modulus)
        exact = class_probabilities(values, size=size, modulus=modulus, rate=rate)
        got, bond, change = converged_class_probabilities(
            values, size=size, modulus=modulus, rate=rate, tolerance=1e-8, max_bond=128)
        assert change <= 1e-8
        assert bond <= 128
        assert np.abs(got - exact).max() <= 1e-7


def test_beyond_the_exact_reach_the_posterior_is_the_truncated_one():
    size, modulus, rate = 13, 3, 0.12
    values, _ = board_of(draw_noise(size=size, modulus=modulus, rate=rate, seed=4),
                         size=size, modulus=modulus)
    assert not exact_reaches(size=size, modulus=modulus)
    got = posterior(values, size=size, modulus=modulus, rate=rate)
    expected, _, _ = converged_class_probabilities(values, size=size, modulus=modulus,
                                                   rate=rate)
    np.testing.assert_array_equal(got, expected)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(InvalidRuleSet):
        truncated_class_probabilities(values, size=size, modulus=modulus, rate=rate, bond=0)


def test_the_optimal_decoder_cleans_a_board_beyond_the_exact_reach():
    rules = planar(13, 3, 0.12)
    game = PlanarGame(rules, 4, record=False)
    assert play(game, get_decoder("optimal"))
    assert game.over


# -- the decoder -------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "modulus", "rate"), [
    (5, 2, 0.12), (5, 3, 0.2), (4, 10, 0.25), (5, 5, 0.2),
])
def test_the_optimal_decoder_plays_the_most_likely_class_it_can_reach(size, modulus, rate):
    rules = planar(size, modulus, rate)
    decoder = get_decoder("optimal")
    for seed in range(40):
        game = PlanarGame(rules, seed, record=False)
        values = list(game.values)
        moves = decoder.plan(values, size=size, modulus=modulus, rate=rate)
        odds = class_probabilities(values, size=size, modulus=modulus, rate=rate)
        reachable = _subset_sums([v for v in values if v], modulus)
        best = max(odds[c] for c in range(modulus) if reachable >> c & 1)
        assert odds[plan_class(values, moves, size=size, modulus=modulus)] == best
        assert play(game, decoder)
        assert game.over
        assert game.charge == 0 or game.failed


def test_a_lone_five_for_z10_reaches_classes_zero_and_five_only():
    values = [0] * 25
    values[12] = 5
    odds = class_probabilities(values, size=5, modulus=10, rate=0.3)
    moves = get_decoder("optimal").plan(values, size=5, modulus=10, rate=0.3)
    assert _subset_sums([5], 10) == 0b100001
    assert plan_class(values, moves, size=5, modulus=10) == (0 if odds[0] >= odds[5] else 5)


def test_where_the_likely_class_is_not_matchings_the_optimal_decoder_wins_and_matching_fails():
    # A number at the top, two in the first column; matching sends the top one off the
    # right side (class 0), while more of the error sets of class 1 give this board.
    # The noise: the top row's left side edge and first inner edge, and the vertical
    # edge below (1, 0): three errors, of class 1.
    rules = planar(3, 2, 0.2)
    noise = [(0, 1), (1, 1), (15, 1)]
    values = list(PlanarGame(rules, 0, noise=noise).values)
    assert values == [0, 1, 0, 1, 0, 0, 1, 0, 0]
    odds = class_probabilities(values, size=3, modulus=2, rate=0.2)
    assert odds[1] > odds[0]
    outcomes = {}
    for name in ("matching", "optimal"):
        game = PlanarGame(rules, 0, noise=noise)
        assert play(game, get_decoder(name))
        outcomes[name] = game.failed
    assert outcomes == {"matching": True, "optimal": False}


def test_the_optimal_decoder_needs_the_rate_and_a_modulus_it_decodes():
    decoder = get_decoder("optimal")
    with pytest.raises(InvalidRuleSet, match="error rate"):
        decoder.plan([1] + [0] * 8, size=3, modulus=2)
    with pytest.raises(InvalidRuleSet):
        decoder.plan([0] * 9, size=3, modulus=11, rate=0.1)
    assert decoder.plan([0] * 9, size=3, modulus=2, rate=0.1) == []


@pytest.mark.parametrize(("size", "rate"), [(5, 0.1), (7, 0.12)])
def test_at_d_2_the_optimal_decoder_fails_no_more_often_than_matching(size, rate):
    rules = planar(size, 2, rate)
    failures = {"matching": 0, "optimal": 0}
    for seed in range(200):
        for name in failures:
            game = PlanarGame(rules, seed, record=False)
            assert play(game, get_decoder(name))
            failures[name] += bool(game.failed)
    assert failures["optimal"] <= failures["matching"]
    assert failures["matching"] > 0  # the seeds do test something
