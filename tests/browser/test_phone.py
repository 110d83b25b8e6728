"""Phone first: the pages at 390 x 844 (and on a desktop), checked by the boxes of what they show.

Each check reads bounding boxes in the viewport's coordinates: an element is
"on screen" when its box lies within the viewport, and no page may scroll
sideways. Screenshots are kept in ``artifacts/screenshots/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import (
    board_symbols,
    cell,
    click_move,
    game_over,
    moves_made,
    pick_move,
    text,
    wait_for_moves,
    wait_until_playable,
)
from tests.browser.test_play import play_until, start_from_home, start_new_game

if TYPE_CHECKING:
    from playwright.sync_api import FloatRect, Page, Route, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def box_of(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def assert_on_screen(page: Page, selector: str) -> None:
    """The element's whole box lies within the viewport (no scrolling needed to see it)."""
    viewport = page.viewport_size
    assert viewport is not None
    box = box_of(page, selector)
    assert box["x"] >= -0.5, f"{selector} starts left of the screen"
    assert box["y"] >= -0.5, f"{selector} starts above the screen ({box['y']:.0f} px)"
    assert box["x"] + box["width"] <= viewport["width"] + 0.5, f"{selector} sticks out sideways"
    assert box["y"] + box["height"] <= viewport["height"] + 0.5, (
        f"{selector} ends below the screen ({box['y'] + box['height']:.0f} px of "
        f"{viewport['height']})"
    )


def assert_no_sideways_scroll(page: Page) -> None:
    viewport = page.viewport_size
    assert viewport is not None
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"


def assert_apart(page: Page, one: str, other: str) -> None:
    """The two boxes do not overlap."""
    a, b = box_of(page, one), box_of(page, other)
    overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    assert overlap_x <= 0.5 or overlap_y <= 0.5, f"{one} covers part of {other}"


