"""A returning player: recovery code, restoring in another browser, My games."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_research_question, wait_until_playable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_restores_their_games_in_a_new_browser_with_the_recovery_code(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game, Player
    from tests.factories import play

    first = open_page(DESKTOP)
    page = first.page
    page.goto(first.url("/"))
    answer_research_question(page, yes=True)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    page.wait_for_load_state("networkidle")
    lost = play(Game.objects.get())  # the game ends (played on the server for speed)
    page.goto(first.url("/me/"))
    page.click("text=Make a recovery code")
    code = page.inner_text("#recovery-code").strip()
    assert len(code.replace("-", "")) == 20
    # A reload shows the same code, still valid: only the button makes a new one.
    page.reload()
    assert page.inner_text("#recovery-code").strip() == code
    assert page.is_visible("#recovery-copy")
    page.click("#recovery-copy")
    page.wait_for_function("() => document.querySelector('#recovery-copy-status').textContent")
    first.screenshot("me-recovery-code-desktop")
    first.assert_clean()

    second = open_page(PHONE)
    phone = second.page
    phone.goto(second.url("/me/"))
    assert "No player in this browser yet" in phone.inner_text("main")
    phone.goto(second.url("/restore/"))
    phone.fill("#recovery-input", "0000-0000-0000-0000-0000")
    phone.click("button[type=submit]")
    assert phone.is_visible("#recovery-error")
    # That 400 was wanted; every request from here on must succeed.
    second.console_errors.clear()
    second.failed_requests.clear()
    phone.fill("#recovery-input", code.lower())
    phone.click("button[type=submit]")
    phone.wait_for_url("**/me/")
    rows = phone.locator("#games-title ~ .me-scroll tbody tr")
    assert rows.count() == 1
    assert str(lost.score) in rows.first.inner_text()
    assert phone.locator("#bests-title ~ .me-scroll tbody tr").count() == 1
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The page keeps a margin from the screen's edges, as the other pages do, and
    # the captions of the tables that scroll sideways wrap within the screen.
    for selector in ("main h1", "main section.card"):
        box = phone.locator(selector).first.bounding_box()
        assert box is not None
        assert box["x"] >= 8, f"{selector} touches the screen's edge"
    for caption in phone.locator(".me-table caption").all():
        box = caption.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= PHONE["width"], "a caption runs off the screen"
    second.screenshot("me-restored-phone")
    phone.click("text=Replay")
    phone.wait_for_selector("#gameover:not([hidden])")
    assert phone.inner_text("#final-score").strip() == str(lost.score)
    assert Player.objects.count() == 1
    second.assert_clean()


def test_the_recovery_code_survives_reloads_on_a_phone_until_a_new_one_is_asked_for(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Player
    from games.selectors import player_by_recovery_code

    bp = open_page(PHONE, touch=True)
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=False)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    page.goto(bp.url("/me/"))
    page.click("#recovery-new")
    # The button posts a form: the next page loads in full before it is reloaded (a
    # reload while its scripts load aborts them, which the page's log counts as failed).
    page.wait_for_load_state("load")
    code = page.inner_text("#recovery-code").strip()
    for _ in range(2):
        page.reload()
        assert page.inner_text("#recovery-code").strip() == code
    player = Player.objects.get()
    assert player_by_recovery_code(code=code) == player
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    bp.screenshot("me-recovery-code-phone")
    page.click("#recovery-new")
    page.wait_for_load_state("load")
    fresh = page.inner_text("#recovery-code").strip()
    assert fresh != code
    assert player_by_recovery_code(code=code) is None
    assert player_by_recovery_code(code=fresh) == player
    bp.assert_clean()
