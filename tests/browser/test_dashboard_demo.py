"""The dashboard over the demo data (``manage.py seed_demo``), as a first visitor sees it.

Screenshots: ``artifacts/screenshots/dashboard-demo-1280x800.png`` and
``dashboard-demo-390x844.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.core.management import call_command

from dashboard.filters import Filters
from dashboard.selectors import plot_json
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Each curve's values, for the family shown: whether anything drops below its start.
FAMILY_SHOWN = """name => {
  const section = document.querySelector(`.plot[data-plot="${name}"]`);
  return {family: section.dataset.family,
          note: section.querySelector('.plot-canvas .plot-note')?.textContent ?? null,
          options: [...section.querySelectorAll('.plot-family option')].map(o => o.textContent)};
}"""


def open_demo(opener: Callable[..., BrowserPage], viewport: ViewportSize) -> BrowserPage:
    bp = opener(viewport)
    bp.page.goto(bp.url("/dashboard/"))
    bp.page.wait_for_selector('#dashboard[data-state="ready"]')
    return bp


@pytest.fixture
def demo(db: None) -> None:
    call_command("seed_demo", stdout=None)


# Both screens are looked at over one seeding of the demo data: seeding is most
# of each test's time, and neither screen changes the data.
def test_the_demo_dashboard_on_a_desktop_and_on_a_phone(
    demo: None, open_page: Callable[..., BrowserPage]
) -> None:
    opens_on_plots_that_show_something(open_page)
    fits_a_phone(open_page)


def opens_on_plots_that_show_something(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_demo(open_page, DESKTOP)
    page = bp.page
    bodies = {
        name: json.loads(plot_json(name=name, filters=Filters())) for name in ("survival", "hazard")
    }

    def shows_a_loss(name: str, family: dict) -> bool:
        curves = [bodies[name]["curves"][i] for i in family["members"]]
        if name == "survival":
            return any(v < 1 for c in curves for v in c["survival"])
        return any(v > 0 for c in curves for v in c["hazard"])

    for name, body in bodies.items():
        shown = page.evaluate(FAMILY_SHOWN, name)
        family = next(f for f in body["view"]["families"] if f["key"] == shown["family"])
        assert shows_a_loss(name, family), name
        assert shown["note"] is None
    # A family where no game was lost says so over its plot.
    families = bodies["survival"]["view"]["families"]
    flat = next(i for i, f in enumerate(families) if not shows_a_loss("survival", f))
    page.select_option('.plot[data-plot="survival"] .plot-family select', str(flat))
    note = page.evaluate(FAMILY_SHOWN, "survival")["note"]
    assert note is not None
    assert note.startswith("No loss to show")

    body_text = page.inner_text("body")
    # Timestamps read as minutes in UTC, never with seconds and microseconds.
    assert not re.search(r"\d\d:\d\d:\d\d\.\d+", body_text)
    assert re.search(r"finished \d{4}-\d\d-\d\d \d\d:\d\d UTC", body_text)
    # The chi2/dof of the table is the one of the sentence above it.
    for section in ("threshold", "spanning"):
        plot = f'.plot[data-plot="{section}"]'
        messages = page.locator(f"{plot} .threshold-message").all_text_contents()
        rows = page.locator(f'.plot[data-plot="{section}"] .plot-table tbody tr')
        for message, row_index in zip(messages, range(rows.count()), strict=True):
            in_text = re.search(r"chi2/dof = ([0-9.]+)", message)
            if in_text is None:
                continue
            cell = rows.nth(row_index).locator("td").nth(6).text_content()
            assert cell == in_text.group(1), (section, message, cell)
    # The demo banner counts the players' games as the plots do: none here.
    banner = " ".join(page.inner_text(".dashboard-demo").split())
    assert "there are no players' games in the plots" in banner
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bp.screenshot("dashboard-demo-1280x800")
    bp.assert_clean()


def fits_a_phone(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_demo(open_page, PHONE)
    page = bp.page
    # A table wider than its card says that it scrolls sideways.
    box = page.locator('.plot[data-plot="threshold"] .plot-table-box').first
    assert box.get_attribute("data-scrolls") == "true"
    assert box.locator(".plot-table-hint").is_visible()
    # Every y axis label fits the plot's height: the short labels are chosen on a phone.
    labels = page.evaluate("""async () => {
      const { fitLabel } = await import('/static/dashboard/plots.js');
      const width = document.querySelector('.plot-canvas').clientWidth;
      return [fitLabel(width, ['share of games still going', 'share still going']),
              fitLabel(width, ['chance of losing in the round', 'P(loss in round)'])];
    }""")
    assert labels == ["share still going", "P(loss in round)"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    bp.screenshot("dashboard-demo-390x844")
    bp.assert_clean()
