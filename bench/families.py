"""Shots per second of the threshold families, per board size, against baselines.

For each L it plays the same one-shot boards (``shot_seed`` with one sweep
seed) near the clustering bot's crossing (``--rate``, 0.30 by default) with:

- ``clustering``: the bot a threshold sweep uses, with its fast paths
  (``choose`` from the most urgent cluster, the incremental growth);
- ``clustering, plain``: the same bot deciding through ``rank`` (every
  move of every number scored and sorted: the bot without its fast path),
  on the same boards, so the two make exactly the same moves;
- ``greedy``: the greedy bot on the same boards;
- ``random``: the random policy on the same boards (the engine's cost with
  nearly nothing spent on deciding).

It prints shots per second (CPU time, which the other work on a shared
machine disturbs less than wall time), moves per shot and failures.
``--profile`` prints the cProfile summary of the clustering bot at the
largest L.

Run from the repository root::

    python -m bench.families [--sizes 8,12,16,24,32] [--rate 0.30] [--shots N]
                             [--plain-up-to 16] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any

from games.engine import Game, bot_seed, decode, shot_seed, threshold_rules
from games.engine.bots import get_bot

SEED = 2026


class _Plain:
    """A bot deciding through ``rank(k=1)``: the same moves, without the fast path."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, game: Game) -> tuple[int, int, int, int]:
        move: tuple[int, int, int, int] = self.inner.rank(
            game.values, game.size, game.rules, k=1
        )[0]
        return move

    def rank(self, values: tuple[int, ...], size: int, rules: Any, k: int) -> Any:
        return self.inner.rank(values, size, rules, k)


def _shots(
    size: int, rate: float, bot: str, shots: int, *, plain: bool = False
) -> dict[str, float]:
    rules = threshold_rules(family="one_shot", size=size, rate=rate)
    moves = failures = 0
    start = time.process_time()
    for k in range(shots):
        seed = shot_seed(seed=SEED, size=size, rate=rate, shot=k)
        player: Any = get_bot(bot, seed=bot_seed(seed))
        if plain:
            player = _Plain(player)
        game = Game(rules, seed, record=False)
        decode(game, player, max_moves=1000 * size * size)
        moves += game.moves_made
        failures += game.loss is not None
    elapsed = time.process_time() - start
    return {
        "per_second": shots / elapsed if elapsed else float("inf"),
        "seconds_per_shot": elapsed / shots,
        "moves": moves / shots,
        "failures": failures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,12,16,24,32")
    parser.add_argument("--rate", type=float, default=0.30)
    parser.add_argument("--shots", type=int, default=0,
                        help="shots per size and bot (default: 40 for L <= 16, 10 above)")
    parser.add_argument("--plain-up-to", type=int, default=16,
                        help="the plain clustering bot only up to this L (it is slow)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"one-shot boards at p = {args.rate}, CPU time; shots per second (moves per shot, "
          "failures / shots)")
    names = ("clustering", "clustering, plain", "greedy", "random")
    print(f"{'L':>3}  " + "  ".join(f"{name:>22}" for name in names))
    for size in sizes:
        shots = args.shots or (40 if size <= 16 else 10)
        row = [f"{size:>3}"]
        for bot, plain in (("clustering", False), ("clustering", True), ("greedy", False),
                           ("random", False)):
            if plain and size > args.plain_up_to:
                row.append(f"{'-':>22}")
                continue
            r = _shots(size, args.rate, bot, shots, plain=plain)
            cell = f"{r['per_second']:.2f} ({r['moves']:.0f}, {r['failures']}/{shots})"
            row.append(f"{cell:>22}")
        print("  ".join(row), flush=True)
    if args.profile:
        size = max(sizes)
        profiler = cProfile.Profile()
        profiler.enable()
        _shots(size, args.rate, "clustering", 3)
        profiler.disable()
        print(f"\ncProfile, clustering bot, 3 one-shot boards at L = {size}, p = {args.rate}:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
