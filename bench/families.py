"""Shots per second of the threshold families, per board size, against baselines.

For each L it plays the same one-shot boards (``shot_seed`` with one sweep
seed) near the clustering bot's crossing (``--rate``, 0.30 by default) with:

- ``clustering``: the bot as a threshold sweep uses it: one-shot boards
  are decoded by its ``FusionPlan`` (clusters grown once, then followed
  move by move);
- ``clustering, choose``: the baseline, the same bot deciding every move
  with ``choose`` (the clusters grown again from scratch on every board:
  how one-shot boards were decoded before the plan);
- ``clustering, plain``: the bot deciding through ``rank`` (every move of
  every number scored and sorted: ``choose`` without its fast path; the
  same moves as ``clustering, choose``);
- ``greedy``: the greedy bot on the same boards;
- ``random``: the random policy on the same boards (the engine's cost with
  nearly nothing spent on deciding).

It prints shots per second (CPU time, which the other work on a shared
machine disturbs less than wall time), moves per shot and failures, then
the CPU seconds per board of the plan against ``choose`` at each L (the
speed-up of the plan, measured in the same run on the same boards).
``--profile`` prints the cProfile summary of the clustering bot at the
largest L.

Run from the repository root::

    python -m bench.families [--sizes 8,12,16,24,32] [--rate 0.30] [--shots N]
                             [--plain-up-to 16] [--choose-up-to 32] [--profile]
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


class _Choose:
    """The bot deciding every move with ``choose``: no ``plan``, the clusters grown every move."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, game: Game) -> tuple[int, int, int, int]:
        move: tuple[int, int, int, int] = self.inner.choose(game)
        return move

    def rank(self, values: tuple[int, ...], size: int, rules: Any, k: int) -> Any:
        return self.inner.rank(values, size, rules, k)


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
    size: int, rate: float, bot: str, shots: int, *, plain: bool = False, choose: bool = False
) -> dict[str, float]:
    rules = threshold_rules(family="one_shot", size=size, rate=rate)
    moves = failures = 0
    start = time.process_time()
    for k in range(shots):
        seed = shot_seed(seed=SEED, size=size, rate=rate, shot=k)
        player: Any = get_bot(bot, seed=bot_seed(seed))
        if plain:
            player = _Plain(player)
        elif choose:
            player = _Choose(player)
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
    parser.add_argument("--choose-up-to", type=int, default=32,
                        help="the clustering bot deciding with choose only up to this L")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"one-shot boards at p = {args.rate}, CPU time; shots per second (moves per shot, "
          "failures / shots)")
    names = ("clustering", "clustering, choose", "clustering, plain", "greedy", "random")
    print(f"{'L':>3}  " + "  ".join(f"{name:>22}" for name in names))
    per_board: list[tuple[int, float, float | None]] = []
    for size in sizes:
        shots = args.shots or (40 if size <= 16 else 10)
        row = [f"{size:>3}"]
        plan_seconds: float = 0.0
        choose_seconds: float | None = None
        for name in names:
            bot = "clustering" if name.startswith("clustering") else name
            plain, choose = name.endswith("plain"), name.endswith("choose")
            if (plain and size > args.plain_up_to) or (choose and size > args.choose_up_to):
                row.append(f"{'-':>22}")
                continue
            r = _shots(size, args.rate, bot, shots, plain=plain, choose=choose)
            if name == "clustering":
                plan_seconds = r["seconds_per_shot"]
            elif choose:
                choose_seconds = r["seconds_per_shot"]
            cell = f"{r['per_second']:.2f} ({r['moves']:.0f}, {r['failures']:.0f}/{shots})"
            row.append(f"{cell:>22}")
        per_board.append((size, plan_seconds, choose_seconds))
        print("  ".join(row), flush=True)
    print(f"\nCPU seconds per board, clustering bot, p = {args.rate}: the plan against "
          "choose on every move (the baseline)")
    print(f"{'L':>3} {'plan':>9} {'choose':>9} {'speed-up':>9}")
    for size, plan_seconds, choose_seconds in per_board:
        if choose_seconds is None:
            print(f"{size:>3} {plan_seconds:>9.4f} {'-':>9} {'-':>9}")
        else:
            print(f"{size:>3} {plan_seconds:>9.4f} {choose_seconds:>9.4f} "
                  f"{choose_seconds / plan_seconds:>8.1f}x")
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
