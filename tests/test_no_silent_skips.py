"""No test skips itself: a test that needs a service carries the service's marker.

``tests/conftest.py`` turns the markers into a skip locally and a failure when
DECODOKU_REQUIRE_SERVICES=1, so CI never passes by skipping. A skip written
in a test file escapes that switch; a data-dependent skip (a seed that
happens not to show the case) hides a test that never runs. Both are refused.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import conftest

TESTS = Path(__file__).resolve().parent
SKIP = re.compile(r"pytest\.skip\(|mark\.skipif|importorskip\(|unittest\.skip")
# Files that skip on their own only where DECODOKU_REQUIRE_SERVICES turns the skip into a
# failure (conftest.services_required), as the markers do.
SWITCHED = {"conftest.py", "results/analysis/test_worker.py"}


def test_no_test_file_skips_past_the_service_switch() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name == Path(__file__).name or name.startswith("browser/vendor/"):
            continue
        text = path.read_text(encoding="utf-8")
        if name in SWITCHED:
            assert "services_required()" in text, name
            continue
        found += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if SKIP.search(line)]
    assert found == []


def _item(marker: str) -> SimpleNamespace:
    return SimpleNamespace(get_closest_marker=lambda name: object() if name == marker else None)


@pytest.mark.parametrize("marker", sorted(conftest.EXTRA_MARKERS))
def test_a_missing_service_skips_locally_and_fails_in_ci(monkeypatch, marker: str) -> None:
    monkeypatch.setitem(conftest.SERVICE_CHECKS, marker, lambda: "not here")
    monkeypatch.delenv(conftest.REQUIRE_SERVICES_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"\\[{marker}\\] not here"):
        conftest.pytest_runtest_setup(_item(marker))  # type: ignore[arg-type]  # a stand-in
    monkeypatch.setenv(conftest.REQUIRE_SERVICES_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="a missing service is a failure"):
        conftest.pytest_runtest_setup(_item(marker))  # type: ignore[arg-type]  # a stand-in
