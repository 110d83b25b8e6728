"""Save-file reader benchmark: hostile files against a plain save of the same size.

For each size (default 256 KiB, 1 MiB and 2 MiB, the upload limit), builds a plain well-formed
save file (7 x 7 boards, step after step) and hostile files of the same size:
the worst cases the property tests and the attack reports found (an unclosed
quote followed by line breaks, a quoted field of doubled quotes spanning many
lines, one line of commas, a line of digits, blank lines before any step,
header lines that look almost like steps). Each file is read with
``read_save`` (refusals included: refusing must be as fast as reading) and
timed; the figures are microseconds per KiB and the ratio to the plain file
of the same size, measured in the same run.

Targets (``--check``): every hostile file reads within ``TARGET_RATIO`` times
the plain file of its size, and the growth of its time per KiB from the
smallest to the largest size, divided by the plain file's growth (which the
machine's load and memory effects share), is at most ``TARGET_GROWTH``
(linear time: the cost per KiB does not grow with the size); cases that
take under 5% of the plain file's time are exempt from the growth target.

Run from the repository root::

    python -m bench.legacy_reader [--sizes 256,1024,2048] [--repeat 2] [--check]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from games.engine.legacy import LegacyFormatError, read_save

TARGET_RATIO = 5.0
# Linear time keeps the cost per KiB flat; quadratic time would multiply it by
# 8 from 256 KiB to 2 MiB. The margin absorbs a busy machine's noise.
TARGET_GROWTH = 3.0
NEGLIGIBLE = 0.05


def _fill(head: bytes, unit: bytes, size: int, tail: bytes = b"") -> bytes:
    body = size - len(head) - len(tail)
    return head + (unit * (body // len(unit) + 1))[:max(body, 0)] + tail


def plain(size: int) -> bytes:
    """A well-formed save: 7 x 7 boards, one step after another."""
    rows = [",,," + ",".join(["5(1)", "5(1)", ".", ".", ".", ".", "."]) + ",\n"]
    rows += [",,,.,.,.,.,.,.,.,\n"] * 6
    out, t = [], 0
    total = 0
    while True:
        step = f"{t}\n{''.join(rows)}\n".encode()
        if total + len(step) > size:
            break
        out.append(step)
        total += len(step)
        t += 1
    return b"".join(out) + b"\n" * (size - total)  # blank lines to the exact size


CASES: dict[str, Callable[[int], bytes]] = {
    "unclosed quote, then line breaks": lambda n: _fill(b'0\n"', b"\n", n),
    "unclosed quote, then CR LF": lambda n: _fill(b'0\n"', b"\r\n", n),
    "doubled quotes over many lines": lambda n: _fill(b'0\n"', b'""\n', n),
    "quoted comment closed at the end": lambda n: _fill(b'0,"', b"x\n", n, b'"\n'),
    "one line of commas": lambda n: _fill(b"0\n", b",", n),
    "one line of digits": lambda n: _fill(b"", b"9", n),
    "blank lines, no step": lambda n: _fill(b"", b",,,\n", n),
    "header lines like numbers": lambda n: _fill(b"", b"-1,x\n", n),
    "cells with huge group ids": lambda n: _fill(b"0\n", b",,,5(" + b"9" * 60 + b"),\n", n),
    "NUL at the end": lambda n: plain(n - 1) + b"\x00",
    "quote opened in the last step": lambda n: plain(n - 2) + b'"\n',
}


def _time(data: bytes, repeat: int) -> tuple[float, str]:
    best = float("inf")
    outcome = ""
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            read_save(data)
            outcome = "read"
        except LegacyFormatError as exc:
            outcome = f"refused: {exc.code}"
        best = min(best, time.perf_counter() - start)
    return best, outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,1024,2048", help="sizes in KiB")
    parser.add_argument("--repeat", type=int, default=2, help="best of this many reads")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    sizes = [int(s) * 1024 for s in args.sizes.split(",")]
    per_kib: dict[str, list[float]] = {}
    failures = []
    print(f"{'case':36} {'KiB':>6} {'us/KiB':>9} {'x plain':>8}  outcome")
    for size in sizes:
        base, outcome = _time(plain(size), args.repeat)
        kib = size / 1024
        per_kib.setdefault("plain save", []).append(base / kib * 1e6)
        print(f"{'plain save':36} {kib:6.0f} {base / kib * 1e6:9.1f} {1:8.2f}  {outcome}")
        for name, build in CASES.items():
            data = build(size)
            elapsed, outcome = _time(data, args.repeat)
            ratio = elapsed / base
            per_kib.setdefault(name, []).append(elapsed / kib * 1e6)
            print(f"{name:36} {kib:6.0f} {elapsed / kib * 1e6:9.1f} {ratio:8.2f}  {outcome}")
            if ratio > TARGET_RATIO:
                failures.append(f"{name} at {kib:.0f} KiB: {ratio:.2f}x the plain save")
    print()
    print(f"{'case':36} {'us/KiB growth':>14} {'/ plain growth':>15}")
    plain_growth = per_kib["plain save"][-1] / per_kib["plain save"][0]
    for name, figures in per_kib.items():
        growth = figures[-1] / figures[0]
        print(f"{name:36} {growth:14.2f} {growth / plain_growth:15.2f}")
        # A case refused in a few per cent of the plain file's time is timer and
        # cache noise at the small sizes, not a quadratic cost.
        negligible = figures[-1] < NEGLIGIBLE * per_kib["plain save"][-1]
        if len(figures) > 1 and growth / plain_growth > TARGET_GROWTH and not negligible:
            failures.append(f"{name}: time per KiB grew {growth:.2f}x with the size")
    if args.check and failures:
        print("\nmissed targets:\n  " + "\n  ".join(failures))
        return 1
    if args.check:
        print(f"\nall targets met (ratio <= {TARGET_RATIO}, growth <= {TARGET_GROWTH})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
