"""The threshold dashboard in headless Chromium: every plot drawn, no console error."""

from __future__ import annotations

import datetime
import struct
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

import pytest
from django.contrib.sessions.backends.db import SessionStore

from core.sessions import PLAYER_SESSION_KEY
from dashboard.services import aggregates_refresh
from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, BrowserPage
from tests.browser.helpers import text
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.dashboard.helpers import (
    add_analyses,
    add_planar_sweep,
    add_sweep,
    add_threshold_sweep,
    known_games,
)

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLOTS = ("threshold", "spanning", "survival", "hazard", "budget", "lifetime", "noise", "strategy",
         "activity")


def fill() -> str:
    """Known games, analyses and sweeps; returns a session key of a player with games."""
    players = known_games()
    add_analyses()
    add_sweep()
    add_threshold_sweep()
    add_planar_sweep()
    aggregates_refresh(settle=datetime.timedelta(0))
    session = SessionStore()
    session[PLAYER_SESSION_KEY] = str(players["bob"].pk)
    session.create()
    assert session.session_key is not None
    return session.session_key


def open_dashboard(
    opener: Callable[..., BrowserPage],
    viewport: ViewportSize,
    session_key: str,
    *,
    init_script: str | None = None,
) -> BrowserPage:
    bp = opener(viewport)
    bp.page.context.add_cookies([{"name": "sessionid", "value": session_key, "url": bp.base_url}])
    if init_script is not None:
        bp.page.add_init_script(init_script)
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
    survival = '.plot[data-plot="survival"]'
    assert "your games" in text(page, f"{survival} .plot-legend")
    # It opens on one family (players at b=6, across L); greedy's is in the menu.
    assert page.get_attribute(survival, "data-family") == "human|z10|6.0"
    assert "Too few games to compare board sizes" in text(page, f"{survival} .plot-caption")
    for plot in PLOTS:
        assert text(page, f'.plot[data-plot="{plot}"] .plot-caption').strip(), plot
    page.select_option(f"{survival} .plot-family select", label="greedy, b=6 (2 games)")
    page.wait_for_function(
        "s => document.querySelector(s).dataset.family === 'greedy|z10|6.0'", arg=survival
    )
    assert "median lifetime 1 round" in text(page, f"{survival} .plot-caption")
    page.select_option(f"{survival} .plot-family select", index=0)

    # A legend entry hides and shows its curve, by mouse and by keyboard.
    curve_shown = (
        "() => document.querySelector('[data-canvas-for=survival]').plot.series[1].show"
    )
    pixels = "() => document.querySelector('[data-canvas-for=survival] canvas').toDataURL()"
    entry = page.locator(f"{survival} .legend-item").first
    assert entry.get_attribute("aria-pressed") == "true"
    swatch = entry.locator(".legend-swatch")
    assert swatch.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(0, 114, 178)"
    before = page.evaluate(pixels)
    entry.click()
    assert entry.get_attribute("aria-pressed") == "false"
    assert page.evaluate(curve_shown) is False
    assert page.evaluate(pixels) != before
    entry.focus()
    page.keyboard.press("Enter")
    assert entry.get_attribute("aria-pressed") == "true"
    assert page.evaluate(curve_shown) is True

    # The legend shows the values at the cursor: the last values, then where the keys move it.
    assert text(page, f"{survival} .legend-at").startswith("Last values, at round")
    page.focus(f"{survival} .plot-canvas")
    page.keyboard.press("Home")
    assert text(page, f"{survival} .legend-at") == "At round 0:"
    assert "100.0%" in text(page, f"{survival} .legend-item")
    assert text(page, f"{survival} .plot-readout").startswith("At round 0: L=5 (1 game): 100.0%")

    # Plots are groups, not images holding buttons; wide tables are labelled, focusable regions.
    assert page.locator(".plot [role=img]").count() == 0
    tables = page.locator(".plot-table")
    assert tables.count() >= len(PLOTS)
    for i in range(tables.count()):
        region = tables.nth(i)
        assert region.get_attribute("tabindex") == "0"
        assert region.get_attribute("role") == "region"
        assert region.get_attribute("aria-label")

    # Each plot's CSV link downloads its numbers.
    for plot in PLOTS:
        href = page.get_attribute(f'.plot[data-plot="{plot}"] .plot-csv', "href")
        assert href is not None, plot
        response = page.request.get(bp.url(href))
        assert response.status == 200
        assert response.headers["content-type"].startswith("text/csv")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bp.screenshot("dashboard-1280x800")
    bp.assert_clean()


