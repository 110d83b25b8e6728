"""Asking every player about research use before their first game, in a real browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width
from tests.browser.helpers import (
    answer_research_question,
    make_unasked_player,
    wait_until_playable,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return float(box["y"])


def focused_id(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement ? document.activeElement.id : ''"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_home_page_asks_on_its_first_screen_before_play(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    bp = open_page(viewport)
    page = bp.page
    page.goto(bp.url("/"))
    for selector in ("#consent-yes", "#consent-no"):
        assert top(page, selector) < top(page, "#play-button")
    assert top(page, "#consent-no") + 40 < viewport["height"], "the answer is on the first screen"
    assert page.is_visible("#consent-ask a[href='/consent/']")
    assert page_width(bp) <= viewport["width"]
    assert_no_serious_violations(page, "the home page asking")
    bp.assert_clean()


def test_play_on_a_fresh_browser_asks_first_and_stores_nothing(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game, Player

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    page.click("#play-button")
    page.wait_for_function("() => document.activeElement?.id === 'consent-yes'")
    assert "/play/" not in page.url
    assert Player.objects.count() == 0
    assert Game.objects.count() == 0
    # The answer leads on to the game the player asked for.
    page.click("#consent-no")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    game = Game.objects.get()
    assert game.research_consent is False
    assert not Game.objects.filter(research_consent=True).exists()
    assert game.player.consent_decided_at is not None
    bp.assert_clean()


def test_yes_then_play_records_a_research_game(open_page: Callable[..., BrowserPage]) -> None:
    from games.models import Game
    from games.web.consent import CONSENT_VERSION

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=True)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    game = Game.objects.get()
    assert game.research_consent is True
    assert game.player.consent_version == CONSENT_VERSION
    bp.assert_clean()


def test_a_player_who_answered_is_not_asked_again(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=False)
    for path in ("/", "/play/", "/daily/"):
        page.goto(bp.url(path))
        assert page.is_hidden("#consent-ask"), path
        assert page.is_visible("#consent-summary"), path
    bp.assert_clean()


def test_the_answer_is_shown_and_changed_on_play_and_my_games(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import ConsentChange, Player
    from games.web.consent import CONSENT_VERSION

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=False)
    page.goto(bp.url("/play/"))
    wait_until_playable(page)
    assert page.text_content("#consent-answer") == "no"
    page.click("#consent-change")
    answer_research_question(page, yes=True)
    assert page.text_content("#consent-answer") == "yes"
    assert Player.objects.get().consent_version == CONSENT_VERSION
    page.goto(bp.url("/me/"))
    assert page.text_content("#consent-answer") == "yes"
    page.click("#consent-change")
    answer_research_question(page, yes=False)
    page.reload()
    assert page.text_content("#consent-answer") == "no"
    assert list(ConsentChange.objects.values_list("version", flat=True)) == [
        None,
        CONSENT_VERSION,
        None,
    ]
    assert_no_serious_violations(page, "My games with the answer")
    bp.assert_clean()


def test_the_keyboard_reaches_the_question_before_play_and_answers_it(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    order = []
    for _ in range(30):
        page.keyboard.press("Tab")
        order.append(focused_id(page))
        if order[-1] == "play-button":
            break
    assert "consent-yes" in order
    assert "consent-no" in order
    assert order.index("consent-no") < order.index("play-button")
    page.keyboard.press("Shift+Tab")
    while focused_id(page) != "consent-no":
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#consent-summary", state="visible")
    page.keyboard.press("Tab")
    assert focused_id(page) == "play-button"
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    assert Game.objects.get().research_consent is False
    bp.assert_clean()


@pytest.mark.parametrize("path", ["/play/", "/daily/"])
def test_every_start_button_asks_first_on_a_phone(
    open_page: Callable[..., BrowserPage], path: str
) -> None:
    from games.models import Game

    bp = open_page(PHONE, touch=True)
    page = bp.page
    page.goto(bp.url(path))
    page.wait_for_load_state("networkidle")
    start = "#new-game" if path == "/play/" else "#daily-play"
    assert top(page, "#consent-no") < top(page, start)
    assert page_width(bp) <= PHONE["width"]
    assert_no_serious_violations(page, f"{path} asking")
    page.tap(start)
    assert page.evaluate("() => document.activeElement.id") == "consent-yes"
    assert Game.objects.count() == 0
    page.tap("#consent-yes")
    wait_until_playable(page)
    assert Game.objects.get().research_consent is True
    bp.assert_clean()


def test_a_player_from_before_the_question_is_asked_on_play(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    # A player made without an answer (as the old Play button did), in this browser's session.
    make_unasked_player(page, bp.url("/api/v1/players/"))
    page.goto(bp.url("/play/"))
    page.wait_for_load_state("networkidle")
    assert page.is_visible("#consent-ask")
    assert Game.objects.count() == 0, "no game starts before the answer"
    answer_research_question(page, yes=False)
    wait_until_playable(page)
    assert Game.objects.get().research_consent is False
    bp.assert_clean()
