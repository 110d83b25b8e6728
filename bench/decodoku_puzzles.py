"""Decodoku puzzles: the exact solver on every published puzzle, against the flow programme.

Solves the 96 distinct published puzzles (``puzzles/data/decodoku_puzzles.json``)
with the exact solver (``puzzles.engines.decodoku.solver``) and prints, per
puzzle, the fewest links, the top-left answer and its ties, the published
corner digit, the source author's own solution and the time. Then the
figures of ``docs/decodoku-puzzles.md``: how often the published corner
digit is the solver's answer, ties, the distribution of the minimum.

The baseline, measured in the same run: the direct integer programme of
``reference.py`` (a flow per link, solved by HiGHS), on the first published
puzzle with a time limit (``--baseline-seconds``), and on ``--small`` generated
4 x 4 boards, where it finishes, beside the exact solver on the same boards.
Times are CPU seconds of the process (HiGHS runs in it; other work on a shared
machine disturbs them less than wall time). Pure Python, no database. Run
from the repository root::

    python -m bench.decodoku_puzzles [--baseline-seconds 30] [--small 5] [--quiet]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from puzzles.engines.decodoku import solve
from puzzles.engines.decodoku.generate import generate
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.engines.decodoku.reference import fewest_links

TARGET_SECONDS = 1.0  # per published puzzle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-seconds", type=float, default=30.0)
    parser.add_argument("--small", type=int, default=5, help="generated 4 x 4 boards")
    parser.add_argument("--quiet", action="store_true", help="no line per puzzle")
    args = parser.parse_args(argv)

    puzzles = published_puzzles()
    times: list[float] = []
    minimum: Counter[int] = Counter()
    unique_equal = among_answers = tied = author_equal = 0
    if not args.quiet:
        print(
            f"{'numbers':>8} {'links':>5} {'corner':>6} {'ties':>8} {'digit':>5} "
            f"{'author':>6} {'ms':>8}"
        )
    for puzzle in puzzles:
        board = puzzle.board()
        started = time.process_time()
        solution = solve(board)
        seconds = time.process_time() - started
        times.append(seconds)
        if not solution.optimal:
            print(f"puzzle {puzzle.numbers}: not proven optimal", file=sys.stderr)
            return 1
        digit = board.corners[0] if board.corners else -1
        answers = (solution.corner, *solution.ties)
        unique_equal += not solution.ties and digit == solution.corner
        among_answers += digit in answers
        tied += bool(solution.ties)
        minimum[solution.links] += 1
        author = min(min(c) for c in puzzle.solution_links.values())
        author_equal += author == solution.links
        if not args.quiet:
            numbers = ",".join(str(n) for n in puzzle.numbers)
            ties = ",".join(str(t) for t in solution.ties) or "-"
            print(
                f"{numbers:>8} {solution.links:>5} {solution.corner:>6} {ties:>8} "
                f"{digit:>5} {author:>6} {seconds * 1000:8.1f}"
            )

    count = len(puzzles)
    print()
    print(f"published puzzles solved: {count} (all proven optimal)")
    print(
        f"time per puzzle: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms, total {sum(times):.1f} s; "
        f"over {TARGET_SECONDS:.0f} s: {sum(t > TARGET_SECONDS for t in times)}"
    )
    print(
        f"published top-left digit = the unique answer: {unique_equal}/{count}; "
        f"among the tied answers: {among_answers}/{count}"
    )
    print(
        f"puzzles with ties: {tied}; source author's solution = the minimum: {author_equal}/{count}"
    )
    print("fewest links: " + ", ".join(f"{k}: {v}" for k, v in sorted(minimum.items())))

    print()
    print("baseline: the flow programme (reference.py) in the same run")
    first = puzzles[0]
    started = time.process_time()
    reference = fewest_links(first.board(), time_limit=args.baseline_seconds)
    seconds = time.process_time() - started
    limit = f"stopped at the {args.baseline_seconds:.0f} s limit"
    state = "optimal" if reference.optimal else limit
    print(
        f"  puzzle {first.number}: flow programme {seconds:.1f} s ({state}, links "
        f"{reference.links}) against {times[0] * 1000:.0f} ms for the exact solver"
    )
    for seed in range(1, args.small + 1):
        board = generate(seed=seed, rate=0.3, size=4).board
        started = time.process_time()
        exact = solve(board)
        mid = time.process_time()
        flow = fewest_links(board, time_limit=args.baseline_seconds)
        end = time.process_time()
        agree = "agree" if flow.optimal and flow.links == exact.links else "DIFFER"
        print(
            f"  4 x 4 seed {seed}: exact {(mid - started) * 1000:7.1f} ms, flow programme "
            f"{(end - mid) * 1000:8.1f} ms, links {exact.links} / {flow.links} ({agree})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
