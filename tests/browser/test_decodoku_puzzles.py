"""Decodoku puzzles in the browser: a published puzzle solved by links on a phone, the keyboard,
the list and comparison pages, and their accessibility."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.engines.decodoku import STANDARD, check, parse_grid
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.engines.decodoku.solver import solve
from puzzles.models import Action, Attempt, DecodokuBotAnswer
from puzzles.selectors import attempt_replay
from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width
from tests.browser.helpers import answer_if_asked

if TYPE_CHECKING:
    from playwright.sync_api import Dialog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def unique_published() -> tuple[int, frozenset[int], int]:
    """The first published puzzle with one answer: its number, fewest links and that answer."""
    for puzzle in published_puzzles():
        best = solve(puzzle.board())
        if not best.ties:
            return puzzle.number, best.explanations[best.corner], best.corner
    raise AssertionError("every published puzzle is tied")


def settle(bp: BrowserPage) -> None:
    bp.page.evaluate("() => window.decodokuPage.settled()")


def start(bp: BrowserPage, path: str) -> Attempt:
    bp.page.goto(bp.url(path))
    answer_if_asked(bp.page)
    bp.page.click("#dk-start")
    bp.page.wait_for_selector("#dk-board .dk-link")
    return Attempt.objects.select_related("puzzle").latest("started_at")


def test_a_published_puzzle_solved_by_touch_on_a_phone(
    open_page: Callable[..., BrowserPage],
) -> None:
    number, links, corner = unique_published()
    bp = open_page(PHONE, touch=True)
    page = bp.page
    attempt = start(bp, f"/puzzles/decodoku/{number}/")
    assert attempt.puzzle.number == number
    box = page.locator("#dk-board").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    assert page_width(bp) <= PHONE["width"]
    for link in sorted(links):
        page.locator(f'#dk-board .dk-link[data-link="{link}"]').tap()
    settle(bp)
    # Every group is done or holds a corner; the top-left corner shows the value it needs.
    assert page.locator("#dk-board .dk-open").count() == 0
    assert page.locator('#dk-board .dk-cell[data-cell="0"] .dk-badge').inner_text() == f"={corner}"
    assert_no_serious_violations(page, "the Decodoku play page on a phone")
    page.locator('[data-tool="check"]').tap()
    page.wait_for_function(
        "() => document.getElementById('dk-message').textContent.includes('explain the board')"
    )
    page.select_option("#dk-value", str(corner))
    page.locator("#dk-answer-button").tap()
    page.wait_for_selector("#dk-done:not([hidden])")
    bp.screenshot("decodoku-solved-phone")
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SOLVED
    kinds = list(Action.objects.filter(attempt=attempt).values_list("kind", flat=True))
    assert kinds == ["link"] * len(links) + ["check", "answer"]
    final = attempt_replay(attempt=attempt)[-1]
    assert final == {"links": sorted(links), "answer": corner}
    # The bots decoded the puzzle once the attempt ended; the comparison page shows them.
    assert DecodokuBotAnswer.objects.filter(puzzle=attempt.puzzle).count() == 2
    page.click("#dk-compare")
    page.wait_for_selector("#dk-bots")
    assert page.locator('#dk-bots tr[data-bot="exact"] td').nth(1).inner_text() == str(len(links))
    assert page_width(bp) <= PHONE["width"]
    assert_no_serious_violations(page, "the Decodoku comparison page on a phone")
    bp.assert_clean()


def test_links_drawn_with_the_keyboard_and_the_mouse_and_given_up_on_a_desktop(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    attempt = start(bp, "/puzzles/decodoku/new/")
    assert attempt.puzzle.number is None
    page.locator('#dk-board .dk-cell[data-cell="9"]').focus()
    page.keyboard.press("Shift+ArrowRight")  # cells 9 and 10
    page.keyboard.press("Shift+ArrowDown")  # cells 10 and 18
    page.keyboard.press("Shift+ArrowLeft")  # cells 18 and 17
    settle(bp)
    drawn = [STANDARD.link(9, 10), STANDARD.link(10, 18), STANDARD.link(18, 17)]
    assert page.evaluate("() => window.decodokuPage.links()") == sorted(drawn)
    board = parse_grid(attempt.puzzle.definition["grid"])
    group = next(g for g in check(board, drawn).groups if 9 in g.cells)
    assert group.cells == (9, 10, 17, 18)
    total = sum(board.values[c] for c in (9, 10, 17, 18)) % 10
    first = page.locator('#dk-board .dk-cell[data-cell="9"] .dk-badge').inner_text()
    assert first == f"\u03a3{total}"
    assert_no_serious_violations(page, "the Decodoku play page with links")
    # A mouse drag from cell 44 through 45 to 53 draws the two links on its way.
    centres = []
    for cell in (44, 45, 53):
        box = page.locator(f'#dk-board .dk-cell[data-cell="{cell}"]').bounding_box()
        assert box is not None
        centres.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    page.mouse.move(*centres[0])
    page.mouse.down()
    for x, y in centres[1:]:
        page.mouse.move(x, y, steps=4)
    page.mouse.up()
    settle(bp)
    dragged = [STANDARD.link(44, 45), STANDARD.link(45, 53)]
    assert page.evaluate("() => window.decodokuPage.links()") == sorted(drawn + dragged)
    # Giving up asks first (as KenKen does): dismissed, nothing ends.
    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click('[data-tool="giveup"]')
    page.wait_for_function("() => true")
    assert asked
    assert "Give up" in asked[0]
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.ACTIVE
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-tool="giveup"]')
    page.wait_for_selector("#dk-done:not([hidden])")
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.ABANDONED
    # The board then shows the fewest links that explain it, not the player's.
    best = sorted(attempt.puzzle.solution["explanation"])
    assert page.evaluate("() => window.decodokuPage.links()") == best
    assert page.locator("#dk-board .dk-link.dk-on").count() == len(best)
    assert f"{len(best)} link" in (page.text_content("#dk-links") or "")
    recorded = Action.objects.filter(attempt=attempt).order_by("step")
    assert [a.payload["link"] for a in recorded] == drawn + dragged
    bp.screenshot("decodoku-given-up-desktop")
    bp.assert_clean()


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_list_of_published_puzzles(
    open_page: Callable[..., BrowserPage], viewport: dict, name: str
) -> None:
    bp = open_page(viewport)
    bp.page.goto(bp.url("/puzzles/decodoku/"))
    rows = bp.page.locator("table.dk-list tbody tr")
    assert rows.count() == len(published_puzzles())
    assert page_width(bp) <= viewport["width"]
    assert_no_serious_violations(bp.page, f"the Decodoku list on a {name}")
    bp.screenshot(f"decodoku-list-{name}")
    bp.assert_clean()
