"""Ladder hints: how long one hint takes on the grids where the singles have run out.

For each kind, size and level, ``--seeds`` puzzles are generated; each is
solved by following the hints from its empty grid (writing each hinted
number), and every hint that had to climb the ladder
(:func:`puzzles.engines.hints.ladder_hint`) is timed. The table gives the
number of such hints, their median and maximum CPU time, and the median and
maximum number of ladder steps one hint chains before a number is decided.
Pure Python, no database. Run from the repository root::

    python -m bench.ladder_hints [--sizes 6,9] [--seeds 3] [--levels hard,extreme]
"""

from __future__ import annotations

import argparse
import statistics
import time

from puzzles.engines import futoshiki, kenken
from puzzles.engines.hints import TECHNIQUE, next_hint
from puzzles.engines.latin import PuzzleError

MODULES = {"kenken": kenken, "futoshiki": futoshiki}


def run(kind: str, size: int, level: str, seeds: int) -> tuple[list[float], list[int]]:
    times: list[float] = []
    chain: list[int] = []
    for seed in range(seeds):
        try:
            made = MODULES[kind].generate(size=size, seed=seed, difficulty=level)
        except PuzzleError:
            continue
        puzzle, solution = made.puzzle, made.solution
        n = puzzle.size
        grid = [[0] * n for _ in range(n)]
        for index, value in puzzle.given_cells().items():
            grid[index // n][index % n] = value
        while True:
            started = time.process_time()
            hint = next_hint(puzzle, grid, solution=solution)
            spent = time.process_time() - started
            if hint is None or hint.get("value") is None:
                break
            if hint["kind"] == TECHNIQUE:
                times.append(spent)
                chain.append(len(hint["steps"]))
            grid[hint["cell"][0]][hint["cell"][1]] = hint["value"]
    return times, chain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="6,9")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--levels", default="hard,extreme")
    parser.add_argument("--kinds", default="kenken,futoshiki")
    args = parser.parse_args()
    print("| kind | size | level | ladder hints | median ms | max ms | median steps | max steps |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            for level in args.levels.split(","):
                times, chain = run(kind, size, level, args.seeds)
                if not times:
                    print(f"| {kind} | {size} | {level} | 0 | | | | |")
                    continue
                print(
                    f"| {kind} | {size} | {level} | {len(times)} "
                    f"| {statistics.median(times) * 1000:.0f} | {max(times) * 1000:.0f} "
                    f"| {statistics.median(chain):.0f} | {max(chain)} |"
                )


if __name__ == "__main__":
    main()
