"""People against the decoders can be found and read at both sizes: from a planar game's
end, the menu and My games; the player's own game marked; a compared game's page with a
picture of both corrections and the replay; no table clipped, no sideways scroll."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _as_player(bp: BrowserPage, player_id: str) -> None:
    """Give the browser context the session of the player ``player_id``."""
    from django.test import Client

    from core.sessions import PLAYER_SESSION_KEY

    client = Client()
    session = client.session
    session[PLAYER_SESSION_KEY] = player_id
    session.save()
    assert session.session_key is not None
    bp.page.context.add_cookies(
        [{"name": "sessionid", "value": session.session_key, "url": bp.base_url}]
    )


def _fits(bp: BrowserPage, width: int, what: str) -> None:
    """No sideways scroll of the page; every table fits its box or says it scrolls."""
    assert page_width(bp) <= width, f"{what}: the page scrolls sideways"
    boxes = bp.page.evaluate(
        """() => [...document.querySelectorAll('.table-scroll')].map((box) => ({
             over: box.scrollWidth > box.clientWidth + 1,
             widths: [box.scrollWidth, box.clientWidth],
             hint: !!box.querySelector('.scroll-hint:not([hidden])'),
             caption: (() => { const c = box.querySelector('caption');
                               return c ? c.scrollWidth <= c.clientWidth + 1 : true; })(),
           }))"""
    )
    for box in boxes:
        assert box["caption"], f"{what}: a caption is cut"
        assert not box["over"] or box["hint"], f"{what}: a table overflows with no hint"
    # Split in narrow tables at desktop, stacked as cards on a phone: all of them fit.
    clipped = [box["widths"] for box in boxes if box["over"]]
    assert clipped == [], f"{what}: tables wider than their box"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_comparison_is_found_from_the_games_end_the_menu_and_my_games(
    open_page: Callable[..., BrowserPage], viewport
) -> None:
    from games.models import Game
    from results.models import DecoderComparison
    from tests.factories import PlanarGameFactory, PlayerFactory, play_planar

    player = PlayerFactory.create()
    game = play_planar(PlanarGameFactory.create(player=player, size=5, seed=5011,
                                                source=Game.Source.WEB), decoder="clustering")
    other = play_planar(PlanarGameFactory.create(size=5, seed=5012, source=Game.Source.WEB),
                        decoder="matching")
    assert game.status == other.status == Game.Status.FINISHED
    decoders = sorted(DecoderComparison.objects.filter(human_game=game)
                      .values_list("decoder", flat=True))
    assert decoders

    phone = viewport is PHONE
    size = "phone" if phone else "desktop"
    bp = open_page(viewport, touch=phone)
    _as_player(bp, str(player.pk))
    page = bp.page

    # The game's end links to its comparison.
    page.goto(bp.url(f"/play/?game={game.pk}"))
    page.wait_for_selector("#gameover:not([hidden])")
    link = page.locator("#gameover-compare-link")
    assert link.is_visible()
    link.click()
    page.wait_for_url(f"**/compare/{game.pk}/")
    assert page.locator("h1").inner_text() == "Your planar game against the decoders"
    pictures = page.locator("figure.compare-picture")
    assert sorted(pictures.nth(i).get_attribute("data-decoder") or ""
                  for i in range(pictures.count())) == decoders
    assert page.locator('figure[data-decoder="clustering"]').get_attribute("data-differing") == "0"
    assert page.locator("figure.compare-picture svg line.chain-person").count() > 0
    _fits(bp, viewport["width"], "a compared game's page")
    assert_no_serious_violations(page, f"a compared game's page ({size})")
    bp.screenshot(f"compare-game-{size}")
    # Its replay opens the game on the play page, first click.
    page.locator("#compare-replay").click()
    page.wait_for_url(f"**/play/?game={game.pk}")
    page.wait_for_selector("#gameover:not([hidden])")

    # The menu leads to the comparison, where the player's own game is marked.
    page.locator('.site-nav a', has_text="Compare").click()
    page.wait_for_url("**/compare/")
    mine = page.locator(f'.compare-group li[data-game="{game.pk}"]')
    assert mine.get_attribute("data-mine") is not None
    assert mine.inner_text().startswith("Your game of")
    assert page.locator(f'.compare-group li[data-game="{other.pk}"]').inner_text().startswith(
        "Game of")
    assert page.locator(f'#compare-mine li[data-game="{game.pk}"]').count() == 1
    assert "class people chose was right with probability" in page.locator(
        ".compare-group .compare-odds").first.inner_text()
    _fits(bp, viewport["width"], "/compare/")
    assert_no_serious_violations(page, f"/compare/ ({size})")
    bp.screenshot(f"compare-{size}")
    # A box too narrow for its table says that it scrolls.
    first = page.locator(".table-scroll").first
    assert first.locator(".scroll-hint").is_hidden()
    page.evaluate("""() => {
        document.querySelector('.table-scroll table').style.minWidth = '1600px';
        window.dispatchEvent(new Event('resize'));
    }""")
    assert first.locator(".scroll-hint").is_visible()
    assert first.get_attribute("data-overflowing") == "true"

    # My games lists the compared game, with a link to it.
    page.goto(bp.url("/me/"))
    section = page.locator("#compare-section")
    section.locator(f'a[href="/compare/{game.pk}/"]').click()
    page.wait_for_url(f"**/compare/{game.pk}/")
    assert page.locator("figure.compare-picture").count() == len(decoders)
    bp.assert_clean()


def test_a_planar_game_of_a_player_who_said_no_links_to_no_comparison(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game
    from tests.factories import PlanarGameFactory, PlayerFactory, play_planar

    player = PlayerFactory.create(consent_version=None)
    game = play_planar(PlanarGameFactory.create(player=player, size=5, seed=5011,
                                                source=Game.Source.WEB), decoder="clustering")
    assert game.status == Game.Status.FINISHED
    bp = open_page(DESKTOP)
    _as_player(bp, str(player.pk))
    bp.page.goto(bp.url(f"/play/?game={game.pk}"))
    bp.page.wait_for_selector("#gameover:not([hidden])")
    # Its game is not research data: no comparison exists, so none is offered.
    assert bp.page.locator("#gameover-compare").is_hidden()
