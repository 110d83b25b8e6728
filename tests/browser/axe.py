"""axe-core accessibility checks of a page in the browser tests.

axe-core is vendored under ``tests/browser/vendor/axe-core/`` (test tooling,
never served by the site). The site's Content-Security-Policy refuses inline
scripts, so Playwright's ``add_script_tag`` (which inserts the source as an
inline script) is blocked; the source is run with ``page.evaluate`` instead,
which Chromium runs from the DevTools protocol, outside the page's policy.
The page itself keeps its policy for everything else.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE_SOURCE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
# Violations of these impacts fail a test; "moderate" and "minor" are reported only.
FAILING_IMPACTS = ("serious", "critical")

RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


def load_axe(page: Page) -> str:
    """Load axe-core into the page (once per document); return its version."""
    if page.evaluate("() => typeof window.axe === 'undefined'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    return str(page.evaluate("() => window.axe.version"))


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every axe-core violation on the page as it is now."""
    load_axe(page)
    return list(page.evaluate(RUN))


def serious_violations(page: Page) -> list[dict[str, Any]]:
    return [v for v in axe_violations(page) if v["impact"] in FAILING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> str:
    """A readable list for an assertion message."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['impact']} {violation['id']}: {violation['help']}")
        lines.extend(f"    {node['target']}: {node['summary']}" for node in violation["nodes"][:5])
    return "\n".join(lines)


def assert_no_serious_violations(page: Page, what: str) -> None:
    found = serious_violations(page)
    assert found == [], f"{what}:\n{describe(found)}"
