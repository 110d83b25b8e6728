"""People against the decoders: a person's planar game ends, and the comparison page shows the
decoders' results on the same seed (the decoders play at once without a broker)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.conftest import DESKTOP, SCREENSHOTS, BrowserPage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_comparison_page_shows_the_decoders_on_the_seed_of_a_finished_game(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game
    from results.models import DecoderComparison
    from tests.factories import PlanarGameFactory, play_planar

    # A person's game at L = 5 (web page), played with the matching decoder's plan.
    game = PlanarGameFactory.create(size=5, seed=5001, source=Game.Source.WEB)
    game = play_planar(game, decoder="matching")
    assert game.status == Game.Status.FINISHED
    rows = {row.decoder: row for row in DecoderComparison.objects.filter(human_game=game)}
    assert sorted(rows) == ["clustering", "matching", "optimal"]

    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/compare/"))
    group = page.locator('[data-group="L=5, p=0.1, d=2"]')
    assert group.locator("h2").inner_text() == "L=5, p=0.1, d=2"
    solved = 0 if game.logical_failure else 1
    assert f"People: {solved} of 1 game solved" in group.locator(".compare-people").inner_text()
    assert group.locator('tr[data-decoder="matching"] td').first.inner_text() == "1 board, 1 person"
    browser.screenshot("compare-page")
    link = group.locator(f'li[data-game="{game.pk}"] a')
    assert f"seed {game.seed}" in link.inner_text()
    link.click()
    page.wait_for_url(f"**/compare/{game.pk}/")
    assert f"seed {game.seed}" in page.locator(".lede").inner_text()
    for decoder, row in rows.items():
        outcome = page.locator(f'tr[data-decoder="{decoder}"] td').first
        assert outcome.inner_text() == ("failed" if row.bot_failed else "succeeded")
    # The person played matching's own plan: the same correction, edge for edge.
    cells = page.locator('tr[data-decoder="matching"] td')
    assert [cells.nth(i).inner_text() for i in range(1, 4)] == ["yes", "yes", "yes"]
    browser.screenshot("compare-game")

    # The dashboard's plot draws the people and the three decoders at L = 5, d = 2.
    page.goto(browser.url("/dashboard/"))
    page.wait_for_selector("#dashboard[data-state]")
    section = page.locator('.plot[data-plot="compare"]')
    assert section.get_attribute("data-state") == "ready"
    section.scroll_into_view_if_needed()
    canvas = section.locator(".plot-canvas")
    assert canvas.get_attribute("data-drawn") == "true"
    assert canvas.get_attribute("data-series") == str(1 + len(rows))
    tables = section.locator(".plot-extra table")
    assert "people" in tables.first.inner_text()
    # The class odds beside it: the people's and each decoder's, in a table and in words.
    assert tables.nth(1).locator("caption").inner_text().startswith("Class odds per error rate")
    assert section.locator('.plot-odds-words li[data-who="people"]').count() == 1
    section.screenshot(path=str(SCREENSHOTS / "compare-plot.png"))
    browser.assert_clean()
