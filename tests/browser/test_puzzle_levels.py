"""The puzzle page when the level asked for cannot be reached: the API's message is shown."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.models import Attempt
from tests.browser.conftest import DESKTOP, BrowserPage
from tests.browser.helpers import answer_if_asked

if TYPE_CHECKING:
    from playwright.sync_api import Route

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_level_out_of_reach_shows_what_was_reached(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page

    def with_seed(route: Route) -> None:
        # The page draws no seed; seed 1 is one whose 4 x 4 Futoshiki never needs subsets.
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": 1}))

    page.route("**/api/v1/puzzles/", with_seed)
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.select_option("#pz-kind", "futoshiki")
    page.select_option("#pz-size", "4")
    page.select_option("#pz-difficulty", "tricky")
    page.click("#pz-start")
    page.wait_for_selector("#pz-new[data-error]")
    shown = page.get_attribute("#pz-new", "data-error") or ""
    assert "rated tricky" in shown
    assert "reached: easy" in shown
    assert not Attempt.objects.exists()
