"""Uploading the original apps' save files from the web page: choose or drop them."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_research_question, wait_until_playable
from tests.browser.test_phone import assert_on_screen, name

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVES = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves"
VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

DROP = """([name, text]) => {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], name, { type: "text/csv" }));
  const zone = document.getElementById("upload-drop");
  const options = { dataTransfer: data, bubbles: true, cancelable: true };
  zone.dispatchEvent(new DragEvent("dragover", options));
  zone.dispatchEvent(new DragEvent("drop", options));
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_player_drops_a_save_file_and_sees_its_report_and_their_uploads(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    from games.models import Game

    bp = open_page(viewport)
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=False)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)
    page.goto(bp.url("/"))
    page.click("#upload-link")
    page.wait_for_url("**/me/uploads/")
    assert page.is_visible("#upload-drop-hint")
    content = (SAVES / "Z10_normal_475.csv").read_bytes()
    page.evaluate(DROP, ["Z10_normal_475.csv", base64.b64encode(content).decode()])
    assert "Z10_normal_475.csv" in page.inner_text("#upload-chosen")
    page.click("#upload-button")
    page.wait_for_selector("#upload-report")
    assert page.locator('.upload-outcome[data-outcome="imported"]').count() == 1
    assert "Z10_normal_475.csv" in page.inner_text("#uploads-title ~ .me-scroll")
    assert Game.objects.filter(source="legacy_upload").count() == 1
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport["width"]
    bp.screenshot(f"uploads-report-{name(viewport)}")
    # A file chosen with the file input works too; the same file is not stored twice.
    page.set_input_files("#upload-input", str(SAVES / "Z10_normal_475.csv"))
    page.click("#upload-button")
    page.wait_for_selector('.upload-outcome[data-outcome="already_imported"]')
    assert Game.objects.filter(source="legacy_upload").count() == 1
    page.goto(bp.url("/me/"))
    assert "uploaded" in page.inner_text("#games-title ~ .me-scroll")
    assert_on_screen(page, "main h1")
    bp.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_newcomer_uploads_from_my_games_without_playing_and_replays_the_upload(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    from games.models import Game

    bp = open_page(viewport, touch=viewport == PHONE)
    page = bp.page
    page.goto(bp.url("/me/"))
    page.click("#none-upload-link")
    page.wait_for_url("**/me/uploads/")
    answer_research_question(page, yes=False)
    page.wait_for_selector("#upload-section", state="visible")
    page.set_input_files("#upload-input", str(SAVES / "PL_hard_219.csv"))
    page.click("#upload-button")
    page.wait_for_selector("#upload-report")
    report = page.inner_text("#upload-report")
    assert "Phi-Lambda" not in report
    assert "partially observed" not in report
    assert "hard mode: score 219" in report
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport["width"]
    bp.screenshot(f"uploads-newcomer-report-{name(viewport)}")
    # No game was played to get here: the only game is the upload, and it replays.
    assert list(Game.objects.values_list("source", "status")) == [("legacy_upload", "lost")]
    page.click("#upload-report a.upload-replay")
    page.wait_for_url("**/play/?game=*")
    page.wait_for_selector("#replaybar:not([hidden])")
    assert "of 219" in page.inner_text("#replaybar")
    page.goto(bp.url("/me/"))
    row = page.locator("#games-title ~ .me-scroll tbody tr")
    assert row.count() == 1
    assert "uploaded" in row.first.inner_text()
    assert row.first.locator("a", has_text="Replay").count() == 1
    bp.screenshot(f"me-uploaded-{name(viewport)}")
    bp.assert_clean()
