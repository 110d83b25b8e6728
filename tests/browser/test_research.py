"""The research area in Chromium: the form, the preview, one game's page, on a phone and a desktop.

Screenshots of every page go to ``artifacts/screenshots/research-*.png``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width, sign_in_researcher

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from games.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCROLL_REGION = """sel => {
  const region = document.querySelector(sel);
  const label = document.getElementById(region.getAttribute('aria-labelledby'));
  return {role: region.getAttribute('role'), tabindex: region.tabIndex,
          label: label ? label.textContent.trim() : '',
          scrolls: region.scrollWidth > region.clientWidth};
}"""


def recorded_games() -> Game:
    from tests.factories import GameFactory, PlayerFactory, play

    player = PlayerFactory.create()
    play(GameFactory.create(player=player, seed=11, size=5), moves=3)
    return play(GameFactory.create(player=player, seed=7))


def assert_fits(bp: BrowserPage, width: int, what: str) -> None:
    assert page_width(bp) <= width, f"{what} is wider than the {width} px screen"


def focusable_region(page: Page, selector: str) -> dict:
    return dict(page.evaluate(SCROLL_REGION, selector))


@pytest.mark.slow  # every research page, with a preview, an error and a download
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_research_pages_fit_the_screen_and_preview_before_downloading(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], name: str
) -> None:
    from research.exports.tables import all_tables
    from research.selectors import export_filters, export_preview

    game = recorded_games()
    bp = open_page(viewport)
    sign_in_researcher(bp)
    page = bp.page
    width = viewport["width"]

    page.goto(bp.url("/research/"))
    assert_fits(bp, width, "the research page")
    bp.screenshot(f"research-{name}")
    # Only the filters the chosen table takes are shown.
    page.select_option("#table", "sweeps")
    assert page.is_hidden('[data-filter="player"]')
    assert page.is_visible('[data-filter="sweep"]')
    page.select_option("#table", "noise_errors")
    assert page.is_visible('[data-filter="player"]')
    assert page.is_hidden('[data-filter="sweep"]')
    assert page.get_attribute("#f-date_from", "type") == "date"
    page.fill("#f-date_from", "2020-01-01")
    page.fill("#f-size", "7")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview-count")
    expected = export_preview(
        table=all_tables()["noise_errors"],
        filters=export_filters(
            table=all_tables()["noise_errors"], params={"date_from": "2020-01-01", "size": "7"}
        ),
    )
    assert expected.count > 10
    assert page.text_content("#preview-count strong") == str(expected.count)
    assert page.locator(".research-preview tbody tr").count() == 10
    region = focusable_region(page, ".research-preview .table-scroll")
    assert region["role"] == "region"
    assert region["tabindex"] == 0
    assert region["label"].startswith("First 10 rows of noise_errors")
    assert region["scrolls"], "the preview's 31 columns scroll inside their region"
    assert page.get_attribute(".research-preview a.button-primary", "href") == (
        "/research/export/noise_errors.csv?date_from=2020-01-01&size=7"
    )
    assert_fits(bp, width, "the preview")
    bp.screenshot(f"research-preview-{name}")

    # A bad filter: the message beside the field, the page still fits.
    page.fill("#f-size", "99")
    page.click("button[name=preview]")
    page.wait_for_selector("#f-size-error")
    assert page.get_attribute("#f-size", "aria-invalid") == "true"
    assert "must be between" in (page.text_content("#f-size-error") or "")
    assert_fits(bp, width, "the page with an error")
    # The page with the error answers 400, as it should; nothing else failed.
    failed = [request.split("?")[0] for request in bp.failed_requests]
    assert failed == [f"400 {bp.url('/research/')}"]
    assert bp.console_errors == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]
    bp.failed_requests.clear()
    bp.console_errors.clear()

    # One game: the form leads to its page, with the replay, the events and the save file.
    page.fill("#f-game", str(game.pk))
    page.click("#one-game + form button[type=submit]")
    page.wait_for_url(f"**/research/games/{game.pk}/")
    page.wait_for_selector("#replay output:not(:empty)")
    assert page.locator(".replay-board td").count() == game.size * game.size
    page.click('[data-go="first"]')
    assert (page.text_content("#replay output") or "").startswith("board 1 of ")
    save = page.get_attribute("a[href$='/save.txt']", "href")
    assert save == f"/research/games/{game.pk}/save.txt"
    with page.expect_download() as download:
        page.click("a[href$='/save.txt']")
    assert download.value.suggested_filename == f"decodoku-game-{game.pk}.txt"
    assert_fits(bp, width, "the game's page")
    bp.screenshot(f"research-game-{name}")

    page.goto(bp.url("/research/codebook/"))
    assert_fits(bp, width, "the codebook")
    region = focusable_region(page, "#table-games .table-scroll")
    assert (region["role"], region["tabindex"]) == ("region", 0)
    bp.screenshot(f"research-codebook-{name}")
    page.goto(bp.url("/research/cite/"))
    assert_fits(bp, width, "the citation page")
    bp.screenshot(f"research-cite-{name}")
    bp.assert_clean()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_games_browse_page_filters_and_opens_a_game(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], name: str
) -> None:
    from core.pseudonyms import pseudonym
    from games.models import Game
    from tests.browser.axe import assert_no_serious_violations

    game = recorded_games()
    from django.utils import timezone

    Game.objects.filter(player_id=game.player_id, status=Game.Status.ACTIVE).update(
        status=Game.Status.ABANDONED, ended_at=timezone.now()
    )
    bp = open_page(viewport)
    sign_in_researcher(bp)
    page = bp.page
    page.goto(bp.url("/research/"))
    page.click("text=Browse the games")
    page.wait_for_url("**/research/games/")
    assert page.locator(".research-games-table tbody tr").count() == 2
    page.fill("#id_player", pseudonym(game.player_id))
    page.fill("#id_score_min", str(game.score))
    page.click("text=Show games")
    page.wait_for_url("**/research/games/?*player=*")
    rows = page.locator(".research-games-table tbody tr")
    assert rows.count() == 1
    assert_fits(bp, viewport["width"], "the browse page")
    assert_no_serious_violations(page, "/research/games/")
    bp.screenshot(f"research-games-{name}")
    rows.first.locator("a").click()
    page.wait_for_url(f"**/research/games/{game.pk}/")
    bp.assert_clean()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_preview_lands_at_its_result_and_a_refused_one_at_the_form(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], name: str
) -> None:
    recorded_games()
    bp = open_page(viewport)
    sign_in_researcher(bp)
    page = bp.page
    page.goto(bp.url("/research/"))
    page.select_option("#table", "games")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview-count")
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    # The preview's heading and count are on screen, without scrolling.
    heading = page.locator("#preview-title").bounding_box()
    count = page.locator("#preview-count").bounding_box()
    assert heading is not None
    assert count is not None
    assert 0 <= heading["y"] < viewport["height"] / 4, heading
    assert count["y"] + count["height"] <= viewport["height"], count
    landing = str(bp.screenshot(f"research-preview-landing-{name}"))
    page.screenshot(path=landing.replace(".png", "-screen.png"))
    # A refused preview has no result: the form with its error is what shows.
    page.fill("#f-size", "99")
    page.click("button[name=preview]")
    page.wait_for_selector("#f-size-error")
    page.wait_for_timeout(200)
    form = page.locator("#download-title").bounding_box()
    assert form is not None
    assert 0 <= form["y"] < viewport["height"] / 4, form
    bp.failed_requests.clear()
    bp.console_errors.clear()
    bp.assert_clean()
