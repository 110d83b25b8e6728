"""The optimal planar decoder for d = 2 against an independent implementation: qecsim's.

``bench/qecsim_planar.py`` maps the site's board onto qecsim's
``PlanarCode(L + 1, L)`` (its docstring gives the mapping) and reads the two
classes' probabilities from qecsim's ``PlanarMPSDecoder`` under its bit-flip
noise. Checked here: the mapping itself, edge by edge; then the class
probabilities of the site's exact transfer matrix against qecsim's exact
contraction (``chi=None``) to 1e-12, and the odds between the two classes to
1e-9 relative (measured: within 3e-16 and 2e-15 for L = 2 to 5); against
qecsim with its bonds cut to 16, to 1e-8 and 1e-6 from L = 8 to 16 (measured:
within 1.4e-9 and 1.1e-8) and, beyond the exact reach, the site's converged
truncated contraction at L = 24 to 1e-6 and 1e-4 (measured: within 1e-8 and
3.5e-7). qecsim's exact contraction takes seconds a board at L = 6 and
minutes at L = 7, hence the cut bond beyond L = 5.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from qecsim import paulitools as pt

from bench import qecsim_planar
from games.engine.planar import lattice
from games.engine.planar.lattice import apply_noise, draw_noise
from games.engine.planar.optimal import class_probabilities, converged_class_probabilities


def drawn_board(size: int, rate: float, seed: int) -> tuple[list[int], list[int], list[int]]:
    """A board drawn with the site's noise: its values, the edges in error, the cut charges."""
    noise = draw_noise(size=size, modulus=2, rate=rate, seed=seed)
    values, crossings = [0] * (size * size), [0] * (size + 1)
    apply_noise(values, crossings, noise, size=size, modulus=2)
    return values, [edge for edge, _ in noise], crossings


def assert_agree(site: NDArray[np.float64], reference: NDArray[np.float64], *,
                 absolute: float, odds: float) -> None:
    assert np.allclose(site, reference, rtol=0.0, atol=absolute), (site, reference)
    assert reference.sum() == pytest.approx(1.0, abs=1e-12)
    if min(site.min(), reference.min()) > 1e-300:
        # The relative difference of the odds P(class 1) / P(class 0).
        log_odds = math.log(site[1] / site[0]) - math.log(reference[1] / reference[0])
        assert abs(log_odds) <= odds, (site, reference)


# -- the mapping ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 5, 8])
def test_the_mapping_joins_every_edge_to_its_own_qubit_and_keeps_the_checks(size):
    geometry = lattice(size)
    code = qecsim_planar.code_of(size)
    qubits = {qecsim_planar.qubit_of(geometry, edge) for edge in range(geometry.edges)}
    assert len(qubits) == geometry.edges == code.n_k_d[0] == 2 * size * size
    assert all(code.is_site(index) and code.is_in_bounds(index) for index in qubits)
    # Each edge flips in qecsim exactly the checks at its cells (a side edge: one).
    for edge in range(geometry.edges):
        error = code.new_pauli().site("X", qecsim_planar.qubit_of(geometry, edge))
        values = [0] * (size * size)
        for cell in (geometry.first[edge], geometry.second[edge]):
            if cell >= 0:
                values[cell] ^= 1
        assert np.array_equal(pt.bsp(error.to_bsf(), code.stabilizers.T),
                              qecsim_planar.syndrome_of(code, values, size)), edge


@pytest.mark.parametrize(("size", "rate", "seed"), [(3, 0.1, 0), (4, 0.2, 1), (6, 0.15, 2)])
def test_a_drawn_error_gives_the_same_syndrome_and_class_in_both_lattices(size, rate, seed):
    values, edges, crossings = drawn_board(size, rate, seed)
    geometry = lattice(size)
    code = qecsim_planar.code_of(size)
    error = code.new_pauli()
    for edge in edges:
        error.site("X", qecsim_planar.qubit_of(geometry, edge))
    assert np.array_equal(pt.bsp(error.to_bsf(), code.stabilizers.T),
                          qecsim_planar.syndrome_of(code, values, size))
    # qecsim's logical Z is the right side's column: an error anticommutes with it when it
    # carries charge across the right side; across the left side it carries the class.
    assert int(pt.bsp(error.to_bsf(), code.logical_zs.T)[0]) == crossings[size] % 2
    left = sum(error.operator((0, 2 * row)) == "X" for row in range(size)) % 2
    assert left == crossings[0] % 2


# -- the class probabilities ---------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("rate", [0.05, 0.11, 0.2])
def test_drawn_boards_have_qecsims_exact_class_probabilities(size, rate):
    for seed in range(4):
        values, _, _ = drawn_board(size, rate, seed)
        site = class_probabilities(values, size=size, modulus=2, rate=rate)
        reference = qecsim_planar.class_probabilities(values, size=size, rate=rate, chi=None)
        assert_agree(site, reference, absolute=1e-12, odds=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=4),
    rate=st.floats(min_value=0.01, max_value=0.45),
    cells=st.lists(st.integers(min_value=0, max_value=1), min_size=16, max_size=16),
)
def test_any_board_has_qecsims_exact_class_probabilities(size, rate, cells):
    values = cells[: size * size]
    site = class_probabilities(values, size=size, modulus=2, rate=rate)
    reference = qecsim_planar.class_probabilities(values, size=size, rate=rate, chi=None)
    assert_agree(site, reference, absolute=1e-12, odds=1e-9)
    # Both pick the same most likely class unless the two are within rounding of a tie.
    if abs(site[0] - site[1]) > 1e-9:
        assert int(np.argmax(site)) == int(np.argmax(reference))


@pytest.mark.parametrize(("size", "rate"), [(3, 0.1), (4, 0.15), (5, 0.2), (8, 0.1)])
def test_qecsims_decode_corrects_to_the_optimal_decoders_most_likely_class(size, rate):
    # Through qecsim's public decode: the class of the recovery it returns.
    compared = 0
    for seed in range(6):
        values, _, _ = drawn_board(size, rate, seed)
        site = class_probabilities(values, size=size, modulus=2, rate=rate)
        if abs(site[0] - site[1]) <= 1e-9:
            continue  # a tie: either class is most likely
        chi = None if size <= 5 else 16
        assert qecsim_planar.decoded_class(values, size=size, rate=rate, chi=chi) == int(
            np.argmax(site)), seed
        compared += 1
    assert compared >= 5


@pytest.mark.slow
@pytest.mark.parametrize("size", [8, 12, 16])
def test_larger_boards_agree_with_qecsims_contraction_at_bond_16(size):
    for seed, rate in ((0, 0.1), (1, 0.12)):
        values, _, _ = drawn_board(size, rate, seed)
        site = class_probabilities(values, size=size, modulus=2, rate=rate)
        reference = qecsim_planar.class_probabilities(values, size=size, rate=rate, chi=16)
        assert_agree(site, reference, absolute=1e-8, odds=1e-6)


@pytest.mark.slow
def test_beyond_the_exact_reach_the_truncated_contraction_agrees_with_qecsims():
    size = 24
    for seed in (0, 1):
        values, _, _ = drawn_board(size, 0.1, seed)
        site, _, _ = converged_class_probabilities(values, size=size, modulus=2, rate=0.1)
        reference = qecsim_planar.class_probabilities(values, size=size, rate=0.1, chi=16)
        assert_agree(site, reference, absolute=1e-6, odds=1e-4)
