"""The preview image of a shared game (Open Graph): its final board and its score card.

A plain function of plain data, drawn with Pillow: no Django, no database.
The image is 1200 by 630 pixels, the size link previews expect. Group colours
follow the play page (``groupHue`` in ``symbols.js``: hues spread by the golden
angle); the group that spanned the grid is outlined.

Pillow's built-in font has no Greek letters, so Phi and Lambda (the symbols
of partially observed save files) are drawn as shapes.
"""

from __future__ import annotations

import colorsys
import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
MARGIN = 45
BOARD_PX = HEIGHT - 2 * MARGIN
BACKGROUND = (22, 27, 38)
PANEL = (34, 41, 56)
EMPTY = (46, 55, 74)
TEXT = (236, 240, 247)
MUTED = (160, 172, 192)
ACCENT = (255, 196, 0)


def group_colour(label: int) -> tuple[int, int, int]:
    """The colour of group ``label``, as the play page draws it (hue by the golden angle)."""
    hue = ((label * 137.508 + 200) % 360) / 360
    red, green, blue = colorsys.hls_to_rgb(hue, 0.42, 0.55)
    return round(red * 255), round(green * 255), round(blue * 255)


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _draw_symbol(
    draw: ImageDraw.ImageDraw, char: str, box: tuple[float, float, float, float]
) -> None:
    """One cell's symbol centred in ``box``: a digit as text, P (Phi) and L (Lambda) as shapes."""
    left, top, right, bottom = box
    cell = right - left
    cx, cy = (left + right) / 2, (top + bottom) / 2
    width = max(2, round(cell / 14))
    if char == "P":
        r = cell * 0.2
        draw.ellipse((cx - r, cy - r * 0.8, cx + r, cy + r * 0.8), outline=TEXT, width=width)
        draw.line((cx, cy - cell * 0.32, cx, cy + cell * 0.32), fill=TEXT, width=width)
    elif char == "L":
        half = cell * 0.22
        draw.line((cx - half, cy + cell * 0.28, cx, cy - cell * 0.28), fill=TEXT, width=width)
        draw.line((cx, cy - cell * 0.28, cx + half, cy + cell * 0.28), fill=TEXT, width=width)
    else:
        draw.text((cx, cy), char, font=_font(round(cell * 0.55)), fill=TEXT, anchor="mm")


def _draw_board(
    draw: ImageDraw.ImageDraw,
    rows: Sequence[str],
    groups: Sequence[Sequence[int]] | None,
    spanning: int | None,
) -> None:
    size = len(rows)
    gap = max(2, round(BOARD_PX / size / 12))
    cell = (BOARD_PX - gap * (size + 1)) / size
    draw.rounded_rectangle(
        (MARGIN, MARGIN, MARGIN + BOARD_PX, MARGIN + BOARD_PX), radius=18, fill=PANEL
    )
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            left = MARGIN + gap + c * (cell + gap)
            top = MARGIN + gap + r * (cell + gap)
            box = (left, top, left + cell, top + cell)
            label = groups[r][c] if groups is not None else 0
            empty = char == "0"
            fill = EMPTY if empty or not label else group_colour(label)
            if not empty and not label:
                fill = (70, 82, 108)
            draw.rounded_rectangle(box, radius=max(3, round(cell / 8)), fill=fill)
            if spanning is not None and label == spanning and not empty:
                draw.rounded_rectangle(
                    box, radius=max(3, round(cell / 8)), outline=ACCENT, width=max(3, gap)
                )
            if not empty:
                _draw_symbol(draw, char, box)


def render_share_card(
    *,
    rows: Sequence[str],
    groups: Sequence[Sequence[int]] | None,
    spanning: int | None,
    score: int,
    headline: str,
    details: Sequence[str],
) -> bytes:
    """The PNG of a shared game: the final board on the left, the score card on the right.

    ``rows`` is the board as the API gives it (one character per cell: ``0``
    empty, ``1``-``9`` a value, ``P``/``L`` Phi and Lambda); ``groups`` the group
    id of every cell or None; ``spanning`` the group that ended the game.
    """
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if rows:
        _draw_board(draw, rows, groups, spanning)
    x = MARGIN * 2 + BOARD_PX
    draw.text((x, MARGIN + 10), "Decodoku", font=_font(44), fill=ACCENT)
    draw.text((x, MARGIN + 90), "Score", font=_font(34), fill=MUTED)
    draw.text((x, MARGIN + 130), str(score), font=_font(140), fill=TEXT)
    draw.text((x, MARGIN + 310), headline, font=_font(32), fill=TEXT)
    for number, line in enumerate(details):
        draw.text((x, MARGIN + 365 + number * 44), line, font=_font(28), fill=MUTED)
    out = io.BytesIO()
    # A flat palette of few colours: a paletted PNG is small and quick to write.
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()
