"""The puzzles page: hints from the technique ladder, and the puzzle ID shown during play."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.engines import kenken, puzzle_id
from puzzles.models import Action, Attempt
from tests.browser.conftest import DESKTOP, BrowserPage
from tests.browser.helpers import answer_if_asked, text
from tests.browser.test_puzzles import settle, start

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A 6 x 6 KenKen whose empty grid has no single: the first hint climbs the ladder.
LADDER_SEED = 0


def open_by_id(page: Page, text_id: str) -> Attempt:
    page.fill("#pz-id", text_id)
    page.click("#pz-start")
    page.wait_for_selector("#pz-board .pz-cell")
    return Attempt.objects.select_related("puzzle").latest("started_at")


def test_a_ladder_hint_shows_its_steps_and_applies_to_the_marks(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    # A puzzle of engine version 2 whose first hint past the singles is a pair or a cage
    # rule (hints work alike on every version's puzzles).
    generated = kenken.generate(size=6, seed=LADDER_SEED, difficulty="hard", engine_version=2)
    attempt = open_by_id(page, puzzle_id.encode(generated.puzzle))
    page.keyboard.press("f")  # every candidate marked
    settle(page)
    page.keyboard.press("h")
    settle(page)
    hint = Action.objects.filter(attempt=attempt, kind="hint").latest("step").result["hint"]
    assert hint["kind"] == "technique"
    message = text(page, "#pz-message")
    assert message.startswith(hint["steps"][0]["text"])
    assert message.endswith(hint["then"])
    assert message.split(":", 1)[0] in {"Naked pair", "Hidden pair", "Cage must contain"}
    # Every step is listed under the message when there are several.
    if len(hint["steps"]) > 1:
        assert page.locator("#pz-hint-steps-list li").count() == len(hint["steps"])
    assert page.locator("#pz-board .pz-hint-cause").count() == len(hint["cells"])
    assert page.locator("#pz-board .pz-hint-removes").count() == len(hint["removes"])
    browser.screenshot("puzzle-kenken-ladder-hint-desktop")
    page.click("#pz-hint-apply")
    settle(page)
    attempt.refresh_from_db()
    marks = attempt.state["marks"]
    for removal in hint["removes"]:
        r, c = removal["cell"]
        for v in removal["values"]:
            assert not marks[r][c] & (1 << (v - 1)), (r, c, v)
    assert "removed" in text(page, "#pz-message")
    assert page.locator("#pz-hint-apply-row").is_hidden()
    # One undo takes the whole application back.
    page.keyboard.press("u")
    settle(page)
    attempt.refresh_from_db()
    r, c = hint["removes"][0]["cell"]
    assert attempt.state["marks"][r][c] & (1 << (hint["removes"][0]["values"][0] - 1))
    browser.assert_clean()


def test_the_puzzle_id_is_shown_during_play_and_its_link_opens_the_puzzle(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "futoshiki", 5)
    assert attempt.status == "active"
    shown = text(page, "#pz-live-id-text")
    assert shown == puzzle_id.encode_definition(attempt.puzzle.definition)
    assert str(attempt.puzzle.seed) not in shown
    page.click("#pz-live-id-copy")
    # The clipboard answers asynchronously: wait for the message it leads to.
    page.wait_for_function(
        "() => document.querySelector('#pz-message').textContent.trim() !== ''"
    )
    assert text(page, "#pz-message") in {
        "Puzzle ID copied.",
        "Select and copy the puzzle ID shown.",
    }
    browser.screenshot("puzzle-futoshiki-live-id-desktop")
    page.click("#pz-live-id-link")
    page.wait_for_selector("#pz-setup:not([hidden])")
    assert page.input_value("#pz-id") == shown
    page.click("#pz-start")
    page.wait_for_function(
        # The page's module may not be there yet while the new puzzle loads.
        "id => window.puzzlePage && window.puzzlePage.current()"
        " && window.puzzlePage.current().id !== id",
        arg=str(attempt.pk),
    )
    again = Attempt.objects.select_related("puzzle").latest("started_at")
    assert again.pk != attempt.pk
    assert again.puzzle.solution == attempt.puzzle.solution
    assert text(page, "#pz-live-id-text") == shown
    browser.assert_clean()


def test_a_damaged_id_is_refused_with_a_message(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/?id=kenken:4:AAAA"))
    answer_if_asked(page)
    assert page.input_value("#pz-id") == "kenken:4:AAAA"
    page.click("#pz-start")
    page.wait_for_selector("#pz-new[data-error]")
    assert "damaged" in (page.get_attribute("#pz-new", "data-error") or "")
    assert page.is_hidden("#pz-game")
    # The refused request is the only one that failed (the browser logs its 400).
    assert [r for r in browser.failed_requests if "400" not in r] == []
    assert [e for e in browser.console_errors if "status of 400" not in e] == []
