"""The "What players do" page in headless Chromium: readable on a phone, axe clean."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.axe import assert_no_serious_violations, axe_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width
from tests.dashboard.helpers import _rate_sweep
from tests.dashboard.test_players_page import store_fit

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_page_reads_on_a_phone_and_a_desktop_without_axe_violations(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize,
) -> None:
    store_fit(split=True)
    _rate_sweep(family="one_shot", bot="learned", rates=(0.1, 0.2, 0.3, 0.4),
                failures={6: (3, 18, 45, 72), 10: (1, 8, 58, 92)},
                finished_at=datetime.datetime(2026, 11, 22, tzinfo=datetime.UTC))
    bp = open_page(viewport)
    page = bp.page
    page.goto(bp.url("/dashboard/"))
    page.click(".site-nav >> text=Players")
    page.wait_for_url("**/dashboard/players/")
    assert page.locator("h1").inner_text() == "What players do"
    assert page.locator(".feature").count() == 3
    assert page.locator(".learned-plot polyline").count() == 2
    assert page_width(bp) <= viewport["width"], "the page scrolls sideways"
    # Every weight's text is inside the window.
    rights = page.eval_on_selector_all(
        ".ci-value", "els => els.map(e => e.getBoundingClientRect().right)")
    assert all(right <= viewport["width"] for right in rights)
    assert_no_serious_violations(page, "the players page")
    assert [v["id"] for v in axe_violations(page)] == []
    bp.screenshot(f"players-{'phone' if viewport == PHONE else 'desktop'}")
    bp.assert_clean()


def test_the_empty_page_is_axe_clean_on_a_phone(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(PHONE)
    page = bp.page
    page.goto(bp.url("/dashboard/players/"))
    assert "No fit yet" in page.inner_text("main")
    assert page_width(bp) <= PHONE["width"]
    assert [v["id"] for v in axe_violations(page)] == []
    bp.assert_clean()
