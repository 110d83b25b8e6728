"""Speed of the Decodoku engine against the plain baseline implementation.

For each board size L it plays complete games with the random policy, the
same seeds for every implementation, and measures noise rounds per second,
noise errors per second and moves per second for:

- ``engine``: ``games.engine.Game(record=False)``, the way bots run it;
- ``engine+events``: ``Game(record=True)``, building every event object;
- ``baseline``: ``bench/baseline_engine.py``, the original's way of doing it
  (2-D arrays, merges that scan the board, the double-loop loss check).

Each implementation plays the same set of games once per measurement; the
measurements are repeated and interleaved (the order rotates) so that a noisy
machine hurts all of them alike. The headline figure is the best of the
repeats (the least disturbed one); the median is printed next to it. Rates
count everything a game does, the random policy's choices included.

By default (``--check``) the script first plays every game with the engine
and with the baseline side by side and stops unless both give the same board
(values and group ids) after every move, the same clock, the same number of
noise rounds and errors, and the same loss. It also counts the random draws
those games make (noise and policy) and times that many draws on their own:
every implementation of engine version 1 with this policy must make exactly
these draws, so their cost is a floor, and the time "besides the draws" is
what the implementations themselves spend.

Run from the repository root::

    python -m bench.engine [--sizes 7,8,12,16] [--seconds S] [--games N]
                           [--repeats R] [--no-check]

``--games N`` fixes the number of games per measurement; without it the
number is chosen so that one baseline measurement takes about ``--seconds``.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

from bench.baseline_engine import BaselineGame, BaselineRandomPolicy
from games.engine import Game, NoiseError, RandomPolicy, RuleSet, SplitMix64
from games.engine.rng import MASK64

_GAMMA_INVERSE = pow(0x9E3779B97F4A7C15, -1, 1 << 64)

# Speed-up over the baseline the engine is expected to reach, by board size.
TARGETS = {8: 3.0, 16: 10.0}

IMPLEMENTATIONS = ("engine", "engine+events", "baseline")


def policy_seed(seed: int) -> int:
    """The random policy's own seed for game ``seed`` (never the noise stream's)."""
    return seed + 1_000_000_007


# -- playing ------------------------------------------------------------------


def play_engine(rules: RuleSet, seeds: list[int], record: bool) -> tuple[int, int]:
    rounds = moves = 0
    for seed in seeds:
        game = Game(rules, seed, record=record)
        choose = RandomPolicy(policy_seed(seed)).choose
        move = game.move
        while game.loss is None:
            move(*choose(game))
        rounds += game.round
        moves += game.moves_made
    return rounds, moves


def play_baseline(rules: RuleSet, seeds: list[int]) -> tuple[int, int]:
    rounds = moves = 0
    for seed in seeds:
        game = BaselineGame(rules, seed)
        choose = BaselineRandomPolicy(policy_seed(seed)).choose
        move = game.move
        while not game.over:
            move(*choose(game))
        rounds += game.round
        moves += game.moves_made
    return rounds, moves


def runner(name: str, rules: RuleSet, seeds: list[int]) -> Callable[[], tuple[int, int]]:
    if name == "engine":
        return lambda: play_engine(rules, seeds, record=False)
    if name == "engine+events":
        return lambda: play_engine(rules, seeds, record=True)
    return lambda: play_baseline(rules, seeds)


# -- checking -----------------------------------------------------------------


def generator_steps(start: int, state: int) -> int:
    """How many 64-bit outputs a SplitMix64 stream produced from ``start`` to ``state``."""
    return ((state - start) * _GAMMA_INVERSE) & MASK64


def check_identical(rules: RuleSet, seeds: list[int]) -> tuple[int, int, int, int, int]:
    """Play every game with both implementations.

    Returns the totals (rounds, errors, moves, noise draws, policy draws).
    """
    rounds = errors = moves = noise_draws = policy_draws = 0
    for seed in seeds:
        game = Game(rules, seed, record=True)
        base = BaselineGame(rules, seed)
        policy = RandomPolicy(policy_seed(seed))
        base_policy = BaselineRandomPolicy(policy_seed(seed))
        where = f"L={rules.size} seed={seed}"
        if (game.values, game.labels()) != (base.values(), base.labels()):
            raise SystemExit(f"MISMATCH {where}: first boards differ")
        while game.loss is None:
            chosen = policy.choose(game)
            if base_policy.choose(base) != chosen:
                raise SystemExit(f"MISMATCH {where} t={game.t}: the policies chose differently")
            game.move(*chosen)
            base.move(*chosen)
            same = (
                game.values == base.values()
                and game.labels() == base.labels()
                and game.t == base.t
                and game.round == base.round
                and game.over == base.over
            )
            if not same:
                raise SystemExit(f"MISMATCH {where} after move {game.moves_made}")
        game_errors = sum(isinstance(e, NoiseError) for e in game.events)
        if game_errors != base.noise_errors or game.loss.t != base.loss_t:
            raise SystemExit(f"MISMATCH {where}: noise errors or loss differ")
        if game.loss.group != base.spanning_groups()[0]:
            raise SystemExit(f"MISMATCH {where}: spanning group differs")
        rounds += game.round
        errors += game_errors
        moves += game.moves_made
        noise_draws += generator_steps(seed, base.rng.state)
        policy_draws += generator_steps(policy_seed(seed), base_policy.rng.state)
    return rounds, errors, moves, noise_draws, policy_draws


def count_errors(rules: RuleSet, seeds: list[int]) -> int:
    """Noise errors over the games (every error drawn, regenerated first boards included)."""
    total = 0
    for seed in seeds:
        game = BaselineGame(rules, seed)
        choose = BaselineRandomPolicy(policy_seed(seed)).choose
        while not game.over:
            game.move(*choose(game))
        total += game.noise_errors
    return total


# -- measuring ----------------------------------------------------------------


def timed(run: Callable[[], tuple[int, int]]) -> tuple[float, tuple[int, int]]:
    gc.collect()
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def time_draws(count: int, n: int, repeats: int) -> float:
    """The best time of ``count`` calls of ``SplitMix64.below(n)``, and nothing else."""
    best = float("inf")
    for _ in range(repeats):
        below = SplitMix64(12345).below
        start = time.perf_counter()
        for _ in range(count):
            below(n)
        best = min(best, time.perf_counter() - start)
    return best


def calibrate(rules: RuleSet, first_seed: int, seconds: float) -> int:
    """How many baseline games take about ``seconds`` (at least 3)."""
    start = time.perf_counter()
    games = 0
    while games < 3 or time.perf_counter() - start < seconds:
        play_baseline(rules, [first_seed + games])
        games += 1
    return games


def bench_size(args: argparse.Namespace, size: int) -> float:
    rules = RuleSet(size=size, variant=args.variant, noise_budget=args.budget,
                    moves_per_round=args.moves_per_round)
    games = args.games or calibrate(rules, args.seed, args.seconds)
    seeds = [args.seed + i for i in range(games)]
    draws = 0
    if args.check:
        rounds, errors, moves, noise_draws, policy_draws = check_identical(rules, seeds)
        draws = noise_draws + policy_draws
        checked = "identical games: checked"
    else:
        errors = count_errors(rules, seeds)
        rounds = moves = -1
        checked = "identical games: not checked"
    times: dict[str, list[float]] = {name: [] for name in IMPLEMENTATIONS}
    for repeat in range(args.repeats):
        shift = repeat % len(IMPLEMENTATIONS)
        for name in IMPLEMENTATIONS[shift:] + IMPLEMENTATIONS[:shift]:
            elapsed, (played_rounds, played_moves) = timed(runner(name, rules, seeds))
            if rounds < 0:
                rounds, moves = played_rounds, played_moves
            if (played_rounds, played_moves) != (rounds, moves):
                raise SystemExit(f"L={size}: {name} played a different number of rounds")
            times[name].append(elapsed)

    print(f"\nL = {size}: {games} games, {rounds} noise rounds, {errors} noise errors, "
          f"{moves} moves per measurement; {checked}")
    print(f"  {'implementation':<15}{'rounds/s':>11}{'errors/s':>12}{'moves/s':>11}"
          f"{'best s':>9}{'median s':>10}")
    for name in IMPLEMENTATIONS:
        best, median = min(times[name]), statistics.median(times[name])
        print(f"  {name:<15}{rounds / best:>11,.0f}{errors / best:>12,.0f}{moves / best:>11,.0f}"
              f"{best:>9.3f}{median:>10.3f}")
    base_best = min(times["baseline"])
    base_median = statistics.median(times["baseline"])
    ratio = 0.0
    for name in ("engine", "engine+events"):
        ratio_best = base_best / min(times[name])
        ratio_median = base_median / statistics.median(times[name])
        line = (f"  {name} / baseline: {ratio_best:.2f}x (best), "
                f"{ratio_median:.2f}x (median)")
        target = TARGETS.get(size)
        if target is not None and name == "engine":
            verdict = "PASS" if ratio_best >= target else "BELOW"
            line += f"   target >= {target:g}x: {verdict}"
        if name == "engine":
            ratio = ratio_best
        print(line)
    if draws:
        # Every implementation makes exactly these draws (their order is part of the
        # engine version and of the random policy), so their cost is a floor for all.
        draw_time = time_draws(draws, rules.cells, 3)
        print(f"  random draws: {noise_draws:,} for noise + {policy_draws:,} for the policy; "
              f"alone they take {draw_time:.3f} s = {100 * draw_time / min(times['engine']):.0f}% "
              f"of the engine's best time")
        for name in ("engine", "baseline"):
            rest = min(times[name]) - draw_time
            print(f"  {name} time besides the draws: {rest:.3f} s")
        rest_ratio = (base_best - draw_time) / max(min(times["engine"]) - draw_time, 1e-9)
        print(f"  engine / baseline besides the draws: {rest_ratio:.1f}x")
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="7,8,12,16",
                        help="board sizes, comma-separated (default 7,8,12,16)")
    parser.add_argument("--seconds", type=float, default=1.5,
                        help="about how long one baseline measurement lasts (default 1.5)")
    parser.add_argument("--games", type=int, default=0,
                        help="games per measurement (default: from --seconds)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="interleaved measurements per implementation (default 5)")
    parser.add_argument("--check", action=argparse.BooleanOptionalAction, default=True,
                        help="first confirm that both implementations play identical games")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--variant", default="z10", choices=("z10", "phi_lambda"))
    parser.add_argument("--budget", type=float, default=6.0, help="noise budget (default 6)")
    parser.add_argument("--moves-per-round", type=int, default=5,
                        help="moves per noise round (default 5)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.repeats < 1 or args.games < 0 or args.seconds <= 0:
        parser.error("--repeats must be >= 1, --games >= 0 and --seconds > 0")

    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) "
          f"on {platform.system()} {platform.machine()}; "
          f"CPU count {os.cpu_count()}" + (f", usable {affinity}" if affinity else ""))
    print(f"rule set: {args.variant}, budget {args.budget:g}, {args.moves_per_round} moves "
          f"per round, destination labels; random policy; games from seed {args.seed}")
    print(f"{args.repeats} interleaved measurements per implementation; rates are from the "
          "best one, the median time is shown too")
    started = time.perf_counter()
    verdicts = []
    for size in sizes:
        ratio = bench_size(args, size)
        target = TARGETS.get(size)
        if target is not None:
            verdicts.append(f"L={size} {'PASS' if ratio >= target else 'BELOW'}")
    print(f"\ntargets: {', '.join(f'{t:g}x at L={s}' for s, t in TARGETS.items())}; "
          + (", ".join(verdicts) if verdicts else "no target size measured")
          + f"; total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
