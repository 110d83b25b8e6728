"""Fixtures of the browser tests: Chromium driven by Playwright against the live server.

Every page opened through ``open_page`` records the browser console, page
errors, failed requests and HTTP error responses; ``BrowserPage.assert_clean``
fails the test if any were seen. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        ConsoleMessage,
        Page,
        Request,
        Response,
        ViewportSize,
    )
    from pytest_django.live_server_helper import LiveServer

# Playwright's sync API runs an event loop in the test's thread; Django refuses
# ORM calls from a thread with a running loop unless told that this is safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def chromium_executable() -> str:
    return os.environ.get("DECODOKU_CHROMIUM", "").strip() or "/usr/bin/chromium"


SCREENSHOT_TIMEOUT_MS = 60_000


@dataclass
class BrowserPage:
    """A Playwright page plus everything suspicious it logged."""

    page: Page
    base_url: str
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base_url + path

    def screenshot(self, name: str) -> Path:
        """The whole page as a picture for the run's artifacts.

        A full-page capture of a long page took over 15 s on a loaded two-core machine
        (it failed the test on a page that was right); it gets a minute, and if that is not
        enough, the visible part is kept instead.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        try:
            self.page.screenshot(path=str(path), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS)
        except PlaywrightTimeout:
            self.page.screenshot(path=str(path), timeout=SCREENSHOT_TIMEOUT_MS)
        return path

    def assert_clean(self) -> None:
        assert self.console_errors == [], "console errors"
        assert self.failed_requests == [], "failed requests"
        assert self.foreign_requests == [], "requests to other hosts"


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable(), args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def open_page(chromium: Browser, live_server: LiveServer) -> Iterator[Callable[..., BrowserPage]]:
    """Open a fresh browser context (no cookies) on the live server."""
    from django.core.cache import cache

    # Rate limits are counted in the cache; each test starts with none used.
    cache.clear()
    contexts = []
    base_url = live_server.url
    host = urlsplit(base_url).netloc

    def _open(
        viewport: ViewportSize = DESKTOP, *, touch: bool = False, reduced_motion: bool = False
    ) -> BrowserPage:
        context = chromium.new_context(
            viewport=viewport,
            has_touch=touch,
            reduced_motion="reduce" if reduced_motion else "no-preference",
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        result = BrowserPage(page=page, base_url=base_url)

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                result.console_errors.append(message.text)

        def on_response(response: Response) -> None:
            if response.status >= 400:
                result.failed_requests.append(f"{response.status} {response.url}")

        def on_request(request: Request) -> None:
            netloc = urlsplit(request.url).netloc
            if request.url.startswith(("http:", "https:")) and netloc != host:
                result.foreign_requests.append(request.url)

        page.on("console", on_console)
        page.on("pageerror", lambda error: result.console_errors.append(f"page error: {error}"))
        def on_request_failed(request: Request) -> None:
            # A load the browser itself cancelled (the page navigated away or was reloaded
            # while a script was loading) is no failure of the site.
            if request.failure == "net::ERR_ABORTED":
                return
            result.failed_requests.append(f"{request.failure} {request.url}")

        page.on("requestfailed", on_request_failed)
        page.on("response", on_response)
        page.on("request", on_request)
        return result

    yield _open
    for context in contexts:
        context.close()


def sign_in_researcher(bp: BrowserPage, username: str = "ada") -> None:
    """Give the page's browser context the session of a member of the researchers group."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from research.selectors import RESEARCHERS_GROUP

    user, _ = User.objects.get_or_create(username=username)
    # A transactional test empties the tables, the group of the data migration too.
    group, _ = Group.objects.get_or_create(name=RESEARCHERS_GROUP)
    user.groups.add(group)
    client = Client()
    client.force_login(user)
    bp.page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": bp.base_url}]
    )


def page_width(bp: BrowserPage) -> int:
    """How wide the page's content is: more than the viewport means it scrolls sideways."""
    return int(bp.page.evaluate("() => document.documentElement.scrollWidth"))
