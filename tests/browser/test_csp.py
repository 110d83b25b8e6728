"""The pages in Chromium under the site's Content-Security-Policy: no violation,
nothing from another host, no console error (the headers: tests/hostile/test_csp.py)."""

from __future__ import annotations

import pytest

from tests.hostile.test_csp import PAGES

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", PAGES)
def test_no_page_violates_the_policy_in_chromium(open_page, path):
    browser_page = open_page()
    page = browser_page.page
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(browser_page.url(path))
    assert response is not None
    assert response.ok
    page.wait_for_load_state("networkidle")
    if path.startswith("/api/v1/"):
        # The documentation has rendered the schema (ReDoc stops with an error
        # when its <style> elements are refused).
        page.wait_for_selector("text=Decodoku Lab API", timeout=20_000)
        page.wait_for_load_state("networkidle")
    if path in ("/api/v1/docs/", "/api/v1/redoc/"):
        # Styled: ReDoc's run-time style elements were let in, by their nonce.
        styled = page.evaluate(
            "[...document.querySelectorAll('style')]"
            ".filter(s => s.sheet && s.sheet.cssRules.length).length"
        )
        assert styled > 0
    violations = page.evaluate("window.__cspViolations")
    assert violations == []
    assert browser_page.failed_requests == []
    browser_page.assert_clean()
