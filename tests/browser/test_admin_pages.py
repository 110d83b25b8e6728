"""The admin's game page in Chromium: short, folded, no console error, no policy violation.

Screenshots: ``artifacts/screenshots/admin-game-1280x800.png`` and ``admin-game-390x844.png``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.test_csp import RECORD_VIOLATIONS

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in_superuser(bp: BrowserPage) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.create_superuser("root", password="a-long-test-password")
    client = Client()
    client.force_login(user)
    bp.page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": bp.base_url}]
    )


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "1280x800"), (PHONE, "390x844")])
def test_the_admin_game_page_is_folded_and_clean(
    open_page: Callable[..., BrowserPage], viewport: dict[str, int], name: str
) -> None:
    from tests.factories import GameFactory, PlayerFactory, play

    game = play(GameFactory.create(player=PlayerFactory.create(), seed=7))
    bp = open_page(viewport)
    sign_in_superuser(bp)
    page = bp.page
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(bp.url(f"/admin/games/game/{game.pk}/change/"))
    page.wait_for_selector("#replay output:not(:empty)")
    # The long parts are folded: the events, the provenance (with the browser details)
    # and the import report; the replay stays open.
    events = page.locator("details.replay-events-box")
    assert events.count() == 1
    assert events.get_attribute("open") is None
    assert not page.locator("table.replay-events").is_visible()
    provenance = page.locator("details:has(> summary:has-text('Provenance'))")
    assert provenance.count() == 1
    assert provenance.get_attribute("open") is None
    height = page.evaluate("document.documentElement.scrollHeight")
    if viewport is DESKTOP:
        assert height < 3000, height  # 6,355 px before the events were folded
        bp.screenshot(f"admin-game-{name}")
    page.click("details.replay-events-box > summary")
    assert page.locator("table.replay-events").is_visible()
    assert page.locator("table.replay-events tbody tr").count() > 0
    if viewport is PHONE:
        bp.screenshot(f"admin-game-{name}")
    assert page.evaluate("window.__cspViolations") == []
    bp.assert_clean()


def _steps(page: Page, root: str) -> list[str]:
    """The replay's readout after each of |< > >| < and the slider set to 1."""
    out = f"{root} output"
    seen = [page.text_content(out) or ""]
    for go in ("first", "next", "last", "prev"):
        page.click(f'{root} [data-go="{go}"]')
        seen.append(page.text_content(out) or "")
    page.fill(f'{root} [data-go="slider"]', "1")
    seen.append(page.text_content(out) or "")
    return seen


def test_the_three_replays_step_with_the_shared_controls(
    open_page: Callable[..., BrowserPage],
) -> None:
    from pathlib import Path

    from puzzles.services import attempt_act, attempt_start
    from tests.factories import GameFactory, PlayerFactory, play

    player = PlayerFactory.create()
    game = play(GameFactory.create(player=player, seed=7), moves=3)
    attempt = attempt_start(player=player, kind="futoshiki", size=4, seed=2)
    solution = attempt.puzzle.solution
    empty = [
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    ]
    for r, c in empty[:2]:
        attempt = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="entry",
            payload={"cell": [r, c], "value": solution[r][c]},
        ).attempt
    bp = open_page(DESKTOP)
    sign_in_superuser(bp)
    page = bp.page

    page.goto(bp.url(f"/admin/games/game/{game.pk}/change/"))
    page.wait_for_selector("#replay output:not(:empty)")
    boards = int((page.text_content("#replay output") or "").split(" of ")[1].split(":")[0])
    seen = _steps(page, "#replay")
    assert [s.split(":")[0] for s in seen] == [
        f"board 1 of {boards}",
        f"board 1 of {boards}",
        f"board 2 of {boards}",
        f"board {boards} of {boards}",
        f"board {boards - 1} of {boards}",
        f"board 2 of {boards}",
    ]
    page.check('#replay [data-go="groups"]')
    assert page.locator("#replay .replay-board td small").count() > 0

    page.goto(bp.url(f"/admin/puzzles/attempt/{attempt.pk}/change/"))
    page.wait_for_selector("#pz-replay output:not(:empty)")
    assert _steps(page, "#pz-replay") == [
        "step 2 of 2",
        "step 0 of 2",
        "step 1 of 2",
        "step 2 of 2",
        "step 1 of 2",
        "step 1 of 2",
    ]
    assert (page.text_content(".pz-replay-action") or "").startswith("#1 entry")
    assert page.locator("table.pz-actions tbody tr").count() == 2
    bp.screenshot("admin-attempt-1280x800")

    # One copy of the step controls: the replay scripts call it and handle no button.
    root = Path(__file__).resolve().parents[2]
    for script in (
        "research/static/research/admin-replay.js",
        "puzzles/static/puzzles/admin-replay.js",
        "puzzles/static/puzzles/admin-replay-2mino.js",
    ):
        text = (root / script).read_text(encoding="utf-8")
        assert "window.replaySteps(" in text, script
        assert '"first"' not in text, script
        assert 'addEventListener("click"' not in text, script
    bp.assert_clean()


def test_the_2mino_replay_steps_with_the_shared_controls(
    open_page: Callable[..., BrowserPage],
) -> None:
    from tests.factories import PlayerFactory
    from tests.puzzles.test_twomino_analysis import play_tiling

    attempt, _puzzle, draw = play_tiling(PlayerFactory.create(), seed=5, wrong_first=False)
    bp = open_page(DESKTOP)
    sign_in_superuser(bp)
    page = bp.page
    page.goto(bp.url(f"/admin/puzzles/attempt/{attempt.pk}/change/"))
    page.wait_for_selector("#pz-replay output:not(:empty)")
    last = len(draw)
    assert _steps(page, "#pz-replay") == [
        f"step {last} of {last}",
        f"step 0 of {last}",
        f"step 1 of {last}",
        f"step {last} of {last}",
        f"step {last - 1} of {last}",
        f"step 1 of {last}",
    ]
    assert page.locator("#pz-replay td.pz-formed").count() > 0 or last == 1
    bp.assert_clean()