def name(viewport: ViewportSize) -> str:
    return "phone" if viewport == PHONE else "desktop"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_home_page_shows_play_and_every_menu_link_on_its_first_screen(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport)
    page = bp.page
    page.goto(bp.url("/"))
    # The research question comes first, and Play still fits after it.
    for selector in ("#consent-yes", "#consent-no", "#play-button"):
        assert_on_screen(page, selector)
    assert_no_sideways_scroll(page)
    # The menu: one line on a wide screen; on a phone it wraps, and every link is in
    # sight without scrolling anything (nothing hides off the right edge).
    tops = page.eval_on_selector_all(
        ".site-nav a", "links => links.map(a => Math.round(a.getBoundingClientRect().top))"
    )
    assert len(set(tops)) <= (1 if viewport == DESKTOP else 2), f"{len(set(tops))} lines"
    for index in range(len(tops)):
        assert_on_screen(page, f".site-nav a >> nth={index}")
    assert page.evaluate("() => document.querySelector('.site-nav').scrollWidth") <= (
        box_of(page, ".site-nav")["width"] + 0.5
    ), "the menu scrolls sideways within itself"
    assert_no_sideways_scroll(page)
    bp.screenshot(f"home-first-screen-{name(viewport)}")
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_board_is_fully_visible_after_new_game(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    start_from_home(bp)
    assert_on_screen(page, "#board")
    assert_no_sideways_scroll(page)
    # "New game" sits below the board on a phone: pressing it brings the board back.
    source, target = pick_move(board_symbols(page))
    click_move(page, source, target)
    wait_for_moves(page, 1)
    page.locator("#new-game").scroll_into_view_if_needed()
    start_new_game(page, size=7)
    assert_on_screen(page, "#hud")
    assert_on_screen(page, "#board")
    assert_on_screen(page, "#timebar")
    assert_no_sideways_scroll(page)
    bp.screenshot(f"new-game-{name(viewport)}")
    bp.assert_clean()


def test_the_noise_counter_says_one_move_in_the_singular(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    assert text(page, "#moves-left").strip() == "5"
    assert text(page, ".hud-unit").strip() == "moves"
    # Play until one move is left before the noise; an emptied board can jump the clock
    # to the noise and start the count again, so this may take more than four moves.
    made = 0
    while text(page, "#moves-left").strip() != "1" and made < 30:
        source, target = pick_move(board_symbols(page))
        click_move(page, source, target)
        made += 1
        wait_for_moves(page, made)
    assert text(page, "#moves-left").strip() == "1"
    assert text(page, ".hud-unit").strip() == "move"
    hud = page.inner_text("#hud").replace("\n", " ")
    assert "1 move" in hud
    assert "1 moves" not in hud
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_game_over_card_leaves_the_board_and_replay_controls_visible_and_reveals_phi_lambda(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    start_from_home(bp)
    start_new_game(page, size=3, variant="phi_lambda")
    assert set(filter(None, board_symbols(page))) <= {"Φ", "Λ"}
    play_until(page, lambda: game_over(page))
    assert game_over(page)
    page.wait_for_selector("#replaybar:not([hidden])")
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    # Nothing of the replay controls or of the board's last row is covered or off screen;
    # on a phone the card's result and buttons come first when the whole board cannot
    # stay on screen with them (Phi-Lambda's explanation and the best score take room).
    if viewport == PHONE:
        assert_on_screen(page, "#gameover-title")
        assert_on_screen(page, "#gameover .gameover-actions")
    else:
        assert_on_screen(page, "#board")
    size = 3
    for col in range(size):
        assert_on_screen(page, f'#board .cell[data-row="{size - 1}"][data-col="{col}"]')
    for control in ("#replay-first", "#replay-prev", "#replay-play", "#replay-slider"):
        assert_on_screen(page, control)
    assert_apart(page, "#gameover", "#board")
    assert_apart(page, "#gameover", "#replaybar")
    assert_no_sideways_scroll(page)
    # The card itself starts on screen, below the controls on a phone.
    card = box_of(page, "#gameover")
    assert card["y"] < viewport["height"]
    # The game is over: the numbers behind Phi and Lambda are shown.
    final = [s for s in board_symbols(page) if s]
    assert final
    assert all(s.isdigit() for s in final), final
    assert page.get_attribute("#board", "data-revealed") == "true"
    assert "shown now" in text(page, "#gameover-reason")
    bp.screenshot(f"game-over-phi-lambda-{name(viewport)}")
    # Stepping back through the replay shows numbers too.
    page.click("#replay-first")
    assert all(s.isdigit() for s in board_symbols(page) if s)
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_saving_a_note_keeps_the_board_where_it_was(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    start_from_home(bp)
    # A finished game: its replay highlights the move shown, in a list that scrolls.
    start_new_game(page, size=3)
    play_until(page, lambda: game_over(page))
    page.wait_for_selector("#replaybar:not([hidden])")
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    button = page.locator('#move-list li[data-index="1"] .note-button')
    # The first move's note button near the bottom of the screen, the board above it.
    page.evaluate(
        """() => {
            const b = document.querySelector('#move-list li[data-index="1"] .note-button');
            const y = b.getBoundingClientRect().bottom + window.scrollY;
            window.scrollTo({top: Math.max(0, y - window.innerHeight + 12), behavior: 'instant'});
        }"""
    )
    # Playwright scrolls a button it taps into full view first (a few pixels, at
    # times): let it do so before the board's place is taken, as a player's page
    # is where it is when they tap.
    button.scroll_into_view_if_needed()
    before = box_of(page, "#board")["y"]
    button.click()
    page.fill("#note-1", "Kept the 3 away from the edge")
    page.click('#move-list form button[type="submit"]')
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('Note saved')"
    )
    after = box_of(page, "#board")["y"]
    assert abs(after - before) <= 1, f"the board moved by {after - before:.0f} px"
    focused = page.evaluate("() => document.activeElement && document.activeElement.className")
    assert "note-button" in str(focused), "focus is lost after saving"
    bp.screenshot(f"note-saved-{name(viewport)}")
    bp.assert_clean()


def test_a_hung_move_says_it_is_still_waiting_and_retries(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    held: list[Route] = []
    page.route("**/api/v1/games/*/moves/", lambda route: held.append(route))
    source, target = pick_move(board_symbols(page))
    cell(page, *source).tap()
    cell(page, *target).tap()
    # Within a few seconds, and long before the request times out, the player is told.
    page.wait_for_function(
        "() => /still waiting/i.test(document.querySelector('#status').textContent)",
        timeout=4_000,
    )
    assert_on_screen(page, "#status")
    assert moves_made(page) == 0
    bp.screenshot("hung-move-phone")
    # The held request now gets through; the move counts once.
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/games/*/moves/")
    wait_for_moves(page, 1)
    wait_until_playable(page)
    from games.models import Event

    assert Event.objects.filter(kind="move").count() == 1
    bp.assert_clean()


def test_the_tutorial_praises_the_fewest_moves_only_when_they_were_the_fewest(
    open_page: Callable[..., BrowserPage],
) -> None:
    from tests.browser.helpers import drag

    bp = open_page(PHONE, touch=True)
    page = bp.page
    page.goto(bp.url("/tutorial/"))
    page.click("#tutorial-next")
    drag(page, (2, 1), (2, 2))
    page.wait_for_selector(".tutorial-task.is-done")
    page.click("#tutorial-next")
    # Four moves where two would do: the 4 left and back, onto the 5, then the 1 onto the 9.
    cell(page, 1, 1).focus()
    four = ("Shift+ArrowLeft", "Shift+ArrowRight", "Shift+ArrowRight", "ArrowDown", "Shift+ArrowUp")
    for key in four:
        page.keyboard.press(key)
    page.wait_for_selector(".tutorial-task.is-done")
    assert not any(board_symbols(page))
    task = text(page, "#tutorial-task")
    assert "4 moves" in task
    assert "fewest" not in task
    assert "can be done in 2" in task
    # Again in two moves: now the praise is earned.
    page.click("#tutorial-reset")
    cell(page, 1, 1).focus()
    for key in ("Shift+ArrowRight", "ArrowDown", "Shift+ArrowUp"):
        page.keyboard.press(key)
    page.wait_for_selector(".tutorial-task.is-done")
    assert "in 2 moves, the fewest possible" in text(page, "#tutorial-task")
    bp.assert_clean()
