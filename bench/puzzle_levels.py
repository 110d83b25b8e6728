"""KenKen and Futoshiki levels: how often asking for a level gives it, and how fast.

For each kind, size and level, ``--seeds`` puzzles are asked for with
``generate(difficulty=level)`` (today's engine version, 3). A hit is a puzzle
that today's ladder (:mod:`puzzles.engines.grading`, ``LADDER_V3``) rates
exactly that level; a request that gives up (PuzzleError) is a miss. The
baseline, measured in the same run on the same seeds, is an earlier engine
version asked for its level of the same rank, its puzzles rated by its own
ladder: ``--baseline 2`` (the default; engine version 2 and ``LADDER_V2``)
or ``--baseline 1`` (engine version 1 asked for the nearest label it knew,
easy, medium, hard or expert, rated by ``LADDER_V3``). The level ``any`` asks
for no level. The table gives both hit rates and the median and maximum
generation times (CPU seconds of this process, so that other work on the
machine counts less). ``--levels`` keeps some levels only and
``--no-baseline`` skips the baseline runs (for the slow 9 x 9 tail, say).
Pure Python, no database. Run from the repository root::

    python -m bench.puzzle_levels [--sizes 4,5,6] [--seeds 40]
        [--kinds kenken,futoshiki,kenken-multiply,futoshiki-adjacent]
        [--levels any,easy,unreasonable] [--baseline 2] [--no-baseline]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from puzzles.engines import futoshiki, kenken
from puzzles.engines.grading import LEVEL_NAMES, Ladder, grade, ladder_for, ladder_kind
from puzzles.engines.latin import PuzzleError

# The engine version 1 label closest to each level (by rank).
V1_LABEL = ("easy", "medium", "hard", "hard", "expert")
# Per kind: its generator and the module with its sizes (a sub-kind shares its base kind's).
GENERATORS: dict[str, Callable[..., Any]] = {
    "kenken": kenken.generate,
    "futoshiki": futoshiki.generate,
    "kenken-multiply": kenken.generate_multiply,
    "futoshiki-adjacent": futoshiki.generate_adjacent,
}
MODULES: dict[str, Any] = {
    "kenken": kenken,
    "futoshiki": futoshiki,
    "kenken-multiply": kenken,
    "futoshiki-adjacent": futoshiki,
}
# Per kind and baseline: the engine version to ask for and the ladder version that
# grades it (the Adjacent variant numbers its versions on its own).
BASELINES: dict[str, dict[int, tuple[int, int]]] = {
    "kenken": {1: (1, 3), 2: (2, 2)},
    "futoshiki": {1: (1, 3), 2: (2, 2)},
    "kenken-multiply": {2: (2, 2)},
    "futoshiki-adjacent": {2: (1, 2)},
}


def _run(
    make: Callable[[int], Any], label: str | None, seeds: range, ladder: Ladder
) -> tuple[int, float, float]:
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
        if made is not None and (label is None or grade(made.puzzle, ladder=ladder).label == label):
            hits += 1
    return hits, statistics.median(times), max(times)


def measure(
    kind: str,
    size: int,
    seeds: range,
    *,
    only: set[str] | None = None,
    baseline: int | None = 2,
) -> list[dict[str, Any]]:
    make = GENERATORS[kind]
    versions = BASELINES[kind].get(baseline) if baseline is not None else None
    today = ladder_for(kind)
    old_ladder = ladder_for(kind, versions[1]) if versions else today
    rows = []
    for rank, label in enumerate([None, *LEVEL_NAMES[ladder_kind(kind)]]):
        if only is not None and (label or "any") not in only:
            continue
        old: str | None = None
        if label is not None:
            old = V1_LABEL[rank - 1] if baseline == 1 else old_ladder.label(rank)

        def new(seed: int, label: str | None = label) -> Any:
            return make(size=size, seed=seed, difficulty=label)

        hits, median, most = _run(new, label, seeds, today)
        if versions is not None:

            def before(seed: int, old: str | None = old, version: int = versions[0]) -> Any:
                return make(size=size, seed=seed, difficulty=old, engine_version=version)

            # A hit of the baseline: the level of the same rank on the ladder it grades on
            # (engine version 1 had no ladder: today's grades it).
            wanted = None if label is None else old_ladder.label(rank)
            base_hits, base_median, base_most = _run(before, wanted, seeds, old_ladder)
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
                "baseline": f"v{versions[0]} {old or 'any'}" if versions else "-",
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
    parser.add_argument(
        "--baseline", type=int, default=2, choices=[1, 2], help="engine version to compare with"
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip the baseline")
    args = parser.parse_args(argv)
    seeds = range(args.seeds)
    only = set(args.levels.split(",")) if args.levels else None
    print(
        f"{'kind':<15} {'N':>2} {'level':<13} {'hit':>5} {'median s':>9} {'max s':>7}   "
        f"{'baseline':<17} {'hit':>5} {'median s':>9} {'max s':>7}"
    )
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            if size < MODULES[kind].MIN_SIZE:
                continue
            baseline = None if args.no_baseline else args.baseline
            for row in measure(kind, size, seeds, only=only, baseline=baseline):
                base = (
                    f"{row['baseline_hit']:>5.0%} {row['baseline_median_s']:>9.3f} "
                    f"{row['baseline_max_s']:>7.2f}"
                    if row["baseline"] != "-"
                    else f"{'-':>5} {'-':>9} {'-':>7}"
                )
                print(
                    f"{row['kind']:<15} {row['size']:>2} {row['level']:<13} {row['hit']:>5.0%} "
                    f"{row['median_s']:>9.3f} {row['max_s']:>7.2f}   {row['baseline']:<17} {base}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
