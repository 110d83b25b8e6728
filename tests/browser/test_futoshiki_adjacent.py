"""The Adjacent Futoshiki page (bars, cell names, broken bars, axe) and typing 10 and up."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.models import Attempt
from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, BrowserPage
from tests.browser.helpers import answer_if_asked
from tests.browser.test_puzzles import cell, settle, start

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def name(page: Page, r: int, c: int) -> str:
    return cell(page, r, c).locator(".pz-name").text_content() or ""


def givens_of(attempt: Attempt) -> set[tuple[int, int]]:
    return {(r, c) for r, c, _ in attempt.puzzle.definition.get("givens", [])}


def test_adjacent_page_draws_bars_names_them_and_passes_axe(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "futoshiki-adjacent", 5)
    bars = attempt.puzzle.definition["bars"]
    assert page.locator("#pz-board .pz-bar").count() == len(bars)
    a, b = bars[0]["a"], bars[0]["b"]
    side = "right" if a[0] == b[0] else "lower"
    assert f"differs by one from {side} neighbour" in name(page, a[0], a[1])
    joined = {(tuple(x["a"]), tuple(x["b"])) for x in bars}
    if ((0, 0), (0, 1)) not in joined:
        assert "not adjacent to right neighbour" in name(page, 0, 0)
    # Two numbers not one apart across a bar break it (the page reads only the entries).
    given = givens_of(attempt)
    open_bar = next(
        (x["a"], x["b"]) for x in bars if tuple(x["a"]) not in given and tuple(x["b"]) not in given
    )
    (ra, ca), (rb, cb) = open_bar
    cell(page, ra, ca).click()
    page.keyboard.press("1")
    cell(page, rb, cb).click()
    page.keyboard.press("4")
    settle(page)
    assert f"bar broken with row {rb + 1}, column {cb + 1}" in name(page, ra, ca)
    assert "pz-conflict" in (cell(page, ra, ca).get_attribute("class") or "")
    assert_no_serious_violations(page, "adjacent futoshiki while playing")
    browser.screenshot("puzzle-futoshiki-adjacent-desktop")
    # Then the solution, by keys: solved.
    for r, row in enumerate(attempt.puzzle.solution):
        for c, value in enumerate(row):
            if (r, c) not in given:
                cell(page, r, c).click()
                page.keyboard.press(str(value))
    page.wait_for_selector("#pz-solved:not([hidden])")
    assert_no_serious_violations(page, "adjacent futoshiki solved")
    browser.assert_clean()


def test_ten_and_up_are_typed_with_two_keys(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.select_option("#pz-kind", "futoshiki")
    attempt = start(page, "futoshiki", 10)
    # The pad offers every value.
    assert page.locator("#pz-pad .pz-digit").count() == 10
    given = givens_of(attempt)
    first, second = [(r, c) for r in range(10) for c in range(10) if (r, c) not in given][:2]
    cell(page, *first).click()
    page.keyboard.press("1")
    page.keyboard.press("0")
    settle(page)
    assert cell(page, *first).locator(".pz-value").text_content() == "10"
    cell(page, *second).click()
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    settle(page)
    assert cell(page, *second).locator(".pz-value").text_content() == "1"
    browser.assert_clean()
