"""KenKen generation time against an earlier copy of the engine, on the same seeds.

A change meant as a pure speed-up must give the same puzzle for every seed.
This loads an earlier ``kenken.py`` (for example from git:
``git show <commit>:puzzles/engines/kenken.py > /tmp/kenken_before.py``, a commit
from before the engine became the package ``puzzles/engines/kenken/``)
beside the current one, generates each seed with both, one after the other
in the same process, and prints the CPU seconds of each and whether the two
puzzles are the same JSON. The summary gives the median and maximum of each.
Pure Python, no database. Run from the repository root::

    python -m bench.kenken_tail --before /tmp/kenken_before.py [--size 9]
        [--levels easy,unreasonable] [--seeds 12]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from types import ModuleType
from typing import Any

from puzzles.engines import kenken


def load_before(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("kenken_before", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up in sys.modules while the module runs.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _clear_caches(module: ModuleType) -> None:
    """Each generation starts without the cage fillings of earlier ones."""
    for name in ("_tuples", "_tuples_of_shape", "_supports", "_supports_of_shape"):
        cached = getattr(module, name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def _timed(module: ModuleType, size: int, seed: int, level: str | None) -> tuple[float, Any]:
    _clear_caches(module)
    start = time.process_time()
    try:
        made: Any = module.generate(size=size, seed=seed, difficulty=level).to_dict()
    except kenken.PuzzleError as exc:
        made = str(exc)
    return time.process_time() - start, made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="an earlier kenken.py")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--levels", default="easy,unreasonable", help="any: no level asked")
    parser.add_argument("--seeds", type=int, default=12)
    args = parser.parse_args(argv)
    before = load_before(args.before)
    differ = 0
    for name in args.levels.split(","):
        level = None if name == "any" else name
        old_times, new_times = [], []
        for seed in range(args.seeds):
            old_s, old = _timed(before, args.size, seed, level)
            new_s, new = _timed(kenken, args.size, seed, level)
            same = json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)
            differ += not same
            old_times.append(old_s)
            new_times.append(new_s)
            print(
                f"{args.size}x{args.size} {name:<13} seed {seed:>3}  before {old_s:6.2f} s  "
                f"now {new_s:6.2f} s  {'same' if same else 'DIFFERENT'}",
                flush=True,
            )
        print(
            f"{args.size}x{args.size} {name:<13} "
            f"before: median {statistics.median(old_times):.2f} s max {max(old_times):.2f} s; "
            f"now: median {statistics.median(new_times):.2f} s max {max(new_times):.2f} s",
            flush=True,
        )
    if differ:
        raise SystemExit(f"{differ} seeds gave a different puzzle")


if __name__ == "__main__":
    main()
