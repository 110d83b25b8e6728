"""The home page, the tutorial and what every page loads."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_research_question, board_symbols, cell, drag, text

PAGES = ("/", "/tutorial/", "/play/")


class _References(HTMLParser):
    """Every URL a page refers to in src, href and its import map."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._in_import_map = False
        self.import_map = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("src", "href", "action", "poster", "srcset"):
            url = values.get(name)
            if url:
                self.urls.append(url)
        self._in_import_map = tag == "script" and values.get("type") == "importmap"

    def handle_endtag(self, tag: str) -> None:
        self._in_import_map = False

    def handle_data(self, data: str) -> None:
        if self._in_import_map:
            self.import_map += data


@pytest.mark.browser
@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_pages_refer_to_no_other_host(client: Client, path: str) -> None:
    import json

    response = client.get(path)
    assert response.status_code == 200
    assert "csrftoken" in response.cookies, "the page must set the CSRF cookie"
    parser = _References()
    parser.feed(response.content.decode())
    imports = json.loads(parser.import_map)["imports"]
    urls = parser.urls + list(imports) + list(imports.values())
    assert urls
    for url in urls:
        parts = urlsplit(url)
        assert not parts.scheme, f"{path} refers to another host: {url}"
        assert not parts.netloc, f"{path} refers to another host: {url}"


@pytest.mark.browser
def test_every_module_is_in_the_import_map() -> None:
    from pathlib import Path

    from games.apps import JS_MODULES
    from puzzles.apps import JS_MODULES as PUZZLE_MODULES

    root = Path(__file__).resolve().parents[2]
    folder = root / "games" / "static" / "games" / "js"
    assert sorted(p.name for p in folder.glob("*.js")) == sorted(JS_MODULES)
    folder = root / "puzzles" / "static" / "puzzles" / "js"
    assert sorted(p.name for p in folder.glob("*.js")) == sorted(PUZZLE_MODULES)


