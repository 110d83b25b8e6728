"""How long one bot ranking takes, at the original size and at the largest.

A bot ranks the legal moves of a board each time it moves (in sweeps, in the
analysis' agreement with the bots, and for bot clients), so its cost per
ranking bounds how fast a sweep can go. For each bot this plays a board at
L = 7 and at L = 16 with the greedy bot until numbers have piled up, then
times ``rank(k=3)`` on it: milliseconds per ranking at both sizes, their
ratio, and the random bot (which only draws among the legal moves) at the
same sizes as the floor. Target: at most 50 ms per ranking at L = 16.

Run from the repository root::

    python -m bench.bots [--rankings 50] [--check]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from games.engine import Game, RuleSet
from games.engine.bots import BOTS, get_bot

TARGET_MS_AT_LARGEST = 50.0
SIZES = (7, 16)
PILE_UP_MOVES = {7: 20, 16: 150}


def piled_up(size: int) -> Game:
    """A game after some greedy moves, so the board holds many numbers."""
    rules = RuleSet(size=size)
    game = Game(rules, seed=3, record=False)
    greedy = get_bot("greedy", seed=0)
    for _ in range(PILE_UP_MOVES[size]):
        if game.over:
            break
        game.move(*greedy.choose(game))
    return game


def ms_per_ranking(name: str, game: Game, rankings: int) -> float:
    bot = get_bot(name, seed=0)
    times = []
    for _ in range(rankings):
        start = time.perf_counter()
        bot.rank(game.values, game.size, game.rules, k=3)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rankings", type=int, default=50, help="rankings timed per case (50)")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    games = {size: piled_up(size) for size in SIZES}
    print(f"median ms per ranking (k=3), {args.rankings} rankings each")
    print(f"{'bot':<11} {'L=7':>8} {'L=16':>8} {'ratio':>7}")
    missed = False
    for name in sorted(BOTS):
        small, large = (ms_per_ranking(name, games[size], args.rankings) for size in SIZES)
        ok = large <= TARGET_MS_AT_LARGEST
        missed = missed or not ok
        print(f"{name:<11} {small:>8.2f} {large:>8.2f} {large / small:>7.1f}  "
              f"target L=16 <= {TARGET_MS_AT_LARGEST:g} ms {'ok' if ok else 'MISSED'}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
