"""2mino solved in the browser by drawing bars: mouse on a landscape screen, touch on a
portrait phone, and the keyboard; the recorded toggles replay to a solved board."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from puzzles.engines import twomino
from puzzles.models import Action, Attempt
from puzzles.selectors import attempt_replay
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_if_asked, text

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANDSCAPE_PHONE: Any = {"width": 844, "height": 390}


def start(page: Page, size: int) -> tuple[Attempt, twomino.Puzzle]:
    page.select_option("#tm-size", str(size))
    page.click("#tm-start")
    page.wait_for_selector("#tm-board .tm-bar")
    attempt = Attempt.objects.select_related("puzzle").latest("started_at")
    # The page is never told the solution; the test reads the stored one.
    stored = {**attempt.puzzle.definition, "solution": attempt.puzzle.solution}
    return attempt, twomino.puzzle_from_json(stored)


def settle(page: Page) -> None:
    page.evaluate("() => window.twominoPage.settled()")


def bar_selector(b: twomino.Bar) -> str:
    (r1, c1), (r2, c2) = b
    return f'#tm-board .tm-bar[data-bar="{r1},{c1},{r2},{c2}"]'


def bars_to_draw(puzzle: twomino.Puzzle, tiling: tuple[twomino.Bar, ...]) -> list[twomino.Bar]:
    inside = set(tiling)
    return [b for b in puzzle.board.inner_bars() if b not in inside and b not in puzzle.locked]


def check_solved(attempt: Attempt, expected_toggles: int) -> None:
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SOLVED
    states = attempt_replay(attempt=attempt)
    toggles = Action.objects.filter(attempt=attempt, kind="toggle").count()
    assert toggles == expected_toggles
    puzzle = twomino.puzzle_from_json(attempt.puzzle.definition)
    final = twomino.Play(puzzle, [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in states[-1]["bars"]])
    assert final.solved


def sample_status(page: Page) -> dict[str, str]:
    status: dict[str, str] = page.eval_on_selector_all(
        "#tm-sample .tm-pair",
        "tiles => Object.fromEntries(tiles.map(t => [t.dataset.pair,"
        " t.classList.contains('tm-repeated') ? 'repeated'"
        " : t.classList.contains('tm-found') ? 'found' : 'missing']))",
    )
    return status


def test_solved_with_the_mouse_in_landscape(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    attempt, puzzle = start(page, 4)
    tilings = list(twomino.solve(4, puzzle.grid, puzzle.locked, limit=2))
    # Any tiling wins: play the second one the solver finds when there is one.
    tiling = tilings[-1]
    draw = bars_to_draw(puzzle, tiling)
    # A pair of the highlight: right click on the first bar to draw.
    first = draw[0]
    page.click(bar_selector(first), button="right")
    expected = "-".join(map(str, puzzle.pair_at(*first)))
    classes = page.get_attribute(f'#tm-sample [data-pair="{expected}"]', "class") or ""
    assert classes.count("tm-hl") == 1
    # A sample pair highlights where it may lie.
    other = "0-0" if expected != "0-0" else "0-1"
    page.click(f'#tm-sample [data-pair="{other}"]')
    assert page.locator("#tm-board .tm-cell.tm-hl").count() >= 2
    # A wrong bar drawn and taken off again, then a hint.
    extra = tiling[0]
    page.click(bar_selector(extra))
    page.click(bar_selector(extra))
    settle(page)
    page.click('[data-tool="hint"]')
    settle(page)
    assert text(page, "#tm-message").strip()
    # A long press (half a second) highlights the bar's pair and draws nothing.
    pressed = draw[1]
    box = page.locator(bar_selector(pressed)).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(800)
    page.mouse.up()
    settle(page)
    pressed_pair = "-".join(map(str, puzzle.pair_at(*pressed)))
    assert "tm-hl" in (
        page.get_attribute(f'#tm-sample [data-pair="{pressed_pair}"]', "class") or ""
    )
    assert "tm-on" not in (page.get_attribute(bar_selector(pressed), "class") or "")
    page.click('[data-tool="check"]')
    settle(page)
    assert "Not solved: the pair" in text(page, "#tm-message")
    browser.screenshot("twomino-playing-desktop")
    for b in draw:
        page.click(bar_selector(b))
    settle(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    assert set(sample_status(page).values()) == {"found"}
    browser.screenshot("twomino-solved-desktop")
    check_solved(attempt, len(draw) + 2)
    kinds = set(Action.objects.filter(attempt=attempt).values_list("kind", flat=True))
    assert kinds == {"toggle", "hint"}
    browser.assert_clean()


@pytest.mark.parametrize(
    ("viewport", "name"), [(PHONE, "portrait"), (LANDSCAPE_PHONE, "landscape")]
)
def test_solved_by_touch_on_a_phone(
    open_page: Callable[..., BrowserPage], viewport: Any, name: str
) -> None:
    browser = open_page(viewport, touch=True)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    attempt, puzzle = start(page, 5)
    board = page.locator("#tm-board").bounding_box()
    sample = page.locator("#tm-sample").bounding_box()
    assert board is not None
    assert sample is not None
    if name == "portrait":
        assert sample["y"] >= board["y"] + board["height"] - 1, "the sample sits below the board"
    else:
        assert sample["x"] >= board["x"] + board["width"] - 1, "the sample sits beside the board"
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= viewport["width"]
    draw = bars_to_draw(puzzle, puzzle.solution)
    for b in draw:
        page.locator(bar_selector(b)).tap()
    settle(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    browser.screenshot(f"twomino-solved-phone-{name}")
    check_solved(attempt, len(draw))
    browser.assert_clean()


ARROWS = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}


def bar_position(b: twomino.Bar) -> tuple[float, float]:
    """Where the page draws a bar, in cells: (x, y)."""
    (r1, c1), (r2, _) = b
    return (c1 + 0.5, r1 + 1.0) if r1 != r2 else (c1 + 1.0, r1 + 0.5)


def arrow_target(bars: list[twomino.Bar], here: twomino.Bar, key: str) -> twomino.Bar | None:
    """The bar an arrow key moves the cursor to, by the page's rule (nearest ahead)."""
    dx, dy = ARROWS[key]
    x0, y0 = bar_position(here)
    best: tuple[float, twomino.Bar] | None = None
    for b in bars:
        x, y = bar_position(b)
        along = (x - x0) * dx + (y - y0) * dy
        if along <= 0:
            continue
        score = along + 2 * abs((x - x0) * dy + (y - y0) * dx)
        if best is None or score < best[0]:
            best = (score, b)
    return best[1] if best else None