@pytest.mark.browser
@pytest.mark.django_db
def test_home_page_shows_the_versioned_consent(client: Client) -> None:
    from games.web.consent import CONSENT_VERSION

    html = client.get("/").content.decode()
    assert f'data-consent-version="{CONSENT_VERSION}"' in html
    assert 'id="consent-yes"' in html
    assert 'id="consent-no"' in html
    assert 'href="/consent/"' in html
    assert 'href="/tutorial/"' in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_home_page_in_the_browser(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], name: str
) -> None:
    from games.models import Player
    from games.web.consent import CONSENT_VERSION

    bp = open_page(viewport)
    page = bp.page
    page.goto(bp.url("/"))
    assert page.is_visible("#play-button")
    assert page.is_visible("#consent-yes")
    assert CONSENT_VERSION in text(page, ".consent-version")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    bp.screenshot(f"home-{name}")
    answer_research_question(page, yes=True)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    page.wait_for_selector('#board[data-mode="play"]')
    player = Player.objects.get()
    assert player.consent_version == CONSENT_VERSION
    assert player.consented_at is not None
    bp.assert_clean()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_changing_consent_on_the_home_page_keeps_the_player(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import ConsentChange, Player
    from games.web.consent import CONSENT_VERSION

    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=False)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    page.wait_for_selector('#board[data-mode="play"]')
    page.wait_for_load_state("networkidle")  # leave the page with no request under way
    first = Player.objects.get()
    assert first.consent_version is None
    page.goto(bp.url("/"))
    page.click("#consent-change")
    answer_research_question(page, yes=True)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    player = Player.objects.get()
    assert player.pk == first.pk
    assert player.consent_version == CONSENT_VERSION
    history = ConsentChange.objects.filter(player=player).order_by("at", "id")
    assert [change.version for change in history] == [None, CONSENT_VERSION]
    bp.assert_clean()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_play_page_without_a_player_asks_first(open_page: Callable[..., BrowserPage]) -> None:
    from games.models import Game, Player

    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/play/"))
    assert page.is_visible("#consent-yes")
    assert page.is_visible("#board-overlay")
    assert Player.objects.count() == 0
    page.select_option("#size-select", "4")
    page.click("#new-game")
    assert Player.objects.count() == 0, "Start asks the question first"
    page.click("#consent-no")
    page.wait_for_selector('#board[data-mode="play"]')
    assert len(board_symbols(page)) == 16
    player = Player.objects.get()
    assert player.consent_version is None
    assert Game.objects.get().research_consent is False
    bp.assert_clean()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_tutorial_walks_through_a_move_noise_and_the_end(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    page.goto(bp.url("/tutorial/"))
    assert "Step 1 of 6" in text(page, "#tutorial-progress")
    bp.screenshot("tutorial-desktop")
    page.click("#tutorial-next")

    # The first move: the Next button waits until the 3 has been moved onto the 7.
    assert page.is_disabled("#tutorial-next")
    drag(page, (2, 1), (2, 2))
    page.wait_for_selector(".tutorial-task.is-done")
    assert board_symbols(page)[2 * 4 + 1 : 2 * 4 + 3] == ["", ""]
    page.click("#tutorial-next")

    # Clear a group of three by keyboard: 4 onto 5 makes 9, then 9 onto 1 makes 0.
    cell(page, 1, 1).focus()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    page.wait_for_selector(".tutorial-task.is-done")
    assert not any(board_symbols(page))
    page.click("#tutorial-next")

    # A round of noise.
    assert text(page, "#tutorial-next").strip() == "Let the noise in"
    page.click("#tutorial-next")
    assert page.locator("#board .cell.is-changed").count() > 0
    page.click("#tutorial-next")

    # The end of the game: break the span with one move.
    assert page.locator("#board .cell.is-spanning").count() == 4
    bp.screenshot("tutorial-span-desktop")
    cell(page, 3, 1).click()
    cell(page, 2, 1).click()
    page.wait_for_selector(".tutorial-task.is-done")
    assert page.locator("#board .cell.is-spanning").count() == 0
    page.click("#tutorial-next")
    assert page.is_visible("#tutorial-play")
    bp.assert_clean()


# Every page that extends the site's base template, and the style sheets it links.
STYLED_PAGES = {
    "/": ["base.css", "consent.css", "home.css"],
    "/tutorial/": ["base.css", "game.css", "board.css", "tutorial.css"],
    "/play/": ["base.css", "consent.css", "game.css", "board.css", "play.css"],
    "/dashboard/": ["base.css", "uPlot.min.css", "dashboard.css"],
    "/research/login/": ["base.css", "research.css"],
    "/puzzles/": ["base.css", "consent.css", "puzzles.css"],
    "/me/": ["base.css", "consent.css", "me.css"],
    "/consent/": ["base.css", "consent.css"],
    "/restore/": ["base.css", "me.css"],
    "/daily/": ["base.css", "consent.css", "me.css"],
}
# The replay page of a shared game (its address needs a shared game: see test_sharing.py).
SHARED_PAGE_SHEETS = ["base.css", "game.css", "board.css", "play.css", "shared.css"]


class _Assets(HTMLParser):
    """The style sheets a page links, and its script elements."""

    def __init__(self) -> None:
        super().__init__()
        self.style_sheets: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "link" and values.get("rel") == "stylesheet":
            self.style_sheets.append(values["href"] or "")
        if tag == "script":
            self.scripts.append(values)


def _assets(client: Client, path: str) -> _Assets:
    response = client.get(path)
    assert response.status_code == 200
    parser = _Assets()
    parser.feed(response.content.decode())
    return parser


@pytest.mark.browser
@pytest.mark.django_db
@pytest.mark.parametrize("path", list(STYLED_PAGES))
def test_each_page_links_the_style_sheets_of_its_parts(client: Client, path: str) -> None:
    from django.conf import settings
    from django.contrib.staticfiles import finders

    sheets = _assets(client, path).style_sheets
    assert [url.rsplit("/", 1)[-1] for url in sheets] == STYLED_PAGES[path]
    for url in sheets:
        name = url.removeprefix("/" + settings.STATIC_URL.strip("/") + "/")
        assert finders.find(name), f"{path} links {url}, which is not a static file"


@pytest.mark.browser
def test_every_style_sheet_of_the_site_is_linked_by_a_page() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    folders = [
        root / "core" / "static" / "core" / "css",
        root / "games" / "static" / "games" / "css",
    ]
    linked = {name for names in STYLED_PAGES.values() for name in names}
    linked |= set(SHARED_PAGE_SHEETS)
    assert {p.name for folder in folders for p in folder.glob("*.css")} <= linked


@pytest.mark.browser
@pytest.mark.django_db
@pytest.mark.parametrize("path", list(STYLED_PAGES))
def test_pages_run_no_inline_script(client: Client, path: str) -> None:
    scripts = _assets(client, path).scripts
    assert scripts
    for script in scripts:
        # The import map and JSON data blocks are data, not code.
        assert script.get("src") or script.get("type") in ("importmap", "application/json"), script
