"""Which levels the puzzle menus offer: measured per kind, size and level.

A level is offered for a kind and size only when the generator delivers it for
at least ``--needed`` (19) of ``--seeds`` (20) fresh random seeds, each within
``--budget`` (4) CPU seconds: so the 95th percentile of the time to a puzzle is
under the budget, and a failure is rare enough for the page to try a second
seed on its own. A request that raises ``PuzzleError`` (the level was not
reached, or the size is beyond the level's limit) or runs past the budget is a
miss; once a cell has more misses than it may have, it stops early (so that a
slow cell costs two budgets, not twenty). ``any`` asks for no level.

The result is the data file the site reads, ``puzzles/data/offered_levels.json``
(:mod:`puzzles.offered`): the cells measured now replace the same cells of the
file, the others are kept, so a kind or size may be measured again alone (a
size listed under ``not_measured``, left out by a run cut short, leaves that
list once measured). A
change of a kind's engine version makes ``tests/puzzles/test_offered_levels.py``
fail until the kind is measured again. Pure Python, no database; the budget is
counted in processor time of this process (an interval timer, ``ITIMER_PROF``),
so that other work on the machine counts less. Run from the repository root::

    python -m bench.offered_levels [--kinds kenken,futoshiki] [--sizes 4,5]
        [--seeds 20] [--needed 19] [--budget 4] [--out puzzles/data/offered_levels.json]
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import signal
import sys
import time
from pathlib import Path
from typing import Any

from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import KINDS, PuzzleKind
from puzzles.offered import ANY, DATA_PATH, menu_levels

SEED_BITS = 53  # the page's seeds: JavaScript reads them exactly


class OverBudget(Exception):
    """The generation ran past its processor-time budget."""


def _over_budget(signum: int, frame: Any) -> None:
    raise OverBudget


def try_once(kind: PuzzleKind, *, size: int, level: str, seed: int, budget: float) -> float | None:
    """CPU seconds to a puzzle of the level, or None for a miss (an error, or over budget)."""
    previous = signal.signal(signal.SIGPROF, _over_budget)
    start = time.process_time()
    try:
        signal.setitimer(signal.ITIMER_PROF, budget)
        kind.generate(size=size, seed=seed, difficulty=None if level == ANY else level)
    except (PuzzleError, OverBudget):
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    return time.process_time() - start


def measure_cell(
    kind: PuzzleKind, *, size: int, level: str, seeds: int, needed: int, budget: float
) -> dict[str, Any]:
    times: list[float] = []
    missed: list[int] = []
    for _ in range(seeds):
        seed = secrets.randbits(SEED_BITS)
        spent = try_once(kind, size=size, level=level, seed=seed, budget=budget)
        if spent is None:
            missed.append(seed)
            if len(missed) > seeds - needed:
                break
        else:
            times.append(spent)
    tried = len(times) + len(missed)
    offered = len(times) >= needed
    ordered = sorted(times)
    p95 = ordered[math.ceil(0.95 * len(ordered)) - 1] if ordered else None
    return {
        "kind": kind.name,
        "size": size,
        "level": level,
        "tried": tried,
        "delivered": len(times),
        "p95_s": None if p95 is None else round(p95, 3),
        "max_s": round(max(times), 3) if times else None,
        "missed_seeds": missed,
        "offered": offered,
    }


def _order(cell: dict[str, Any]) -> tuple[str, int, int]:
    """Kind, size, then the level's rank (``any`` first)."""
    levels = (ANY, *menu_levels(cell["kind"]))
    rank = levels.index(cell["level"]) if cell["level"] in levels else len(levels)
    return cell["kind"], cell["size"], rank


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default=",".join(k for k in KINDS if menu_levels(k)))
    parser.add_argument("--sizes", default=None, help="sizes to run (default: every size)")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--needed", type=int, default=19)
    parser.add_argument("--budget", type=float, default=4.0, help="CPU seconds per puzzle")
    parser.add_argument("--out", type=Path, default=DATA_PATH)
    args = parser.parse_args(argv)
    if not 0 < args.needed <= args.seeds:
        parser.error("--needed must be between 1 and --seeds")
    names = args.kinds.split(",")
    unknown = [name for name in names if name not in KINDS]
    if unknown:
        parser.error(f"unknown kind {', '.join(unknown)} (one of {', '.join(KINDS)})")
    table = json.loads(args.out.read_text()) if args.out.exists() else {"cells": []}
    cells = {(c["kind"], c["size"], c["level"]): c for c in table["cells"]}
    for name in names:
        kind = KINDS[name]
        sizes = range(kind.min_size, kind.max_size + 1)
        if args.sizes:
            sizes = [
                int(s) for s in args.sizes.split(",") if kind.min_size <= int(s) <= kind.max_size
            ]
        for size in sizes:
            for level in (ANY, *menu_levels(name)):
                cell = measure_cell(
                    kind,
                    size=size,
                    level=level,
                    seeds=args.seeds,
                    needed=args.needed,
                    budget=args.budget,
                )
                cells[(name, size, level)] = cell
                print(
                    f"{name:<19} {size:>2} {level:<13} {cell['delivered']:>2}/{cell['tried']:<2} "
                    f"p95 {cell['p95_s']!s:>6} max {cell['max_s']!s:>6} "
                    f"{'offered' if cell['offered'] else '-'}",
                    flush=True,
                )
        table.setdefault("engine_versions", {})[name] = kind.engine_version
        # Sizes left out of a run cut short (not offered until measured).
        left = table.setdefault("not_measured", {})
        left[name] = [size for size in left.get(name, []) if size not in sizes]
        if not left[name]:
            del left[name]
        # Written after each kind, so that a long run interrupted keeps what it measured.
        table.update(
            {
                "seeds": args.seeds,
                "needed": args.needed,
                "budget_s": args.budget,
                "cells": sorted(cells.values(), key=_order),
            }
        )
        args.out.write_text(json.dumps(table, indent=1) + "\n")
    print(f"written {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
