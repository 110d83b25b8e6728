"""On a 390 x 844 touch phone: what a step or an ending shows comes into view with its board.

Screenshots: ``artifacts/screenshots/phone-*.png``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import cell, drag, text
from tests.browser.test_phone import assert_no_sideways_scroll, assert_on_screen, box_of
from tests.browser.test_planar_play import (
    choose_planar,
    play_to_the_end,
    wait_for_planar_board,
)
from tests.browser.test_play import recorded_game, start_from_home

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The smallest target a finger is asked to hit, and the size wanted where there is room.
MIN_TARGET = 24
GOOD_TARGET = 44


def assert_step_in_view(page: Page, step: str) -> None:
    """The board, the step's text and its Next (or Play now) button are all on screen."""
    for selector in ("#board", "#tutorial-text"):
        assert_on_screen(page, selector)
    button = "#tutorial-play" if page.is_visible("#tutorial-play") else "#tutorial-next"
    assert_on_screen(page, button)
    assert_no_sideways_scroll(page)
    assert step in text(page, "#tutorial-progress")


def test_every_tutorial_step_shows_its_text_and_next_button_with_the_board_on_a_phone(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    page.goto(bp.url("/tutorial/"))
    page.wait_for_selector("#tutorial-text p")
    assert_step_in_view(page, "1 of 6")
    bp.screenshot("phone-tutorial-step-1")
    page.click("#tutorial-next")
    assert_step_in_view(page, "2 of 6")
    drag(page, (2, 1), (2, 2))
    page.wait_for_selector(".tutorial-task.is-done")
    assert_step_in_view(page, "2 of 6")
    bp.screenshot("phone-tutorial-step-2-done")
    page.click("#tutorial-next")
    assert_step_in_view(page, "3 of 6")
    cell(page, 1, 1).click()
    cell(page, 1, 2).click()
    cell(page, 1, 2).click()
    cell(page, 2, 2).click()
    page.wait_for_selector(".tutorial-task.is-done")
    assert_step_in_view(page, "3 of 6")
    page.click("#tutorial-next")
    assert_step_in_view(page, "4 of 6")
    page.click("#tutorial-next")  # let the noise in
    assert_step_in_view(page, "4 of 6")
    page.click("#tutorial-next")
    assert_step_in_view(page, "5 of 6")
    bp.screenshot("phone-tutorial-step-5")
    cell(page, 3, 1).click()
    cell(page, 2, 1).click()
    page.wait_for_selector(".tutorial-task.is-done")
    assert_step_in_view(page, "5 of 6")
    page.click("#tutorial-next")
    assert_step_in_view(page, "6 of 6")
    bp.screenshot("phone-tutorial-step-6")
    # Back goes to the step before, in view too.
    page.click("#tutorial-back")
    assert_step_in_view(page, "5 of 6")
    bp.assert_clean()


def _start_planar(bp: BrowserPage, size: int) -> None:
    page = bp.page
    # A board drawn clean at once is finished: start again (six tries).
    for _attempt in range(6):
        choose_planar(page, size=size, modulus=10, rate="0.12")
        page.click("#new-game")
        if page.is_visible("#new-game-help"):
            page.click("#new-game")
        wait_for_planar_board(page, size)
        if recorded_game(family="planar").status == "active":
            return
    raise AssertionError("six boards in a row were drawn clean")


@pytest.mark.parametrize(("viewport", "size"), [(PHONE, 5), (PHONE, 12), (DESKTOP, 7)])
def test_the_planar_side_exits_are_targets_a_finger_can_hit(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], size: int
) -> None:
    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    start_from_home(bp)
    choose_planar(page, size=size, modulus=2, rate="0.02")
    page.click("#new-game")
    if page.is_visible("#new-game-help"):
        page.click("#new-game")
    wait_for_planar_board(page, size)
    assert_no_sideways_scroll(page)
    cell_box = box_of(page, '#board .cell[data-row="0"][data-col="0"]')
    exits = page.locator(".planar-side-left .planar-exit, .planar-side-right .planar-exit")
    assert exits.count() == 2 * size
    for index in range(exits.count()):
        box = exits.nth(index).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= viewport["width"]
        assert min(box["width"], box["height"]) >= MIN_TARGET, box
        # As wide as a cell up to 44 px: 44 where the board leaves room for it.
        assert box["width"] >= min(GOOD_TARGET, cell_box["width"]) - 1, (box, cell_box)
    bp.screenshot(f"phone-planar-exits-{size}" if viewport == PHONE else "planar-exits-desktop")
    bp.assert_clean()


def test_a_planar_game_ends_with_its_card_on_screen_and_a_replay_bar_counting_moves(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    _start_planar(bp, 5)
    play_to_the_end(page, recorded_game(family="planar"))
    page.wait_for_selector("#replaybar:not([hidden])")
    page.wait_for_timeout(300)  # the status line under the board comes in after the card
    landing = str(bp.screenshot("phone-planar-game-over"))
    page.screenshot(path=landing.replace(".png", "-screen.png"))
    # Focus is on the card, and the card (result, Play again, Share) is on screen.
    assert page.evaluate("() => document.activeElement.id") == "gameover-title"
    # (The chain picture's legend and layers come between the board and the card: the
    # card comes first, the board is one swipe up.)
    for part in ("#gameover-title", "#final-score", "#play-again", "#share-button"):
        assert_on_screen(page, part)
    assert text(page, "#final-score-label") == "Moves"
    label = text(page, "#replay-label")
    assert "score" not in label.lower(), label
    assert label.startswith("After move")
    bp.screenshot("phone-planar-game-over")
    page.click("#replay-first")
    page.click("#replay-next")
    assert "score" not in text(page, "#replay-label").lower()
    bp.assert_clean()


def test_a_decodoku_game_shown_ended_on_a_phone_brings_its_card_into_view(
    open_page: Callable[..., BrowserPage],
) -> None:
    from tests.factories import play

    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    game = play(recorded_game(family=""))
    page.goto(bp.url(f"/play/?game={game.pk}"))
    page.wait_for_selector("#gameover:not([hidden])")
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    page.wait_for_timeout(300)
    landing = str(bp.screenshot("phone-game-over-7"))
    page.screenshot(path=landing.replace(".png", "-screen.png"))
    # The card's result and buttons, the replay controls and the board's last row are on screen (the
    # explanation of the spanning group under the board leaves no room for all of it).
    for part in ("#gameover-title", "#final-score", "#play-again", "#share-button"):
        assert_on_screen(page, part)
    assert_on_screen(page, "#replay-first")
    assert_on_screen(page, '#board .cell[data-row="6"][data-col="0"]')
    # Decodoku keeps its score in the replay bar: its counter says Score.
    assert "score" in text(page, "#replay-label")
    bp.screenshot("phone-game-over-7")
    bp.assert_clean()
