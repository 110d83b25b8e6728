"""How long generating a Futoshiki takes by size, for both kinds (signs and Adjacent).

Run: ``python -m bench.futoshiki_sizes --kind futoshiki --sizes 9,10,11,12 --seeds 5``.
Prints, per size, the CPU seconds of one puzzle without ``--difficulty`` (one square
thinned out for "tricky", kept whatever its rating), median and largest over the seeds
0..S-1, and the levels the puzzles got. CPU time of the process, so that other work on
the machine counts less than in wall-clock time; the figures in docs/puzzles.md come
from this script.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from puzzles.engines.registry import get_kind


def measure(kind: str, size: int, seeds: int) -> tuple[float, float, Counter[str]]:
    generate = get_kind(kind).generate
    times = []
    labels: Counter[str] = Counter()
    for seed in range(seeds):
        start = time.process_time()
        made = generate(size=size, seed=seed)
        times.append(time.process_time() - start)
        labels[made.to_dict()["difficulty"]["label"]] += 1
    return statistics.median(times), max(times), labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="futoshiki", choices=["futoshiki", "futoshiki-adjacent"])
    parser.add_argument("--sizes", default="9,10,11")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print("kind size median_s max_s levels")
    for size in (int(s) for s in args.sizes.split(",")):
        median, top, labels = measure(args.kind, size, args.seeds)
        levels = " ".join(f"{label}:{count}" for label, count in sorted(labels.items()))
        print(f"{args.kind} {size} {median:.2f} {top:.2f} {levels}", flush=True)


if __name__ == "__main__":
    main()
