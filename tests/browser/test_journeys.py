"""Player journeys on a phone (390 x 844) and a desktop (1280 x 800), checked by geometry:
no sideways scrolling, and what a player needs in sight without hunting for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import (
    answer_research_question,
    board_symbols,
    click_move,
    pick_move,
    wait_for_moves,
)
from tests.browser.test_phone import assert_on_screen, box_of, name
from tests.browser.test_play import start_from_home

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def assert_no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    inner = page.evaluate("() => window.innerWidth")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


def assert_within_width(page: Page, selector: str) -> None:
    """Every element ``selector`` matches lies between the screen's left and right edges."""
    inner = page.evaluate("() => window.innerWidth")
    boxes = page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.right, e.textContent.trim()]; })",
    )
    assert boxes, f"nothing matches {selector}"
    for left, right, label in boxes:
        assert left >= -0.5, f"{label!r} ({selector}) starts left of the screen"
        assert right <= inner + 0.5, f"{label!r} ({selector}) ends right of the screen"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_new_visitor_arriving_by_the_menu_sees_consent_and_start_at_once(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    from games.models import Game, Player

    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    page.goto(bp.url("/tutorial/"))
    page.click(".site-nav >> text=Play")
    page.wait_for_url("**/play/")
    page.wait_for_selector("#consent-yes")
    page.wait_for_load_state("networkidle")
    for selector in ("#consent-title", "#consent-yes", "#consent-no", "#new-game"):
        assert_on_screen(page, selector)
    assert_no_sideways_scroll(page)
    assert Player.objects.count() == 0, "nothing is recorded before the visitor chooses"
    bp.screenshot(f"play-new-visitor-{name(viewport)}")
    answer_research_question(page, yes=True)
    page.click("#new-game")
    page.wait_for_selector('#board[data-mode="play"]')
    # Once the game starts, the board leads the page.
    assert_on_screen(page, "#board")
    assert Game.objects.get().research_consent is True
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_writing_a_note_leaves_the_board_where_it_is(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    start_from_home(bp)
    for made in range(3):
        source, target = pick_move(board_symbols(page))
        click_move(page, source, target)
        wait_for_moves(page, made + 1)
    # The last move's note button near the bottom of the screen: its box opens below it.
    page.evaluate(
        """() => {
            const b = document.querySelector('#move-list li[data-index="3"] .note-button');
            const y = b.getBoundingClientRect().bottom + window.scrollY;
            window.scrollTo({top: Math.max(0, y - window.innerHeight + 24), behavior: 'instant'});
        }"""
    )
    page.locator('#move-list li[data-index="3"] .note-button').scroll_into_view_if_needed()
    before = box_of(page, "#board")["y"]
    scrolled = page.evaluate("() => window.scrollY")
    page.locator('#move-list li[data-index="3"] .note-button').click()
    page.wait_for_selector("#note-3")
    page.keyboard.type("Keeping the 3 away from the edge")
    assert page.evaluate("() => document.activeElement.id") == "note-3"
    assert page.evaluate("() => window.scrollY") == scrolled, "the page scrolled"
    assert abs(box_of(page, "#board")["y"] - before) <= 1, "the board moved"
    # The box being written in is in sight, within the screen.
    assert_on_screen(page, "#note-3")
    assert_no_sideways_scroll(page)
    bp.screenshot(f"note-writing-{name(viewport)}")
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_my_games_shows_every_column_without_sideways_scrolling(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    from games.models import Game
    from tests.factories import play

    bp = open_page(viewport)
    page = bp.page
    start_from_home(bp)
    page.wait_for_load_state("networkidle")
    play(Game.objects.get())
    page.goto(bp.url("/me/"))
    assert_no_sideways_scroll(page)
    games = "#games-title ~ .me-scroll tbody"
    for label in ("Score", "Rounds", "Status", "Percentile"):
        assert_within_width(page, f'{games} td[data-label="{label}"]')
    assert_within_width(page, f"{games} a")
    assert_within_width(page, "#bests-title ~ .me-scroll tbody td")
    # Each figure says what it is: the table's head on a wide screen, a label on a phone.
    said = page.eval_on_selector(
        f'{games} td[data-label="Score"]',
        "td => [getComputedStyle(td, '::before').content,"
        " getComputedStyle(td.closest('table').tHead).position]",
    )
    if viewport == PHONE:
        assert said[0] == '"Score"'
    else:
        assert said == ["none", "static"]
    bp.screenshot(f"me-games-{name(viewport)}")
    page.click(f"{games} >> text=Replay")
    page.wait_for_selector("#gameover:not([hidden])")
    bp.assert_clean()


def test_the_changed_pages_have_no_serious_accessibility_violation(
    open_page: Callable[..., BrowserPage],
) -> None:
    from tests.browser.axe import assert_no_serious_violations

    bp = open_page(PHONE)
    page = bp.page
    page.goto(bp.url("/play/"))
    page.wait_for_selector("#consent-yes")
    assert_no_serious_violations(page, "play, new visitor")
    start_from_home(bp)
    page.goto(bp.url("/me/"))
    page.click("#recovery-new")
    assert_no_serious_violations(page, "my games with a recovery code")
    page.goto(bp.url("/me/uploads/"))
    assert_no_serious_violations(page, "upload save files")
    bp.assert_clean()
