"""The puzzle page when the level an ID asks for cannot be reached: a player's message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from puzzles.engines import futoshiki
from puzzles.engines.latin import PuzzleError
from puzzles.models import Attempt
from tests.browser.conftest import DESKTOP, BrowserPage
from tests.browser.helpers import answer_if_asked

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_id_whose_seed_misses_its_level_reads_as_a_player_s_message(
    open_page: Callable[..., BrowserPage],
) -> None:
    # Seed 1 gives no 4 x 4 Futoshiki that needs subsets (tricky).
    with pytest.raises(PuzzleError, match="rated tricky"):
        futoshiki.generate(size=4, seed=1, difficulty="tricky")
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/?id=futoshiki-4-tricky-1"))
    answer_if_asked(page)
    page.click("#pz-start")
    page.wait_for_selector("#pz-new[data-error]")
    shown = page.get_attribute("#pz-new", "data-error") or ""
    assert "asks for a tricky puzzle" in shown
    assert "seed" not in shown
    assert "reached" not in shown
    assert not Attempt.objects.exists()
