"""The optimal planar decoder for d = 2 against an independent implementation: qecsim's.

qecsim (a dev requirement) has a planar code with mixed boundaries and a
matrix-product-state decoder (``PlanarMPSDecoder``) that computes the
probability of each coset of the stabilizer group given a syndrome. Under
bit-flip noise (``BitFlipErrorModel``: X with probability p on each qubit)
those cosets are the site's two logical classes for d = 2, so the two
programs must give the same class probabilities for the same board.

The mapping (checked below, not assumed):

- The site's L x L board of cells, rough (open to the outside) on the left
  and right, closed at top and bottom, is qecsim's ``PlanarCode(L + 1, L)``
  turned a quarter: qecsim's bit flips are seen by its primal plaquettes,
  an (L + 1 - 1) x L grid at indices ``(odd row, even column)``, whose open
  boundaries are the top and bottom. Cell ``(r, c)`` is plaquette
  ``(2c + 1, 2r)``: the site's column is qecsim's row.
- The horizontal edge of row r crossing cut k (k = 0 the left side, k = L
  the right) is qecsim's horizontal-edge qubit ``(2k, 2r)``; the vertical edge
  below cell ``(r, c)`` is the vertical-edge qubit ``(2c + 1, 2r + 1)``. Both
  codes have 2L^2 qubits and L^2 checks for these errors.
- qecsim orders its syndrome primal plaquettes first, by row then column: the
  site's values read column by column.
- A class is the parity of errors crossing the left side (the site's
  ``PlanarGame.charge`` for d = 2), that is of X on qubits ``(0, 2r)``.
  qecsim's logical X is a row of the site (its last column of horizontal
  qubits), which crosses the left side once, so the cosets of a recovery f
  and of f times logical X are the two classes, in the order f's own parity
  says.

What is compared: ``PlanarMPSDecoder._coset_probabilities`` (the method its
``decode`` uses; qecsim's documentation describes it) for the sample recovery
qecsim builds from the syndrome, normalised over the two classes, against
``class_probabilities``. With ``chi=None`` qecsim contracts exactly: the
probabilities agree to 1e-12 and the odds between the classes to 1e-9
relative (measured: within 6e-16 for L = 2 to 5). Its exact contraction
takes seconds at L = 6 and minutes at 7; from L = 8 to 12 it runs with its
bond cut to chi = 16, and agrees with the site's exact transfer matrix to
1e-8 (measured: within 6e-11).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from qecsim import paulitools as pt
from qecsim.models.generic import BitFlipErrorModel
from qecsim.models.planar import PlanarCode, PlanarMPSDecoder

from games.engine.planar import Lattice, lattice
from games.engine.planar.lattice import apply_noise, draw_noise
from games.engine.planar.optimal import class_probabilities


def qubit_of(geometry: Lattice, edge: int) -> tuple[int, int]:
    """qecsim's site index of the site's edge (the mapping in the module docstring)."""
    size = geometry.size
    if geometry.cut[edge] >= 0:
        return 2 * geometry.cut[edge], 2 * (edge // (size + 1))
    row, col = divmod(geometry.first[edge], size)
    return 2 * col + 1, 2 * row + 1


def drawn_board(size: int, rate: float, seed: int) -> tuple[list[int], list[int], list[int]]:
    """A board drawn with the site's noise: its values, the edges in error, the cut charges."""
    noise = draw_noise(size=size, modulus=2, rate=rate, seed=seed)
    values, crossings = [0] * (size * size), [0] * (size + 1)
    apply_noise(values, crossings, noise, size=size, modulus=2)
    return values, [edge for edge, _ in noise], crossings


def qecsim_syndrome(code: PlanarCode, values: list[int], size: int) -> NDArray[np.int_]:
    """The site's values as qecsim's syndrome: primal plaquettes column by column, no dual."""
    syndrome = np.zeros(len(code.stabilizers), dtype=int)
    syndrome[: size * size] = np.asarray(values).reshape(size, size).T.reshape(-1) % 2
    return syndrome


