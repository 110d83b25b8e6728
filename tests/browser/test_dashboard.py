"""The threshold dashboard in headless Chromium: every plot drawn, no console error."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.contrib.sessions.backends.db import SessionStore

from core.sessions import PLAYER_SESSION_KEY
from dashboard.services import aggregates_refresh
from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, BrowserPage
from tests.browser.helpers import text
from tests.dashboard.helpers import add_analyses, add_sweep, add_threshold_sweep, known_games

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLOTS = ("survival", "hazard", "threshold", "budget", "lifetime", "noise", "strategy", "activity")


def fill() -> str:
    """Known games, analyses and a sweep; returns a session key of a player with games."""
    players = known_games()
    add_analyses()
    add_sweep()
    add_threshold_sweep()
    aggregates_refresh(settle=datetime.timedelta(0))
    session = SessionStore()
    session[PLAYER_SESSION_KEY] = str(players["bob"].pk)
    session.create()
    assert session.session_key is not None
    return session.session_key


def open_dashboard(
    opener: Callable[..., BrowserPage], viewport: ViewportSize, session_key: str
) -> BrowserPage:
    bp = opener(viewport)
    bp.page.context.add_cookies([{"name": "sessionid", "value": session_key, "url": bp.base_url}])
    bp.page.goto(bp.url("/dashboard/"))
    bp.page.wait_for_selector("#dashboard[data-state]")
    return bp


def test_every_plot_is_drawn_with_no_console_error(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_dashboard(open_page, DESKTOP, fill())
    page = bp.page

    assert page.get_attribute("#dashboard", "data-state") == "ready"
    for plot in PLOTS:
        section = f'.plot[data-plot="{plot}"]'
        assert page.get_attribute(section, "data-state") == "ready", plot
        assert page.get_attribute(f"{section} .plot-canvas", "data-drawn") == "true", plot
        assert page.locator(f"{section} canvas").count() == 1, plot
        games = int(page.get_attribute(f"{section} .plot-games", "data-games") or "")
        assert games > 0, plot
    assert text(page, '[data-games-for="survival"]').strip() == "Based on 7 games."
    # The player's own games are summarised and marked.
    assert page.is_visible("#mine")
    assert "longer than 88% of players' games" in text(page, "#mine-summary")
    assert "your games" in text(page, '.plot[data-plot="survival"] .u-legend')

    # A legend entry works from the keyboard: it hides and shows its curve.
    entry = page.locator('.plot[data-plot="survival"] .u-legend .u-series[tabindex="0"]').first
    entry.focus()
    assert entry.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_function(
        '() => document.querySelector(\'.plot[data-plot="survival"] .u-legend '
        ".u-series[tabindex=\"0\"]').getAttribute('aria-pressed') === 'false'"
    )

    # Each plot's CSV link downloads its numbers.
    for plot in PLOTS:
        href = page.get_attribute(f'.plot[data-plot="{plot}"] .plot-csv', "href")
        assert href is not None, plot
        response = page.request.get(bp.url(href))
        assert response.status == 200
        assert response.headers["content-type"].startswith("text/csv")
    bp.screenshot("dashboard-desktop")
    bp.assert_clean()


def test_the_dashboard_fits_a_phone_and_filters(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_dashboard(open_page, PHONE, fill())
    page = bp.page

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.select_option("#filter-size", "5")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**/dashboard/?*size=5*")
    page.wait_for_selector('#dashboard[data-state="ready"]')
    assert page.get_attribute('[data-games-for="survival"]', "data-games") == "1"
    assert page.input_value("#filter-size") == "5"
    bp.screenshot("dashboard-phone")
    bp.assert_clean()


def test_the_threshold_plot_shows_the_curves_the_band_and_the_game(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_dashboard(open_page, DESKTOP, fill())
    page = bp.page
    section = '.plot[data-plot="threshold"]'
    assert page.get_attribute(section, "data-state") == "ready"
    assert page.get_attribute(f"{section} .plot-canvas", "data-drawn") == "true"
    # One drawn crossing (its band and line), a curve per size with its 95% band.
    assert page.get_attribute(f"{section} .plot-canvas", "data-thresholds") == "1"
    legend = text(page, f"{section} .u-legend")
    assert "clustering L=6" in legend
    assert "clustering L=10" in legend
    message = text(page, f'{section} .threshold-message[data-bot="clustering"]')
    assert message.startswith("clustering: threshold p = 0.2")
    mark = text(page, f"{section} .game-mark")
    assert "The original game at L=7: p = 0.0655 per edge per round" in mark
    assert "the clustering threshold" in mark
    rows = page.locator(f"{section} .plot-table tbody tr")
    assert rows.count() == 1
    assert rows.first.locator("td").first.text_content() == "clustering"
    bp.screenshot("dashboard-threshold-page")
    page.locator(section).screenshot(path=str(SCREENSHOTS / "dashboard-threshold-plot.png"))
    assert (SCREENSHOTS / "dashboard-threshold-plot.png").stat().st_size > 0
    bp.assert_clean()
