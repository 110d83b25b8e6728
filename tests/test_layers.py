"""Inside the games app, services and selectors sit below the web pages and the API."""

from __future__ import annotations

from pathlib import Path

from tests.test_dependencies import GAMES, imported_modules, python_files

BELOW_WEB = [GAMES / "services", GAMES / "selectors", GAMES / "selectors.py"]
WEB_LAYERS = ("games.web", "games.api")


def _files(place: Path) -> list[Path]:
    if place.is_file():
        return [place]
    return python_files(place) if place.is_dir() else []


def test_services_and_selectors_import_no_web_or_api_module() -> None:
    found = [
        f"{path.relative_to(GAMES)}:{line} imports {module}"
        for place in BELOW_WEB
        for path in _files(place)
        for line, module in imported_modules(path)
        if module.startswith(WEB_LAYERS)
    ]
    assert found == []
