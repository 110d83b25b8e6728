"""The preview image of a shared game (Open Graph): its final board and its score card.

A plain function of plain data, drawn with Pillow: no Django, no database.
The image is 1200 by 630 pixels, the size link previews expect. Group colours
follow the play page (``groupHue`` in ``symbols.js``: hues spread by the golden
angle); the group that spanned the grid is outlined.

The text is drawn in DejaVu Sans, shipped with the app
(``games/static/games/fonts/``, with its licence): Pillow's built-in font has
no multiplication sign, no middle dot and no Greek, and drew them as empty
boxes. Phi and Lambda on the board are still drawn as shapes, as before.
"""

from __future__ import annotations

import colorsys
import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

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
# A TrueType font with a glyph for every character the card writes (digits, letters,
# the multiplication sign, middle dot, en dash, Phi, Lambda); see the module's docstring.
# The score card's column: right of the board, to the image's margin.
CARD_WIDTH = WIDTH - 3 * MARGIN - BOARD_PX
MIN_TEXT_PX = 18
FONT_PATH = Path(__file__).resolve().parent / "static" / "games" / "fonts" / "DejaVuSans.ttf"


def group_colour(label: int) -> tuple[int, int, int]:
    """The colour of group ``label``, as the play page draws it (hue by the golden angle)."""
    hue = ((label * 137.508 + 200) % 360) / 360
    red, green, blue = colorsys.hls_to_rgb(hue, 0.42, 0.55)
    return round(red * 255), round(green * 255), round(blue * 255)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The card's font at ``size`` pixels."""
    return ImageFont.truetype(str(FONT_PATH), size=size)


def _fitted(text: str, size: int) -> tuple[str, int]:
    """``text`` with ``size`` lowered (not below ``MIN_TEXT_PX``) until it fits the card."""
    while size > MIN_TEXT_PX and font(size).getlength(text) > CARD_WIDTH:
        size -= 1
    return text, size


def card_texts(*, score: int, headline: str, details: Sequence[str]) -> list[tuple[str, int]]:
    """Every text the score card writes, with its size in pixels, top to bottom."""
    return [
        ("Decodoku", 44),
        ("Score", 34),
        _fitted(str(score), 140),
        _fitted(headline, 32),
        *(_fitted(line, 28) for line in details),
    ]


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
        draw.text((cx, cy), char, font=font(round(cell * 0.55)), fill=TEXT, anchor="mm")


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
    tops = [10, 90, 130, 310, *(365 + number * 44 for number in range(len(details)))]
    colours = [ACCENT, MUTED, TEXT, TEXT, *(MUTED for _ in details)]
    texts = card_texts(score=score, headline=headline, details=details)
    for (text, size), top, colour in zip(texts, tops, colours, strict=True):
        draw.text((x, MARGIN + top), text, font=font(size), fill=colour)
    out = io.BytesIO()
    # A flat palette of few colours: a paletted PNG is small and quick to write.
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()
