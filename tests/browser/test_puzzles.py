"""KenKen and Futoshiki solved in the browser by a scripted player, with keys and with touch.

The recorded actions are then replayed through the engine: they must end on
the solved grid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.models import Action, Attempt
from puzzles.selectors import attempt_replay
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_if_asked

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start(page: Page, kind: str, size: int) -> Attempt:
    page.select_option("#pz-kind", kind)
    page.select_option("#pz-size", str(size))
    page.click("#pz-start")
    page.wait_for_selector("#pz-board .pz-cell")
    return Attempt.objects.select_related("puzzle").latest("started_at")


def settle(page: Page) -> None:
    page.evaluate("() => window.puzzlePage.settled()")


def cell(page: Page, r: int, c: int) -> Locator:
    return page.locator(f'#pz-board .pz-cell[data-r="{r}"][data-c="{c}"]')


def shown_grid(page: Page, size: int) -> list[list[str]]:
    values = page.eval_on_selector_all(
        "#pz-board .pz-cell .pz-value", "cells => cells.map(c => c.textContent)"
    )
    return [values[r * size : (r + 1) * size] for r in range(size)]


def check_replay(attempt: Attempt) -> None:
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SOLVED
    states = attempt_replay(attempt=attempt)
    assert states[-1]["entries"] == attempt.puzzle.solution
    assert len(states) == Action.objects.filter(attempt=attempt).count() + 1


def test_kenken_solved_with_the_keyboard(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    solution = attempt.puzzle.solution
    cell(page, 0, 0).click()
    # A candidate mark, a wrong number erased, an undo and a hint on the way.
    wrong = solution[0][0] % 4 + 1
    page.keyboard.press("p")
    page.keyboard.press(str(wrong))
    page.keyboard.press("p")
    page.keyboard.press(str(wrong))
    settle(page)
    page.keyboard.press("Backspace")
    page.keyboard.press("u")
    settle(page)
    assert shown_grid(page, 4)[0][0] == str(wrong)
    page.keyboard.press("h")
    settle(page)
    cell(page, 0, 0).click()  # the hint moved the selection to its cell
    for r in range(4):
        for c in range(4):
            page.keyboard.press(str(solution[r][c]))
            if c < 3:
                page.keyboard.press("ArrowRight")
        if r < 3:
            page.keyboard.press("ArrowDown")
            for _ in range(3):
                page.keyboard.press("ArrowLeft")
    settle(page)
    page.wait_for_selector("#pz-solved:not([hidden])")
    browser.screenshot("puzzles-kenken-solved-desktop")
    kinds = list(Action.objects.filter(attempt=attempt).values_list("kind", flat=True))
    assert {"candidate", "entry", "erase", "undo", "hint"} <= set(kinds)
    check_replay(attempt)
    browser.assert_clean()


def test_futoshiki_solved_by_touch_on_a_phone(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(PHONE, touch=True)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "futoshiki", 5)
    solution = attempt.puzzle.solution
    givens = {(r, c) for r, c, _ in attempt.puzzle.definition["givens"]}
    browser.screenshot("puzzles-futoshiki-phone")
    for r in range(5):
        for c in range(5):
            if (r, c) in givens:
                continue
            cell(page, r, c).tap()
            page.locator(f'#pz-pad [data-value="{solution[r][c]}"]').tap()
    settle(page)
    page.wait_for_selector("#pz-solved:not([hidden])")
    browser.screenshot("puzzles-futoshiki-solved-phone")
    assert shown_grid(page, 5) == [[str(v) for v in row] for row in solution]
    check_replay(attempt)
    browser.assert_clean()