def qecsim_class_probabilities(values: list[int], *, size: int, rate: float,
                               chi: int | None) -> NDArray[np.float64]:
    """qecsim's coset probabilities for the board, as the site's two class probabilities."""
    code = PlanarCode(size + 1, size)
    syndrome = qecsim_syndrome(code, values, size)
    decoder = PlanarMPSDecoder(chi=chi)
    sample = decoder.sample_recovery(code, syndrome)
    assert np.array_equal(pt.bsp(sample.to_bsf(), code.stabilizers.T), syndrome)
    cosets, paulis = decoder._coset_probabilities(
        BitFlipErrorModel().probability_distribution(rate), sample)
    # Bit flips alone give the cosets with a logical Z (Y and Z) no weight.
    assert float(cosets[2]) == 0.0
    assert float(cosets[3]) == 0.0
    own = sum(paulis[0].operator((0, 2 * row)) in ("X", "Y") for row in range(size)) % 2
    classes = np.zeros(2)
    classes[own], classes[1 - own] = float(cosets[0]), float(cosets[1])
    result: NDArray[np.float64] = classes / classes.sum()
    return result


def assert_agree(site: NDArray[np.float64], reference: NDArray[np.float64], *,
                 absolute: float, odds: float) -> None:
    assert np.allclose(site, reference, rtol=0.0, atol=absolute), (site, reference)
    assert site.sum() == pytest.approx(1.0, abs=1e-12)
    if min(site.min(), reference.min()) > 1e-300:
        log_odds = math.log(site[1] / site[0]) - math.log(reference[1] / reference[0])
        # Relative difference of the odds P(class 1) / P(class 0).
        assert abs(log_odds) <= odds, (site, reference)


# -- the mapping ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 5, 8])
def test_the_mapping_joins_every_edge_to_its_own_qubit_and_keeps_the_checks(size):
    geometry = lattice(size)
    code = PlanarCode(size + 1, size)
    qubits = {qubit_of(geometry, edge) for edge in range(geometry.edges)}
    assert len(qubits) == geometry.edges == code.n_k_d[0] == 2 * size * size
    assert all(code.is_site(index) and code.is_in_bounds(index) for index in qubits)
    # Each edge flips in qecsim exactly the checks at its cells (a side edge: one).
    for edge in range(geometry.edges):
        error = code.new_pauli().site("X", qubit_of(geometry, edge))
        flipped = pt.bsp(error.to_bsf(), code.stabilizers.T)
        values = [0] * (size * size)
        for cell in (geometry.first[edge], geometry.second[edge]):
            if cell >= 0:
                values[cell] ^= 1
        assert np.array_equal(flipped, qecsim_syndrome(code, values, size)), edge


@pytest.mark.parametrize(("size", "rate", "seed"), [(3, 0.1, 0), (4, 0.2, 1), (6, 0.15, 2)])
def test_a_drawn_error_gives_the_same_syndrome_and_class_in_both_lattices(size, rate, seed):
    values, edges, crossings = drawn_board(size, rate, seed)
    geometry = lattice(size)
    code = PlanarCode(size + 1, size)
    error = code.new_pauli()
    for edge in edges:
        error.site("X", qubit_of(geometry, edge))
    assert np.array_equal(pt.bsp(error.to_bsf(), code.stabilizers.T),
                          qecsim_syndrome(code, values, size))
    # qecsim's logical Z is the right side's column: an error anticommutes with it when
    # it carries charge across the right side, and it crosses the left side ``charge`` times.
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
        reference = qecsim_class_probabilities(values, size=size, rate=rate, chi=None)
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
    reference = qecsim_class_probabilities(values, size=size, rate=rate, chi=None)
    assert_agree(site, reference, absolute=1e-12, odds=1e-9)
    # Both pick the same most likely class unless the two are within rounding of a tie.
    if abs(site[0] - site[1]) > 1e-9:
        assert int(np.argmax(site)) == int(np.argmax(reference))


@pytest.mark.slow
@pytest.mark.parametrize("size", [8, 10, 12])
def test_larger_boards_agree_with_qecsims_contraction_at_bond_16(size):
    for seed, rate in ((0, 0.1), (1, 0.12)):
        values, _, _ = drawn_board(size, rate, seed)
        site = class_probabilities(values, size=size, modulus=2, rate=rate)
        reference = qecsim_class_probabilities(values, size=size, rate=rate, chi=16)
        assert_agree(site, reference, absolute=1e-8, odds=1e-6)
