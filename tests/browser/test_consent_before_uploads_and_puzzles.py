"""The research question on the upload page and the puzzle pages, in a real browser.

A newcomer is asked before their first upload without having to play a game
first, and a puzzle's start pressed before the answer goes on by itself once
the answer is given.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import BrowserPage
from tests.browser.helpers import make_unasked_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVES = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves"


def focused_id(bp: BrowserPage) -> str:
    return str(bp.page.evaluate("() => document.activeElement ? document.activeElement.id : ''"))


def test_a_newcomer_answers_on_the_upload_page_and_uploads_without_playing(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game, Player

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/me/uploads/"))
    page.wait_for_load_state("networkidle")
    assert page.is_visible("#consent-ask")
    assert page.is_hidden("#upload-form"), "no upload before the answer"
    assert Player.objects.count() == 0
    assert_no_serious_violations(page, "the upload page asking")
    page.click("#consent-no")
    page.wait_for_selector("#upload-form", state="visible")
    assert page.is_visible("#consent-summary")
    assert focused_id(bp) == "upload-input"
    player = Player.objects.get()
    assert player.consent_decided
    page.set_input_files("#upload-input", str(SAVES / "Z10_normal_475.csv"))
    page.click("#upload-button")
    page.wait_for_selector('.upload-outcome[data-outcome="imported"]')
    uploaded = Game.objects.get(source=Game.Source.LEGACY_UPLOAD)
    assert uploaded.player == player
    assert uploaded.research_consent is False
    assert not Game.objects.exclude(source=Game.Source.LEGACY_UPLOAD).exists()
    bp.assert_clean()


def test_a_player_never_asked_is_asked_on_the_upload_page(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Player
    from games.web.consent import CONSENT_VERSION

    bp = open_page()
    page = bp.page
    page.goto(bp.url("/"))
    # A player made without an answer (as the old Play button did), in this browser's session.
    make_unasked_player(page, bp.url("/api/v1/players/"))
    page.goto(bp.url("/me/uploads/"))
    page.wait_for_load_state("networkidle")
    assert page.is_visible("#consent-ask")
    assert page.is_hidden("#upload-form")
    page.click("#consent-yes")
    page.wait_for_selector("#upload-form", state="visible")
    player = Player.objects.get()
    assert player.consent_version == CONSENT_VERSION
    bp.assert_clean()


@pytest.mark.parametrize(
    ("path", "start", "board"),
    [
        pytest.param("/puzzles/", "#pz-start", "#pz-board .pz-cell", id="kenken"),
        pytest.param("/puzzles/2mino/", "#tm-start", "#tm-board .tm-bar", id="2mino"),
        pytest.param("/puzzles/decodoku/new/", "#dk-start", "#dk-board .dk-link", id="decodoku"),
    ],
)
def test_a_puzzle_started_before_the_answer_starts_right_after_it(
    open_page: Callable[..., BrowserPage], path: str, start: str, board: str
) -> None:
    from puzzles.models import Attempt

    bp = open_page()
    page = bp.page
    page.goto(bp.url(path))
    page.wait_for_load_state("networkidle")
    # Pressed twice before answering: asked, nothing started, and only one start waits.
    page.click(start)
    page.wait_for_function("() => document.activeElement?.id === 'consent-yes'")
    page.click(start)
    page.wait_for_function("() => document.activeElement?.id === 'consent-yes'")
    assert Attempt.objects.count() == 0
    page.click("#consent-no")
    page.wait_for_selector(board)
    page.wait_for_load_state("networkidle")
    attempt = Attempt.objects.get()
    assert attempt.player.consent_decided
    assert attempt.player.consent_version is None
    bp.assert_clean()
