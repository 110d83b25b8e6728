"""The site-wide pieces in ``core``: one page context for every page."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest
from django.test import Client

from core.context_processors import import_map, js_modules
from core.sessions import PLAYER_SESSION_KEY
from games.web.consent import CONSENT_VERSION
from tests.factories import PlayerFactory

PAGES = (
    "/", "/tutorial/", "/play/", "/dashboard/", "/research/login/", "/puzzles/", "/puzzles/2mino/",
    "/puzzles/stats/", "/me/", "/restore/", "/daily/",
)


def test_the_import_map_holds_the_modules_of_every_app_that_declares_some() -> None:
    imports = json.loads(import_map())["imports"]
    assert any(url.endswith("games/js/api.js") for url in imports)
    assert any(url.endswith("dashboard/plots.js") for url in imports)
    assert all(url.startswith("/") for url in imports)


ROOT = Path(__file__).resolve().parents[2]
RELATIVE_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+\.js)["']""")


def relative_imports() -> list[tuple[str, str]]:
    """(module, the static path it imports) for every relative import of the apps' scripts."""
    found = []
    for script in sorted(ROOT.glob("*/static/**/*.js")):
        static_path = script.relative_to(ROOT).as_posix().split("/static/", 1)[1]
        if "/vendor/" in f"/{static_path}":
            continue
        text = script.read_text(encoding="utf-8")
        for target in RELATIVE_IMPORT.findall(text):
            found.append((static_path, posixpath.normpath(
                posixpath.join(posixpath.dirname(static_path), target))))
    return found


def test_every_module_a_script_imports_is_in_the_import_map() -> None:
    """A module imported by a relative path is fetched by its plain name unless the import map
    sends it to its hashed file: in production that is a stale module after a deploy."""
    imports = relative_imports()
    assert ("puzzles/admin-replay.js", "puzzles/js/puzzle-rules.js") in imports
    assert ("puzzles/js/puzzle-api.js", "games/js/api.js") in imports
    declared = set(js_modules())
    missing = sorted({f"{module} imports {target}" for module, target in imports
                      if target not in declared})
    assert missing == [], "add them to the app's JS_MODULES (apps.py)"


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_gets_the_same_site_context(client: Client, path: str) -> None:
    player = PlayerFactory.create()
    session = client.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    response = client.get(path)
    assert response.status_code == 200
    context = response.context
    assert context["import_map"] == import_map()
    assert context["consent_version"] == CONSENT_VERSION
    assert context["has_player"] is True
    assert context["player_consent"] == player.consent_version


@pytest.mark.django_db
def test_a_page_without_a_player_says_so(client: Client) -> None:
    context = client.get("/").context
    assert context["has_player"] is False
    assert context["player_consent"] == ""


def test_no_template_extends_a_base_that_moved() -> None:
    """Every page template builds on the site's base, ``core/base.html``."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    stale = [
        str(path.relative_to(root))
        for path in root.glob("*/templates/**/*.html")
        if '{% extends "games/base.html" %}' in path.read_text(encoding="utf-8")
    ]
    assert stale == []
