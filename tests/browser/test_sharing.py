"""Sharing a finished game in the browser, and its public replay page for anybody."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_research_question, board_symbols, wait_until_playable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _start(bp: BrowserPage) -> None:
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=True)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    page.wait_for_load_state("networkidle")


def assert_within_viewport(bp: BrowserPage, selector: str) -> None:
    page = bp.page
    viewport = page.viewport_size
    assert viewport is not None
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= viewport["width"], f"{selector} sticks out sideways"


def test_a_shared_replay_opens_for_an_anonymous_visitor_and_an_unfinished_game_shows_nothing(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game
    from tests.factories import GameFactory, play

    owner = open_page(DESKTOP)
    page = owner.page
    owner.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    _start(owner)
    active = Game.objects.get()
    # A finished game of the same player (played on the server for speed), shown at its end.
    lost = play(GameFactory.create(player=active.player, size=5))
    page.goto(owner.url(f"/play/?game={lost.pk}"))
    page.wait_for_selector("#gameover:not([hidden])")
    page.wait_for_selector("#share-button:not([hidden])")
    page.click("#share-button")
    page.wait_for_selector("#share-panel:not([hidden])")
    share_text = page.inner_text("#share-text")
    assert share_text.startswith(f"I scored {lost.score} in Decodoku (Z10, 5\u00d75")
    link = page.get_attribute("#share-link", "href")
    assert link is not None
    assert "/shared/" in link
    assert str(lost.pk) not in link
    assert str(lost.player_id) not in link
    assert link in share_text
    page.click("#share-copy")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == share_text
    owner.screenshot("share-game-over-desktop")
    # The active game cannot be shared: the server refuses and records nothing.
    refused = page.evaluate(
        """async id => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('csrftoken='));
            const r = await fetch(`/api/v1/games/${id}/share/`, {method: 'POST',
              headers: {'X-CSRFToken': csrf.split('=')[1], 'Content-Type': 'application/json'},
              body: '{}'});
            return [r.status, (await r.json()).error.code];
        }""",
        str(active.pk),
    )
    assert refused == [409, "game_not_finished"]
    active.refresh_from_db()
    assert active.share_token is None
    owner.failed_requests.clear()  # that 409 was wanted
    owner.console_errors.clear()
    owner.assert_clean()

    # Anybody with the link, on a phone, with no player: the replay, stepped through.
    visitor = open_page(PHONE, touch=True)
    phone = visitor.page
    phone.goto(link)
    phone.wait_for_function(
        "n => document.querySelectorAll('#board .cell').length === n * n", arg=lost.size
    )
    phone.wait_for_function("() => document.querySelector('#replay-label').textContent !== ''")
    assert f"of {lost.moves_count}" in phone.inner_text("#replay-label")
    assert phone.inner_text("#shared-score").strip() == str(lost.score)
    assert phone.locator("#board .cell.is-spanning").count() > 0
    final = board_symbols(phone)
    phone.click("#replay-first")
    assert "First board" in phone.inner_text("#replay-label")
    first = board_symbols(phone)
    assert first != final
    phone.click("#replay-next")
    assert phone.inner_text("#replay-label").startswith("After move 1 of")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for selector in ("#board", "#replaybar", "#replay-next"):
        assert_within_viewport(visitor, selector)
    assert phone.evaluate("() => document.body.dataset.hasPlayer") == "false"
    visitor.screenshot("shared-replay-phone")
    visitor.assert_clean()

    # The unfinished game has no link: whatever the visitor tries, nothing of it shows.
    stranger = open_page(PHONE)
    for path in (f"/shared/{active.pk}/", f"/shared/{active.pk.hex[:22]}/"):
        response = stranger.page.goto(stranger.url(path))
        assert response is not None
        assert response.status == 404
        assert stranger.page.is_visible("#shared-missing")
        assert stranger.page.locator("#board, .cell, #shared-score").count() == 0
    stranger.screenshot("shared-missing-phone")
    assert Game.objects.exclude(share_token=None).count() == 1


def test_the_shared_page_and_its_preview_image_at_both_sizes(
    open_page: Callable[..., BrowserPage],
) -> None:
    import io

    from PIL import Image

    from games.services import game_share
    from tests.browser.conftest import SCREENSHOTS
    from tests.factories import GameFactory, PlayerFactory, play

    lost = play(GameFactory.create(player=PlayerFactory.create(), size=7))
    token = game_share(game_id=lost.pk, player=lost.player).share_token
    for viewport, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        bp = open_page(viewport)
        page = bp.page
        page.goto(bp.url(f"/shared/{token}/"))
        page.wait_for_function("() => document.querySelector('#replay-label').textContent !== ''")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport["width"]
        bp.screenshot(f"shared-page-{label}")
        response = page.request.get(bp.url(f"/shared/{token}/image.png"))
        assert response.status == 200
        image = Image.open(io.BytesIO(response.body()))
        assert image.size == (1200, 630)
        bp.assert_clean()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "shared-preview-image.png").write_bytes(response.body())
