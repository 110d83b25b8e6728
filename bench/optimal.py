"""Benchmark of the planar optimal decoder: time per board, beside PyMatching's.

For each case it draws boards from fixed seeds (the sweeps' noise) and times
the class probabilities of each board, in CPU time of this process and in
wall time: exactly (the transfer matrix) where ``exact_reaches``, else the
truncated contraction with its bond doubled until stable (it prints the bonds
reached, how far the last doubling moved the class probabilities, and how
many boards stopped at the largest bond without settling to the tolerance).
The slowest cases run on fewer boards (``CASES``). In the same run it times
PyMatching on the d = 2 boards, one board per call and in one batch call, per
board, and qecsim's planar MPS decoder (``bench/qecsim_planar.py``, bond
16) on a few of them, with how far its class probabilities are from the
optimal decoder's.

The targets: d = 2, L = 16 under 50 ms a board, d = 10, L = 6 under 1 s.

BLAS runs on one thread here (``OPENBLAS_NUM_THREADS`` and the like, unless
set): the truncated contraction's matrices are small, and on a shared,
loaded machine several BLAS threads on them cost many times one.

Run from the repository root::

    python -m bench.optimal [--boards 10] [--check]

``--check`` exits non-zero when a target is missed (in CPU time).
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402 - the thread counts must be set before NumPy loads
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from bench import qecsim_planar  # noqa: E402
from games.engine.planar.decoders import matching_graph  # noqa: E402
from games.engine.planar.lattice import apply_noise, draw_noise  # noqa: E402
from games.engine.planar.optimal import (  # noqa: E402
    MAX_BOND,
    TOLERANCE,
    class_probabilities,
    converged_class_probabilities,
    exact_reaches,
)

# (L, d, p, target in seconds of CPU per board or None, most boards): the cases that take
# seconds a board are run on fewer boards so that the whole run stays a few minutes.
CASES = [
    (16, 2, 0.10, 0.050, None),
    (20, 2, 0.10, None, 5),
    (24, 2, 0.10, None, None),
    (32, 2, 0.10, None, None),
    (8, 3, 0.15, None, None),
    (10, 3, 0.15, None, None),
    (12, 3, 0.15, None, None),
    (16, 3, 0.15, None, 5),
    (8, 5, 0.20, None, None),
    (10, 5, 0.20, None, 4),
    (12, 5, 0.20, None, 4),
    (6, 10, 0.20, 1.0, None),
    (7, 10, 0.20, None, 3),
    (8, 10, 0.20, None, 3),
]

# qecsim's planar MPS decoder, the independent implementation, timed on a few d = 2 boards.
QECSIM_CHI = 16
QECSIM_BOARDS = 3


def boards(size: int, modulus: int, rate: float, count: int) -> list[list[int]]:
    drawn = []
    for seed in range(count):
        values, crossings = [0] * (size * size), [0] * (size + 1)
        apply_noise(values, crossings, draw_noise(size=size, modulus=modulus, rate=rate,
                                                  seed=seed), size=size, modulus=modulus)
        drawn.append(values)
    return drawn


def timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def bench_case(size: int, modulus: int, rate: float, count: int) -> tuple[float, float, str]:
    """CPU and wall seconds a board, and the method: for the truncated contraction the bonds
    it stopped at, the largest change of its last doubling, and how many boards reached
    ``MAX_BOND`` with a change still above ``TOLERANCE`` (not converged)."""
    cpu_times, wall_times = [], []
    stops: list[tuple[int, float]] = []
    exact = exact_reaches(size=size, modulus=modulus)
    for values in boards(size, modulus, rate, count):
        if exact:
            cpu, wall = timed(lambda v=values: class_probabilities(
                v, size=size, modulus=modulus, rate=rate))
        else:
            def truncated(v: list[int] = values) -> None:
                _, bond, change = converged_class_probabilities(v, size=size, modulus=modulus,
                                                                rate=rate)
                stops.append((bond, change))
            cpu, wall = timed(truncated)
        cpu_times.append(cpu)
        wall_times.append(wall)
    if exact:
        return statistics.mean(cpu_times), statistics.mean(wall_times), "exact"
    bonds = [bond for bond, _ in stops]
    unsettled = sum(change > TOLERANCE for _, change in stops)
    method = (f"truncated, bond {min(bonds)}-{max(bonds)}, last doubling moved "
              f"{max(change for _, change in stops):.1e} at most")
    if unsettled:
        method += f"; {unsettled} of {len(stops)} stopped at bond {MAX_BOND} above {TOLERANCE:g}"
    return statistics.mean(cpu_times), statistics.mean(wall_times), method


def bench_matching(size: int, rate: float, count: int) -> tuple[float, float]:
    """PyMatching's CPU time per board: one call per board, and one batch call."""
    graph = matching_graph(size)
    syndromes = np.array([[v & 1 for v in values] for values in boards(size, 2, rate, count)],
                         dtype=np.uint8)
    graph.decode(syndromes[0])  # the first call builds PyMatching's own structures
    single, _ = timed(lambda: [graph.decode(row) for row in syndromes])
    batch, _ = timed(lambda: graph.decode_batch(syndromes))
    return single / count, batch / count


