"""Logic puzzles: generation and solving time per kind and size, against plain backtracking.

For each kind (KenKen, Futoshiki) and size, ``--seeds`` puzzles are generated
(the median generation time counts), then each is solved three ways in the
same run: the solution counter (propagation + search, stopping at 2), the
logical solver (techniques one step at a time, with the trace), and the
baseline, a plain backtracking counter (cells in reading order, no
candidates; a cage or sign is checked once its last cell is filled). The
baseline gives up after ``--baseline-nodes`` tried values; such runs are
shown as ">". The target: a 6 x 6 unique KenKen generated in under 0.5 s
(median). Pure Python, no database. Run from the repository root::

    python -m bench.puzzles [--sizes 4,5,6,7] [--seeds 9] [--baseline-nodes 2000000] [--check]
        [--twomino-sizes 3,4,...,12]

2mino has a table of its own (``--twomino-sizes``, empty to skip it): per N,
generation at both difficulties, the exact-cover solution count (stopping at
2) and the forced-pair trace, against a plain backtracking count in the same
run (the first uncovered cell in reading order paired with its right or lower
neighbour when that pair is still unused; no exact cover, no choice of the
tightest constraint), which gives up after ``--baseline-nodes`` placements.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from puzzles.engines import twomino, twomino_play
from puzzles.engines.latin_play import __name__ as LATIN_PLAY
from puzzles.engines.registry import KINDS
from puzzles.engines.solver import (
    count_solutions,
    plain_backtracking_count,
    solve_logically,
)

TARGET_KIND = "kenken"
TARGET_SIZE = 6
TARGET_SECONDS = 0.5


def timed(function, *args, **kwargs):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - started, result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f}"


def plain_tiling_count(puzzle: twomino.Puzzle, limit: int, max_nodes: int) -> int | None:
    """Tilings of a 2mino board by plain backtracking; None once ``max_nodes`` is spent."""
    rows, cols = puzzle.size + 1, puzzle.size
    covered = [[False] * cols for _ in range(rows)]
    used: set[tuple[int, int]] = set()
    nodes = 0
    found = 0

    def search(index: int) -> bool:
        nonlocal nodes, found
        while index < rows * cols and covered[index // cols][index % cols]:
            index += 1
        if index == rows * cols:
            found += 1
            return found >= limit
        r, c = divmod(index, cols)
        for other in ((r, c + 1), (r + 1, c)):
            if other[0] >= rows or other[1] >= cols or covered[other[0]][other[1]]:
                continue
            if twomino.bar((r, c), other) in puzzle.locked:
                continue
            pair = puzzle.pair_at((r, c), other)
            if pair in used:
                continue
            nodes += 1
            if nodes > max_nodes:
                raise TimeoutError
            covered[r][c] = covered[other[0]][other[1]] = True
            used.add(pair)
            done = search(index + 1)
            used.discard(pair)
            covered[r][c] = covered[other[0]][other[1]] = False
            if done:
                return True
        return False

    try:
        search(0)
    except TimeoutError:
        return None
    return found


def bench_twomino(sizes: list[int], seeds: int, max_nodes: int) -> None:
    print(f"2mino: {seeds} boards per size; medians in ms")
    print(f"{'N':>2} {'generate':>9} {'unique':>9} {'count':>9} {'trace':>9} {'baseline':>10} "
          f"{'speed-up':>9} {'gave up':>7} {'extra bars':>10}")
    for size in sizes:
        gen, gen_unique, count, trace, base = [], [], [], [], []
        gave_up = 0
        extra = []
        for seed in range(seeds):
            seconds, made = timed(twomino.generate, size=size, seed=seed)
            gen.append(seconds)
            seconds, unique = timed(twomino.generate, size=size, seed=seed, difficulty="unique")
            gen_unique.append(seconds)
            extra.append(len(unique.locked) - len(made.locked))
            seconds, counted = timed(twomino.count_solutions, made, limit=2)
            assert counted >= 1
            count.append(seconds)
            seconds, _ = timed(twomino_play.forced_trace, made)
            trace.append(seconds)
            seconds, found = timed(plain_tiling_count, made, 2, max_nodes)
            if found is None:
                gave_up += 1
            else:
                assert found == counted
            base.append(seconds)
        base_median = statistics.median(base)
        count_median = statistics.median(count)
        prefix = ">" if gave_up > len(base) // 2 else " "
        print(f"{size:>2} {ms(statistics.median(gen))} {ms(statistics.median(gen_unique))} "
              f"{ms(count_median)} {ms(statistics.median(trace))} {prefix}{ms(base_median)} "
              f"{prefix}{base_median / max(count_median, 1e-9):8.2f}x {gave_up:>7} "
              f"{statistics.mean(extra):10.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4,5,6,7", help="comma-separated sizes")
    parser.add_argument("--seeds", type=int, default=9, help="puzzles per kind and size")
    parser.add_argument("--baseline-nodes", type=int, default=2_000_000,
                        help="values the baseline may try per puzzle before giving up")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    parser.add_argument("--twomino-sizes", default="3,4,5,6,7,8,9,10,11,12",
                        help="2mino sizes (empty: skip 2mino)")
    args = parser.parse_args()
    if args.twomino_sizes:
        bench_twomino([int(t) for t in args.twomino_sizes.split(",")], args.seeds,
                      args.baseline_nodes)
    sizes = [int(text) for text in args.sizes.split(",")]
    print(f"{args.seeds} puzzles per kind and size; medians in ms; baseline budget "
          f"{args.baseline_nodes:,} tried values")
    print(f"{'kind':10} {'N':>2} {'generate':>9} {'count':>9} {'logic':>9} {'baseline':>10} "
          f"{'speed-up':>9} {'gave up':>7}")
    target_median = None
    for kind in KINDS.values():
        if kind.play.__name__ != LATIN_PLAY:
            continue
        for size in sizes:
            if not kind.min_size <= size <= kind.max_size:
                continue
            gen, count, logic, base = [], [], [], []
            gave_up = 0
            for seed in range(args.seeds):
                seconds, made = timed(kind.generate, size=size, seed=seed)
                gen.append(seconds)
                seconds, counted = timed(count_solutions, made.puzzle, limit=2)
                assert counted.count == 1
                count.append(seconds)
                seconds, result = timed(solve_logically, made.puzzle)
                assert result.status == "solved"
                logic.append(seconds)
                seconds, found = timed(plain_backtracking_count, made.puzzle, limit=2,
                                       max_nodes=args.baseline_nodes)
                if found is None:
                    gave_up += 1
                else:
                    assert found == 1
                base.append(seconds)
            base_median = statistics.median(base)
            count_median = statistics.median(count)
            prefix = ">" if gave_up > len(base) // 2 else " "
            print(f"{kind.name:10} {size:>2} {ms(statistics.median(gen))} {ms(count_median)} "
                  f"{ms(statistics.median(logic))} {prefix}{ms(base_median)} "
                  f"{prefix}{base_median / max(count_median, 1e-9):8.0f}x {gave_up:>7}")
            if kind.name == TARGET_KIND and size == TARGET_SIZE:
                target_median = statistics.median(gen)
    if target_median is None:
        return 0
    met = target_median < TARGET_SECONDS
    print(f"target: {TARGET_SIZE}x{TARGET_SIZE} {TARGET_KIND} generated in "
          f"{target_median:.3f} s median (< {TARGET_SECONDS} s): {'met' if met else 'MISSED'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
