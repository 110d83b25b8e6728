"""KenKen and Futoshiki levels: how often asking for a level gives it, and how fast.

For each kind, size and level, ``--seeds`` puzzles are asked for with
``generate(difficulty=level)`` (engine version 2). A hit is a puzzle that
the ladder of :mod:`puzzles.engines.grading` rates exactly that level; a
request that gives up (PuzzleError) is a miss. The baseline, measured in the
same run on the same seeds, is the engine version 1 generator asked for the
nearest level it knew (easy, medium, hard, expert), its puzzles rated by the
same ladder. The level ``any`` asks for no level (version 1 likewise). The
table gives both hit rates and the median and maximum generation times (CPU
seconds of this process, so that other work on the machine counts less).
``kenken-multiply`` (KenKen with multiplication only) has no version 1: its
baseline columns are empty. ``--levels`` keeps some levels only and
``--no-baseline`` skips the version 1 runs (for the slow 9 x 9 tail, say).
Pure Python, no database. Run from the repository root::

    python -m bench.puzzle_levels [--sizes 4,5,6] [--seeds 40] [--kinds kenken,futoshiki]
        [--levels any,easy,unreasonable] [--no-baseline]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from puzzles.engines import futoshiki, kenken
from puzzles.engines.grading import LEVEL_NAMES, grade, ladder_kind
from puzzles.engines.latin import PuzzleError

# The engine version 1 label closest to each level (by rank).
V1_LABEL = ("easy", "medium", "hard", "hard", "expert")
# Per kind: its generator and the module with its sizes (a variant shares its family's).
GENERATORS: dict[str, Callable[..., Any]] = {
    "kenken": kenken.generate,
    "futoshiki": futoshiki.generate,
    "kenken-multiply": kenken.generate_multiply,
}
MODULES: dict[str, Any] = {"kenken": kenken, "futoshiki": futoshiki, "kenken-multiply": kenken}
# Kinds without an engine version 1 to compare with.
NO_BASELINE = {"kenken-multiply"}


def _run(make: Callable[[int], Any], label: str | None, seeds: range) -> tuple[int, float, float]:
    """Hits (any puzzle counts when ``label`` is None), median and maximum seconds."""
    hits = 0
    times = []
    for seed in seeds:
        start = time.process_time()
        try:
            made = make(seed)
        except PuzzleError:
            made = None
        times.append(time.process_time() - start)
        if made is not None and (label is None or grade(made.puzzle).label == label):
            hits += 1
    return hits, statistics.median(times), max(times)


def measure(
    kind: str,
    size: int,
    seeds: range,
    *,
    only: set[str] | None = None,
    with_baseline: bool = True,
) -> list[dict[str, Any]]:
    make = GENERATORS[kind]
    with_baseline = with_baseline and kind not in NO_BASELINE
    rows = []
    levels: list[tuple[str | None, str | None]] = [(None, None)]
    levels += [(label, V1_LABEL[rank]) for rank, label in enumerate(LEVEL_NAMES[ladder_kind(kind)])]
    for label, old in levels:
        if only is not None and (label or "any") not in only:
            continue

        def new(seed: int, label: str | None = label) -> Any:
            return make(size=size, seed=seed, difficulty=label)

        def baseline(seed: int, old: str | None = old) -> Any:
            return make(size=size, seed=seed, difficulty=old, engine_version=1)

        hits, median, most = _run(new, label, seeds)
        if with_baseline:
            base_hits, base_median, base_most = _run(baseline, label, seeds)
        else:
            base_hits, base_median, base_most = 0, float("nan"), float("nan")
        rows.append(
            {
                "kind": kind,
                "size": size,
                "level": label or "any",
                "hit": hits / len(seeds),
                "median_s": median,
                "max_s": most,
                "baseline": (old or "any") if with_baseline else "-",
                "baseline_hit": base_hits / len(seeds),
                "baseline_median_s": base_median,
                "baseline_max_s": base_most,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4,5,6")
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--kinds", default="kenken,futoshiki")
    parser.add_argument("--levels", default=None, help="levels to run (any: no level asked)")
    parser.add_argument("--no-baseline", action="store_true", help="skip engine version 1")
    args = parser.parse_args(argv)
    seeds = range(args.seeds)
    only = set(args.levels.split(",")) if args.levels else None
    print(
        f"{'kind':<15} {'N':>2} {'level':<13} {'hit':>5} {'median s':>9} {'max s':>7}   "
        f"{'baseline (v1)':<13} {'hit':>5} {'median s':>9} {'max s':>7}"
    )
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            if size < MODULES[kind].MIN_SIZE:
                continue
            for row in measure(kind, size, seeds, only=only, with_baseline=not args.no_baseline):
                base = (
                    f"{row['baseline_hit']:>5.0%} {row['baseline_median_s']:>9.3f} "
                    f"{row['baseline_max_s']:>7.2f}"
                    if row["baseline"] != "-"
                    else f"{'-':>5} {'-':>9} {'-':>7}"
                )
                print(
                    f"{row['kind']:<15} {row['size']:>2} {row['level']:<13} {row['hit']:>5.0%} "
                    f"{row['median_s']:>9.3f} {row['max_s']:>7.2f}   {row['baseline']:<13} {base}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
