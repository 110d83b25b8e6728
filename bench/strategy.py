"""How long a fit of the strategy model takes, against statsmodels on the same data.

Synthetic moves drawn from a known conditional logit: each board offers
8 to 32 legal moves (a board of Decodoku offers about four per number) with
as many features as ``games.engine.strategy.FEATURES``, and players make
10 to 200 moves each. The same run fits them with ``core.stats.choice``
(Newton's method, intervals clustered by player) and fits the first
``--reference-moves`` of them (5,000 by default) with both that and
statsmodels' ``ConditionalLogit`` (its default BFGS), printing both times and
the largest difference between the coefficients. statsmodels loops over the
boards in Python, about 35 ms per board on the development machine, so
100,000 boards would take it most of an hour: it gets a subset, timed
against ours on the very same subset. Target: 100,000 moves in under two
minutes on one core (the BLAS thread pools are held to one thread).

Run from the repository root::

    python -m bench.strategy [--moves 100000] [--reference-moves 5000] [--seed 1] [--check]
"""

from __future__ import annotations

import os

# One core, as the target says: set before numpy loads its BLAS.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from core.stats.choice import ChoiceData, fit_choice  # noqa: E402
from games.engine.strategy import FEATURE_NAMES  # noqa: E402

TARGET_SECONDS = 120.0


def synthetic_moves(*, moves: int, seed: int) -> tuple[ChoiceData, np.ndarray]:
    """``moves`` boards whose choices follow known weights, and those weights."""
    rng = np.random.default_rng(seed)
    k = len(FEATURE_NAMES)
    truth = rng.normal(scale=0.5, size=k)
    sizes = rng.integers(8, 33, size=moves)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    features = rng.normal(size=(int(offsets[-1]), k))
    # Whole-number features, as most of the real ones are.
    features[:, : k // 2] = np.round(features[:, : k // 2] * 2)
    scores = features @ truth
    # Gumbel noise makes the arg max a draw from the logit's probabilities.
    noisy = scores + rng.gumbel(size=len(scores))
    chosen = np.zeros(len(scores), dtype=bool)
    for b in range(moves):
        lo, hi = offsets[b], offsets[b + 1]
        chosen[lo + int(np.argmax(noisy[lo:hi]))] = True
    per_player = rng.integers(10, 201, size=moves)
    players = np.zeros(moves, dtype=np.int64)
    start, player = 0, 0
    while start < moves:
        players[start:start + int(per_player[player])] = player
        start += int(per_player[player])
        player += 1
    data = ChoiceData(features, chosen, offsets, players, np.ones(moves))
    return data, truth


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=100_000, help="boards, one move each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-moves", type=int, default=5_000,
                        help="boards fitted by both implementations (0: skip statsmodels)")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    data, truth = synthetic_moves(moves=args.moves, seed=args.seed)
    print(f"{data.n_boards} moves, {len(data.chosen)} legal moves, {data.n_players} players, "
          f"{data.features.shape[1]} features")
    start = time.perf_counter()
    fit = fit_choice(data)
    ours = time.perf_counter() - start
    print(f"core.stats.choice: {ours:8.2f} s, {fit.iterations} Newton steps, "
          f"largest distance to the true weights {np.max(np.abs(fit.coefficients - truth)):.4f}")
    if args.reference_moves > 0:
        from statsmodels.discrete.conditional_models import ConditionalLogit

        subset = data.subset(np.arange(min(args.reference_moves, data.n_boards)))
        start = time.perf_counter()
        small = fit_choice(subset)
        ours_small = time.perf_counter() - start
        start = time.perf_counter()
        reference = ConditionalLogit(subset.chosen.astype(float), subset.features,
                                     groups=subset.board_of_alternative()).fit(disp=False)
        theirs = time.perf_counter() - start
        difference = float(np.max(np.abs(small.coefficients - reference.params)))
        print(f"on the first {subset.n_boards} moves: core.stats.choice {ours_small:.2f} s, "
              f"statsmodels ConditionalLogit (BFGS) {theirs:.2f} s, ratio "
              f"{theirs / ours_small:.0f}x; largest coefficient difference {difference:.1e}, "
              f"log-likelihood {reference.llf:.4f} (ours {small.loglik:.4f})")
    met = ours < TARGET_SECONDS
    print(f"target: under {TARGET_SECONDS:.0f} s for 100,000 moves: {'met' if met else 'MISSED'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