def test_the_dashboard_fits_a_phone_and_filters(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_dashboard(open_page, PHONE, fill())
    page = bp.page

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bp.screenshot("dashboard-390x844")
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(100)  # the plots follow the width of their box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size(PHONE)
    page.select_option("#filter-size", "5")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**/dashboard/?*size=5*")
    page.wait_for_selector('#dashboard[data-state="ready"]')
    assert page.get_attribute('[data-games-for="survival"]', "data-games") == "1"
    assert page.input_value("#filter-size") == "5"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bp.assert_clean()


def test_the_qec_threshold_plot_leads_with_the_planar_code_and_the_hashing_bound(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_dashboard(open_page, DESKTOP, fill(), init_script=RECORD_VIOLATIONS)
    page = bp.page
    # The page leads with it, and the game's own spanning threshold follows.
    titles = page.locator(".plot h2").all_text_contents()
    assert titles[0] == "1. QEC threshold: logical failure of the planar code"
    assert titles[1] == "2. Spanning threshold: the game's own loss rule"
    section = '.plot[data-plot="threshold"]'
    canvas = f"{section} .plot-canvas"
    assert page.get_attribute(section, "data-state") == "ready"
    assert page.get_attribute(canvas, "data-drawn") == "true"
    assert page.get_attribute(canvas, "data-criterion") == "logical"
    assert page.get_attribute(canvas, "data-thresholds") == "1"
    assert float(page.get_attribute(canvas, "data-hashing-bound") or "") == pytest.approx(
        0.110028, abs=1e-6)
    assert page.get_attribute(section, "data-family") == "matching"
    legend = text(page, f"{section} .plot-legend")
    assert "L=6" in legend
    assert "L=10" in legend
    axes = page.evaluate(
        "() => document.querySelector('[data-canvas-for=threshold]').plot.axes.map(a => a.label)")
    # The y axis's label says what fails; "(log scale)" only where the plot is tall enough.
    assert axes[0] == "error rate p per edge"
    assert axes[1].startswith("logical failure probability")
    marks = page.evaluate(
        "() => document.querySelector('[data-canvas-for=threshold]').plot.marks"
        ".filter(m => m.label).map(m => [m.label, m.x])")
    assert marks == [["hashing bound d=2", pytest.approx(0.110028, abs=1e-6)]]
    assert "A failure is a logical error" in text(page, f"{section} .criterion-note")
    bound_note = text(page, f"{section} .hashing-bound")
    assert "hashing bound of this noise for d=2, p = 0.1100" in bound_note
    assert "the rate random codes reach, a reference rather than a ceiling" in bound_note
    note = text(page, f'{section} .hashing-note[data-bot="matching"]')
    assert note.startswith("matching: the curves cross at p = 0.10")
    assert "(95% interval 0." in note
    assert "below the hashing bound for d=2 (p = 0.1100), at 9" in note
    assert page.locator(f"{section} .game-mark").count() == 0
    caption = text(page, f"{section} .plot-table caption")
    assert caption.startswith("Threshold per bot (logical failure of the planar code, d=2)")
    assert "The hashing bound for d=2 is p = 0.11" in text(page, f"{section} .plot-caption")
    page.locator(section).screenshot(path=str(SCREENSHOTS / "dashboard-threshold-plot.png"))

    with page.expect_download() as svg_download:
        page.click(f'{section} .plot-export[data-format="svg"]')
    document = Path(svg_download.value.path()).read_text()
    ElementTree.fromstring(document)  # noqa: S314 (well-formed XML; the page made it)
    assert "<title>QEC threshold: logical failure of the planar code</title>" in document
    assert "hashing bound d=2" in document
    assert "logical failure probability" in document
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "dashboard-threshold-export.svg").write_text(document)
    assert page.evaluate("window.__cspViolations") == []
    bp.assert_clean()


def test_the_spanning_plot_shows_the_curves_the_band_and_the_game_and_exports(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_dashboard(open_page, DESKTOP, fill(), init_script=RECORD_VIOLATIONS)
    page = bp.page
    section = '.plot[data-plot="spanning"]'
    assert page.get_attribute(section, "data-state") == "ready"
    assert page.get_attribute(f"{section} .plot-canvas", "data-criterion") == "spanning"
    assert page.get_attribute(f"{section} .plot-canvas", "data-hashing-bound") == ""
    assert "the game's own measure, not a logical failure rate" in text(
        page, f"{section} .criterion-note")
    assert page.locator(f"{section} .hashing-note").count() == 0
    axes = page.evaluate(
        "() => document.querySelector('[data-canvas-for=spanning]').plot.axes.map(a => a.label)")
    assert axes[1].startswith("spanning failure probability")
    assert text(page, f"{section} .plot-table caption").startswith(
        "Threshold per bot (spanning: the game's loss rule, not a logical failure rate)")
    assert page.get_attribute(f"{section} .plot-canvas", "data-drawn") == "true"
    # One drawn crossing (its band and line), a curve per size with its 95% band.
    assert page.get_attribute(f"{section} .plot-canvas", "data-thresholds") == "1"
    assert page.get_attribute(section, "data-family") == "clustering"
    legend = text(page, f"{section} .plot-legend")
    assert "L=6" in legend
    assert "L=10" in legend
    message = text(page, f'{section} .threshold-message[data-bot="clustering"]')
    assert message.startswith("clustering: finite-size estimate p = 0.2")
    mark = text(page, f"{section} .game-mark")
    assert "The original game at L=7: p = 0.0655 per edge per round" in mark
    assert "the clustering threshold" in mark
    rows = page.locator(f"{section} .plot-table tbody tr")
    assert rows.count() == 1
    assert rows.first.locator("td").first.text_content() == "clustering"
    bp.screenshot("dashboard-threshold-page")
    page.locator(section).screenshot(path=str(SCREENSHOTS / "dashboard-spanning-plot.png"))
    assert (SCREENSHOTS / "dashboard-spanning-plot.png").stat().st_size > 0

    # It downloads as SVG and PNG, made in the page under its Content-Security-Policy.
    with page.expect_download() as svg_download:
        page.click(f'{section} .plot-export[data-format="svg"]')
    svg = svg_download.value
    assert svg.suggested_filename == "decodoku-spanning.svg"
    document = Path(svg.path()).read_text()
    assert document.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    ElementTree.fromstring(document)  # noqa: S314 (well-formed XML; the page made it)
    assert "<title>Spanning threshold: the game&apos;s own loss rule</title>" in document
    assert document.count("<path ") >= 4  # two curves and their two bands
    assert "L=10" in document
    # The curves in the first two Okabe-Ito colours, their bands translucent.
    assert 'stroke="#0072B2"' in document
    assert 'stroke="#D55E00"' in document
    assert 'fill="rgba(0, 114, 178, 0.12)"' in document
    assert "The curves cross at p = " in document

    with page.expect_download() as png_download:
        page.click(f'{section} .plot-export[data-format="png"]')
    png = png_download.value
    assert png.suggested_filename == "decodoku-spanning.png"
    data = Path(png.path()).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "dashboard-spanning-export.png").write_bytes(data)
    (SCREENSHOTS / "dashboard-spanning-export.svg").write_text(document)
    width, height = struct.unpack(">II", data[16:24])
    # Drawn at twice the plot's size.
    assert width > 1000
    assert height > 600
    assert page.evaluate("window.__cspViolations") == []
    bp.assert_clean()