def key_path(bars: list[twomino.Bar], start: twomino.Bar, goal: twomino.Bar) -> list[str]:
    """The shortest sequence of arrow keys from one bar to another."""
    seen: dict[twomino.Bar, list[str]] = {start: []}
    frontier = [start]
    while frontier:
        following = []
        for b in frontier:
            if b == goal:
                return seen[b]
            for key in ARROWS:
                nxt = arrow_target(bars, b, key)
                if nxt is not None and nxt not in seen:
                    seen[nxt] = [*seen[b], key]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no arrow path from {start} to {goal}")


def test_solved_with_the_keyboard(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    attempt, puzzle = start(page, 3)
    bars = puzzle.board.inner_bars()
    draw = bars_to_draw(puzzle, puzzle.solution)
    page.locator('#tm-board .tm-bar[tabindex="0"]').focus()

    def focused() -> twomino.Bar:
        r1, c1, r2, c2 = map(
            int, page.evaluate("() => document.activeElement.dataset.bar").split(",")
        )
        return ((r1, c1), (r2, c2))

    for number, goal in enumerate(draw):
        for key in key_path(bars, focused(), goal):
            page.keyboard.press(key)
        assert focused() == goal
        page.keyboard.press("Space" if number % 2 else "Enter")
        settle(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    browser.screenshot("twomino-solved-keyboard")
    check_solved(attempt, len(draw))
    browser.assert_clean()