def bench_qecsim(size: int, rate: float, count: int) -> tuple[float, float]:
    """qecsim's planar MPS decoder at bond ``QECSIM_CHI`` on the d = 2 boards: its CPU time a
    board, and the largest difference of its class probabilities from the site's."""
    cpu_times, differences = [], []
    for values in boards(size, 2, rate, count):
        found: list[NDArray[np.float64]] = []
        cpu, _ = timed(lambda v=values, out=found: out.append(qecsim_planar.class_probabilities(
            v, size=size, rate=rate, chi=QECSIM_CHI)))
        cpu_times.append(cpu)
        if exact_reaches(size=size, modulus=2):
            site = class_probabilities(values, size=size, modulus=2, rate=rate)
        else:
            site = converged_class_probabilities(values, size=size, modulus=2, rate=rate)[0]
        differences.append(float(np.abs(site - found[0]).max()))
    return statistics.mean(cpu_times), max(differences)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args(argv)
    count = options.boards
    print(f"boards per case: {count}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs")
    print(f"{'L':>3} {'d':>3} {'p':>5}  {'CPU ms/board':>12} {'wall ms/board':>13}  method")
    missed = []
    for size, modulus, rate, target, most in CASES:
        boards_here = count if most is None else min(count, most)
        cpu, wall, method = bench_case(size, modulus, rate, boards_here)
        if boards_here != count:
            method += f" ({boards_here} boards)"
        verdict = ""
        if target is not None:
            verdict = f"  target {target * 1000:.0f} ms: {'met' if cpu <= target else 'MISSED'}"
            if cpu > target:
                missed.append((size, modulus))
        print(f"{size:>3} {modulus:>3} {rate:>5.2f}  {cpu * 1000:>12.1f} {wall * 1000:>13.1f}  "
              f"{method}{verdict}")
    for size in (16, 24, 32):
        single, batch = bench_matching(size, 0.10, max(count, 200))
        print(f"PyMatching d = 2, L = {size}: {single * 1e6:.0f} us a board one at a time, "
              f"{batch * 1e6:.0f} us in one batch")
    for size in (16, 24, 32):
        qecsim_cpu, difference = bench_qecsim(size, 0.10, min(count, QECSIM_BOARDS))
        print(f"qecsim PlanarMPSDecoder (bond {QECSIM_CHI}) d = 2, L = {size}: "
              f"{qecsim_cpu * 1000:.0f} ms a board, class probabilities within "
              f"{difference:.1e} of the optimal decoder's ({min(count, QECSIM_BOARDS)} boards)")
    return 1 if options.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
