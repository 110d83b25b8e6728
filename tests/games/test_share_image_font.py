"""The shared game's preview image draws every character it writes (no empty boxes)."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from games import share_image
from games.selectors import shared_game_view
from games.web.views import _draw_shared_image, _rules_text
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db


def _characters_without_glyph(texts: list[tuple[str, int]]) -> set[str]:
    missing: set[str] = set()
    for text, size in texts:
        face = share_image.font(size)
        cmap = TTFont(face.path).getBestCmap()
        missing |= {char for char in text if not char.isspace() and ord(char) not in cmap}
    return missing


@pytest.mark.parametrize(("variant", "mode"), [("z10", "normal"), ("phi_lambda", "practice")])
def test_every_character_the_card_writes_has_a_glyph(player, variant, mode):
    game = play(GameFactory.create(player=player, size=5, variant=variant, mode=mode))
    view = shared_game_view(game=game)
    headline = _rules_text(view, game)
    assert "\u00d7" in headline  # "7 \u00d7 7": the old font drew the sign as a box
    texts = share_image.card_texts(
        score=game.score,
        headline=headline,
        details=["12 moves · 2 rounds", "\u03a6 and \u039b \u2013 end"],
    )
    assert _characters_without_glyph(texts) == set()
    assert _draw_shared_image(game)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_glyph_is_drawn_not_the_missing_glyph_box():
    face = share_image.font(32)
    box = face.getmask("\U0010fffd").getbbox()  # no font draws a private-use character
    for char in "\u00d7\u00b7\u2013\u03a6\u039b":
        assert face.getmask(char).getbbox() != box, f"{char!r} is drawn as the missing glyph"


def test_long_lines_are_shrunk_to_fit_the_card():
    long = "A group spanned the grid from top to bottom after 400 moves"
    texts = share_image.card_texts(
        score=123456, headline="Phi-Lambda, 12 \u00d7 12, practice", details=[long]
    )
    for text, size in texts:
        assert share_image.font(size).getlength(text) <= share_image.CARD_WIDTH or (
            size == share_image.MIN_TEXT_PX
        )
