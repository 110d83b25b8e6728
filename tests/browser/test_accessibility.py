"""axe-core over the site's pages and the play page's states: no serious or critical violation.

axe-core is vendored for the tests only (``tests/browser/vendor/axe-core/``,
see ``tests/browser/axe.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.axe import AXE_VERSION, assert_no_serious_violations, load_axe
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width, sign_in_researcher
from tests.browser.helpers import (
    board_symbols,
    cell,
    click_move,
    game_over,
    keyboard_move,
    moves_made,
    pick_move,
    shown_int,
    text,
    wait_for_moves,
    wait_until_playable,
)
from tests.browser.test_play import play_until, start_from_home, start_new_game

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_vendored_axe_runs_under_the_site_policy(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    bp.page.goto(bp.url("/"))
    assert load_axe(bp.page) == AXE_VERSION
    bp.assert_clean()  # loading it raised no policy violation in the console


@pytest.mark.slow  # several page states or pages, each checked in full
def test_the_play_page_in_every_state(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/"))
    assert_no_serious_violations(page, "home")
    start_from_home(bp)
    assert_no_serious_violations(page, "play, active game")
    source, target = pick_move(board_symbols(page))
    click_move(page, source, target)
    wait_for_moves(page, 1)
    page.click("#back-button")
    page.wait_for_selector('#board[data-mode="history"]')
    assert_no_serious_violations(page, "play, back in time")
    page.click("#present-button")
    wait_until_playable(page)
    start_new_game(page, size=3)
    play_until(page, lambda: game_over(page))
    assert_no_serious_violations(page, "play, game over")
    bp.assert_clean()


def test_the_dashboard(open_page: Callable[..., BrowserPage]) -> None:
    from tests.factories import GameFactory, PlayerFactory, play

    player = PlayerFactory.create()
    for seed in (7, 11):
        play(GameFactory.create(player=player, seed=seed))
    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/dashboard/"))
    page.wait_for_load_state("networkidle")
    assert_no_serious_violations(page, "dashboard")
    bp.assert_clean()


@pytest.mark.slow  # several page states or pages, each checked in full
def test_the_research_pages(open_page: Callable[..., BrowserPage]) -> None:
    from tests.factories import GameFactory, PlayerFactory, play

    game = play(GameFactory.create(player=PlayerFactory.create(), seed=7))
    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/research/login/"))
    assert_no_serious_violations(page, "/research/login/")
    sign_in_researcher(bp)
    for path in ("/research/", "/research/?table=moves&preview=1", "/research/codebook/",
                 "/research/cite/", "/research/access/", f"/research/games/{game.pk}/"):
        page.goto(bp.url(path))
        assert_no_serious_violations(page, path)
    bp.assert_clean()


# The contrast of every dimmed cell (a group other than the spanning one, once a game is
# over): the ink against the tile, each blended with the cell's opacity over the board.
DIMMED_CONTRAST = """() => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = (color) => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = '#000';
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top, bottom, alpha) =>
    top.slice(0, 3).map((v, i) => v * alpha + bottom[i] * (1 - alpha));
  const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const board = document.querySelector('#board');
  const boardBg = rgba(getComputedStyle(board).backgroundColor);
  const cells = [...board.querySelectorAll('.cell.has-group:not(.is-spanning)')];
  return cells.map((cell) => {
    let opacity = 1;
    for (let e = cell; e && e !== board; e = e.parentElement) {
      opacity *= Number(getComputedStyle(e).opacity);
    }
    const style = getComputedStyle(cell);
    const tileColor = rgba(style.backgroundColor);
    const tile = over(tileColor, boardBg, tileColor[3]);
    const inkColor = rgba(style.color);
    const ink = over(inkColor, tile, inkColor[3]);
    const a = luminance(over(ink, boardBg, opacity));
    const b = luminance(over(tile, boardBg, opacity));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}"""


def dimmed_contrasts_over_the_replay(page: Page) -> list[float]:
    """The contrast of the dimmed cells on every board of the finished game's replay."""
    ratios: list[float] = []
    last = int(page.get_attribute("#replay-slider", "max") or "0")
    for position in range(last + 1):
        page.eval_on_selector(
            "#replay-slider",
            "(slider, value) => { slider.value = String(value);"
            " slider.dispatchEvent(new Event('input', {bubbles: true})); }",
            position,
        )
        ratios.extend(page.evaluate(DIMMED_CONTRAST))
    return ratios


FOCUS_ON_BOARD = (
    "() => document.activeElement && document.activeElement.closest('#board') !== null"
)


def test_start_focuses_the_board_moves_are_announced_and_escape_leaves_the_past(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)  # Play on the home page
    page.wait_for_function(FOCUS_ON_BOARD)
    page.focus("#new-game")
    start_new_game(page, size=5)  # Start game on the play page
    page.wait_for_function(FOCUS_ON_BOARD)
    assert page.evaluate("() => document.activeElement.getAttribute('role')") == "gridcell"
    assert page.evaluate("() => document.activeElement.tabIndex") == 0

    # A move by keyboard, straight from the focused board, is announced with the counters.
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    source, target = pick_move(board_symbols(page))
    keyboard_move(page, source, target)
    wait_for_moves(page, 1)
    page.wait_for_function(
        "() => /^Move 1: /.test(document.querySelector('#announcer').textContent)"
    )
    spoken = text(page, "#announcer")
    assert f"from row {source[0] + 1}, column {source[1] + 1}" in spoken
    assert f"Score {shown_int(page, '#score')}" in spoken
    assert f"noise in {shown_int(page, '#moves-left')} moves" in spoken

    # Escape leaves back-in-time, wherever the focus is.
    page.click("#back-button")
    page.wait_for_selector('#board[data-mode="history"]')
    page.keyboard.press("Escape")
    wait_until_playable(page)
    assert page.is_hidden("#lookback-banner")
    assert moves_made(page) == 1
    bp.assert_clean()


@pytest.mark.slow  # a whole game, then every board of its replay in two colour schemes
def test_dimmed_cells_keep_a_contrast_of_4_5_to_1(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    start_new_game(page, size=5)
    play_until(page, lambda: game_over(page))
    page.wait_for_selector("#replaybar:not([hidden])")
    ratios = dimmed_contrasts_over_the_replay(page)
    assert ratios, "no board of the replay dims a group"
    assert min(ratios) >= 4.5
    page.emulate_media(color_scheme="dark")
    ratios = dimmed_contrasts_over_the_replay(page)
    assert min(ratios) >= 4.5
    bp.assert_clean()


CELL_SIZES = """() => [...document.querySelectorAll('#board .cell')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return Math.min(box.width, box.height);
})"""


def test_cells_are_at_least_24_px_and_a_large_grid_scrolls_in_its_frame_on_a_phone(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    for size in (7, 16):
        start_new_game(page, size=size)
        assert min(page.evaluate(CELL_SIZES)) >= 24, f"{size} x {size}"
        assert page_width(bp) <= PHONE["width"], "the page scrolls sideways"
    frame = page.evaluate(
        "() => { const f = document.querySelector('#board-frame');"
        " return [f.scrollWidth > f.clientWidth, getComputedStyle(f).overflowX,"
        " getComputedStyle(document.querySelector('#board')).touchAction]; }"
    )
    assert frame == [True, "auto", "pan-x pan-y"]
    # A tap on a number, then on its neighbour, still moves it on the scrolling grid.
    source, target = pick_move(board_symbols(page))
    cell(page, *source).scroll_into_view_if_needed()
    cell(page, *source).tap()
    cell(page, *target).tap()
    wait_for_moves(page, 1)
    bp.screenshot("play-16x16-phone")
    bp.assert_clean()


def test_the_play_page_at_200_percent_zoom(open_page: Callable[..., BrowserPage]) -> None:
    # 200% zoom of a 1280 x 800 window lays the page out in 640 x 400 CSS pixels.
    zoomed: ViewportSize = {"width": 640, "height": 400}
    bp = open_page(zoomed)
    page = bp.page
    start_from_home(bp)
    assert page_width(bp) <= zoomed["width"]
    board = page.locator("#board").bounding_box()
    assert board is not None
    assert board["y"] < zoomed["height"] / 2, "the board starts in the upper half of the window"
    assert min(page.evaluate(CELL_SIZES)) >= 24
    bp.screenshot("play-zoom-200")
    source, target = pick_move(board_symbols(page))
    click_move(page, source, target)
    wait_for_moves(page, 1)
    bp.assert_clean()


def test_the_default_api_docs_page(open_page: Callable[..., BrowserPage]) -> None:
    """ReDoc, the default docs page: no serious violation, and its script bytes counted."""
    bp = open_page(DESKTOP)
    page = bp.page
    scripts: dict[str, int] = {}
    page.on(
        "response",
        lambda response: scripts.__setitem__(response.url, len(response.body()))
        if response.request.resource_type == "script" and response.ok else None,
    )
    page.goto(bp.url("/api/v1/docs/"))
    page.wait_for_selector("text=Decodoku Lab API", timeout=20_000)
    page.wait_for_load_state("networkidle")
    assert page.locator("#redoc-container").count() == 1
    assert_no_serious_violations(page, "/api/v1/docs/")
    total = sum(scripts.values())
    print(f"/api/v1/docs/ scripts: {total} bytes", scripts)
    # Swagger UI's two bundles alone are 1.85 MB.
    assert total < 1_300_000, scripts
    bp.screenshot("api-docs-1280x800")
    bp.assert_clean()
