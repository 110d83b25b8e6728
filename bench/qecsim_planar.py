"""The site's d = 2 planar board in qecsim's lattice: the independent check of the optimal decoder.

qecsim (a development requirement) has a planar code with mixed boundaries
and a matrix-product-state decoder, ``PlanarMPSDecoder``, that computes the
probability of each coset of the stabilizer group given a syndrome. Under
bit-flip noise (``BitFlipErrorModel``: X with probability p on each qubit)
those cosets are the site's two logical classes for d = 2, so its coset
probabilities must equal ``games.engine.planar.optimal.class_probabilities``
on the same board (``tests/games/engine/planar/test_planar_optimal_qecsim.py``, and
``bench/optimal.py`` beside its timings).

The mapping (the tests check it edge by edge rather than assume it):

- The site's L x L board of cells, open to the outside on the left and the
  right, closed at top and bottom, is qecsim's ``PlanarCode(L + 1, L)`` turned
  a quarter. qecsim's bit flips are seen by its primal plaquettes, an L x L
  grid at indices ``(odd row, even column)`` whose open boundaries are its top
  and bottom: cell ``(r, c)`` is plaquette ``(2c + 1, 2r)``, so the site's
  column is qecsim's row.
- The horizontal edge of row r crossing cut k (k = 0 the left side, k = L the
  right side) is qecsim's horizontal-edge qubit ``(2k, 2r)``; the vertical
  edge below cell ``(r, c)`` is its vertical-edge qubit ``(2c + 1, 2r + 1)``.
  Both have 2L^2 qubits and L^2 checks for these errors.
- qecsim's syndrome lists the primal plaquettes first, by row then column:
  the site's values read column by column, then zeros for the other checks.
- A class is the parity of the errors crossing the left side (the site's
  ``PlanarGame.charge`` for d = 2), that is of X on qubits ``(0, 2r)``.
  qecsim's logical X is one row of the site (its last column of horizontal
  qubits), which crosses the left side once, so the coset of a recovery f and
  that of f times logical X are the two classes, in the order f's parity says.

``class_probabilities`` here reads the probabilities from
``PlanarMPSDecoder._coset_probabilities``: the method ``decode`` picks its
recovery with, described in qecsim's documentation though named private.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from qecsim import paulitools as pt
from qecsim.models.generic import BitFlipErrorModel
from qecsim.models.planar import PlanarCode, PlanarMPSDecoder

from games.engine.planar import Lattice


def code_of(size: int) -> PlanarCode:
    """qecsim's code for the site's L = ``size`` board."""
    return PlanarCode(size + 1, size)


def qubit_of(geometry: Lattice, edge: int) -> tuple[int, int]:
    """qecsim's site index of the site's edge ``edge``."""
    size = geometry.size
    if geometry.cut[edge] >= 0:
        return 2 * geometry.cut[edge], 2 * (edge // (size + 1))
    row, col = divmod(geometry.first[edge], size)
    return 2 * col + 1, 2 * row + 1


def syndrome_of(code: PlanarCode, values: list[int], size: int) -> NDArray[np.int_]:
    """The site's values (row-major) as qecsim's syndrome."""
    syndrome = np.zeros(len(code.stabilizers), dtype=int)
    syndrome[: size * size] = np.asarray(values).reshape(size, size).T.reshape(-1) % 2
    return syndrome


def class_probabilities(values: list[int], *, size: int, rate: float,
                        chi: int | None) -> NDArray[np.float64]:
    """qecsim's coset probabilities for the board, as the site's two class probabilities.

    ``chi=None`` contracts exactly (exponential in L: seconds a board at L = 6,
    minutes at 7); an integer cuts qecsim's bonds to it.
    """
    code = code_of(size)
    syndrome = syndrome_of(code, values, size)
    decoder = PlanarMPSDecoder(chi=chi)
    sample = decoder.sample_recovery(code, syndrome)
    if not np.array_equal(pt.bsp(sample.to_bsf(), code.stabilizers.T), syndrome):
        raise AssertionError("qecsim's sample recovery does not have the board's syndrome")
    cosets, paulis = decoder._coset_probabilities(
        BitFlipErrorModel().probability_distribution(rate), sample)
    # Bit flips alone give no weight to the cosets with a logical Z (Y and Z).
    if float(cosets[2]) != 0.0 or float(cosets[3]) != 0.0:
        raise AssertionError("a coset with a logical Z has weight under bit flips")
    own = sum(paulis[0].operator((0, 2 * row)) in ("X", "Y") for row in range(size)) % 2
    classes = np.zeros(2)
    classes[own], classes[1 - own] = float(cosets[0]), float(cosets[1])
    result: NDArray[np.float64] = classes / classes.sum()
    return result


def decoded_class(values: list[int], *, size: int, rate: float, chi: int | None) -> int:
    """The class of the recovery qecsim's public ``decode`` returns for the board."""
    code = code_of(size)
    syndrome = syndrome_of(code, values, size)
    recovery = code.new_pauli(PlanarMPSDecoder(chi=chi).decode(
        code, syndrome, error_model=BitFlipErrorModel(), error_probability=rate))
    if not np.array_equal(pt.bsp(recovery.to_bsf(), code.stabilizers.T), syndrome):
        raise AssertionError("qecsim's recovery does not have the board's syndrome")
    return int(sum(recovery.operator((0, 2 * row)) in ("X", "Y") for row in range(size)) % 2)
