"""The dashboard's scripts: what a browser downloads to draw the plots."""

from __future__ import annotations

import gzip
from pathlib import Path

from dashboard.apps import JS_MODULES

FOLDER = Path(__file__).resolve().parents[2] / "dashboard" / "static" / "dashboard"
# The page's own two modules are about 52 kB; the plotting library's minified build is
# about 52 kB (its unminified build, shipped before, was 145 kB).
SCRIPT_BUDGET = 120_000


def _sizes() -> dict[str, int]:
    return {name: (FOLDER / name).stat().st_size for name in JS_MODULES}


def test_the_plotting_library_ships_minified() -> None:
    vendored = [name for name in JS_MODULES if name.startswith("vendor/")]
    assert vendored, "the dashboard draws with a vendored library"
    for name in vendored:
        assert name.endswith(".min.js"), name
        text = (FOLDER / name).read_text(encoding="utf-8")
        lines = text.splitlines()
        # A minified build: no indentation left, a few very long lines.
        assert not any(line.startswith(("  ", "\t")) for line in lines), name
        assert max(len(line) for line in lines) > 10_000, name
        # Its copyright header is kept.
        assert "Leon Sorokin" in text
        assert "MIT" in text


def test_the_dashboard_scripts_fit_the_budget() -> None:
    sizes = _sizes()
    assert sum(sizes.values()) < SCRIPT_BUDGET, sizes


def test_every_module_imports_only_shipped_files() -> None:
    """The minified library is the one imported: no module points at a missing file."""
    for name in JS_MODULES:
        path = FOLDER / name
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("import ") and ' from "./' in line:
                target = line.split(' from "', 1)[1].split('"', 1)[0]
                assert (path.parent / target).is_file(), (name, target)


def test_compressed_they_are_smaller_still() -> None:
    """What production serves (WhiteNoise's precompressed files): measured, not assumed."""
    total = sum(
        len(gzip.compress((FOLDER / name).read_bytes(), compresslevel=9)) for name in JS_MODULES
    )
    assert total < sum(_sizes().values()) / 2
