"""How long drawing a shared game's preview image takes, against a plain Pillow baseline.

The baseline draws the same card and writes it as Pillow's optimised RGB PNG
(``optimize=True``); ``games.share_image`` writes a 64-colour paletted PNG.
Prints the median time and the size of each, per board size. Run from the
repository root::

    python -m bench.share_image [--repeats 15] [--check]

``--check`` exits 1 when the median at L = 7 is over the target (150 ms).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from unittest import mock

from PIL import Image

from games import share_image

TARGET_MS = 150.0


def _card(size: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    rows = ["".join(rng.choice("0001234567899") for _ in range(size)) for _ in range(size)]
    groups = [[rng.randint(0, 9) for _ in range(size)] for _ in range(size)]
    return {
        "rows": rows,
        "groups": groups,
        "spanning": 3,
        "score": 42,
        "headline": f"Z10, {size} by {size}",
        "details": ["40 moves, 8 rounds", "A group spanned the grid from top to bottom"],
    }


def _time(draw: Callable[[], bytes], repeats: int) -> tuple[float, int]:
    times = []
    size = 0
    for _ in range(repeats):
        start = time.perf_counter()
        size = len(draw())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def _baseline(card: dict[str, object]) -> bytes:
    """The same drawing, written as Pillow's optimised RGB PNG, with no cached fonts."""
    original_save = Image.Image.save

    def save(self: Image.Image, fp: io.BytesIO, format: str | None = None, **_: object) -> None:
        original_save(self.convert("RGB"), fp, format=format, optimize=True)

    with mock.patch.object(Image.Image, "quantize", lambda self, **_: self), mock.patch.object(
        Image.Image, "save", save
    ):
        share_image._font.cache_clear()
        return share_image.render_share_card(**card)  # type: ignore[arg-type]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="drawings per figure (15)")
    parser.add_argument("--check", action="store_true", help="exit 1 when over the target")
    args = parser.parse_args()
    print(f"{'L':>3} {'baseline ms':>12} {'bytes':>8} {'served ms':>10} {'bytes':>8} {'ratio':>6}")
    at_seven = 0.0
    for size in (7, 15, 25):
        card = _card(size, seed=size)
        base_ms, base_bytes = _time(lambda card=card: _baseline(card), args.repeats)
        ms, size_bytes = _time(
            lambda card=card: share_image.render_share_card(**card),  # type: ignore[arg-type]
            args.repeats,
        )
        if size == 7:
            at_seven = ms
        print(
            f"{size:>3} {base_ms:>12.1f} {base_bytes:>8} {ms:>10.1f} {size_bytes:>8} "
            f"{ms / base_ms:>6.2f}"
        )
    print(f"target: at most {TARGET_MS:.0f} ms at L = 7; measured {at_seven:.1f} ms")
    return 1 if args.check and at_seven > TARGET_MS else 0


if __name__ == "__main__":
    raise SystemExit(main())
