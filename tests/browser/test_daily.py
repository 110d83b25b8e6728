"""The daily challenge: two players, one on a desktop and one on a phone, meet the same board."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import (
    answer_research_question,
    board_symbols,
    click_move,
    pick_move,
    wait_for_moves,
    wait_until_playable,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_daily(browser: BrowserPage, *, consent: bool) -> tuple[str, list[str]]:
    """Open /daily/, press "Play today's challenge"; the game's id and its first board."""
    page = browser.page
    page.goto(browser.url("/"))
    page.click("#daily-link")
    page.wait_for_url("**/daily/")
    answer_research_question(page, yes=consent)
    page.click("#daily-play")
    page.wait_for_url("**/play/?game=*")
    wait_until_playable(page)
    game_id = page.url.split("game=")[1]
    return game_id, board_symbols(page)


def test_two_players_play_the_same_daily_challenge_and_see_each_other(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game
    from games.services import game_abandon
    from tests.factories import play

    desktop = open_page(DESKTOP)
    phone = open_page(PHONE, touch=True)
    first_id, first_board = start_daily(desktop, consent=True)
    second_id, second_board = start_daily(phone, consent=False)
    assert first_id != second_id
    assert first_board == second_board
    assert sum(1 for symbol in first_board if symbol) > 0
    phone.screenshot("daily-first-board-phone")
    desktop.screenshot("daily-first-board-desktop")
    for browser in (desktop, phone):
        assert "Daily challenge" in browser.page.inner_text("#game-tags")

    # Each plays a move on the page, then the games end (on the server, for speed).
    for browser in (desktop, phone):
        source, target = pick_move(board_symbols(browser.page))
        click_move(browser.page, source, target)
        wait_for_moves(browser.page, 1)
    first = play(Game.objects.get(pk=first_id))
    second_game = Game.objects.get(pk=second_id)
    second = game_abandon(game_id=second_game.pk, player=second_game.player)
    assert first.daily_id == second.daily_id is not None
    assert first.research_consent
    assert not second.research_consent

    # The desktop player picks a display name on My games.
    desktop.page.goto(desktop.url("/me/"))
    desktop.page.fill("#display-name-input", "Desk Player")
    desktop.page.click("text=Save name")
    assert "Desk Player" in desktop.page.inner_text(".me-saved")

    from core.pseudonyms import pseudonym

    for browser, mine, width in (
        (desktop, "Desk Player", DESKTOP["width"]),
        (phone, pseudonym(second.player_id), PHONE["width"]),
    ):
        page = browser.page
        page.goto(browser.url("/daily/"))
        rows = page.locator("#daily-leaderboard tbody tr")
        assert rows.count() == 2
        board_text = page.inner_text("#daily-leaderboard")
        assert "Desk Player" in board_text
        assert pseudonym(second.player_id) in board_text
        assert mine in page.inner_text("#daily-leaderboard .daily-you")
        assert page.is_visible("#daily-mine")
        assert page.locator("#daily-play").count() == 0
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    desktop.screenshot("daily-leaderboard-desktop")
    phone.screenshot("daily-leaderboard-phone")
    desktop.assert_clean()
    phone.assert_clean()
