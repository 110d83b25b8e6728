"""The admin as an admin uses it: puzzle replays with their clues, and axe on the main pages.

Screenshots: ``artifacts/screenshots/admin-*.png`` (1280 x 800 and 390 x 844).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.axe import describe, serious_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.test_admin_pages import sign_in_superuser

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _attempt(kind: str, seed: int, entries: int = 2) -> Any:
    """An attempt at a 4 x 4 puzzle of ``kind`` with ``entries`` right answers written."""
    from puzzles.services import attempt_act, attempt_start
    from tests.factories import PlayerFactory

    player = PlayerFactory.create()
    attempt = attempt_start(player=player, kind=kind, size=4, seed=seed)
    solution = attempt.puzzle.solution
    empty = [
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    ]
    for r, c in empty[:entries]:
        attempt = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="entry",
            payload={"cell": [r, c], "value": solution[r][c]},
        ).attempt
    return attempt


@pytest.mark.parametrize("kind", ["kenken", "kenken-multiply"])
def test_the_attempt_replay_draws_the_kenken_cages_and_their_targets(
    open_page: Callable[..., BrowserPage], kind: str
) -> None:
    attempt = _attempt(kind, seed=11)
    cages = attempt.puzzle.definition["cages"]
    bp = open_page(DESKTOP)
    sign_in_superuser(bp)
    page = bp.page
    page.goto(bp.url(f"/admin/puzzles/attempt/{attempt.pk}/change/"))
    page.wait_for_selector("#pz-replay output:not(:empty)")
    labels = page.eval_on_selector_all(
        "#pz-replay .pz-cage-label", "ls => ls.map(l => l.textContent)"
    )
    assert len(labels) == len(cages)
    signs = {"+": "+", "-": "\u2212", "x": "\u00d7", "/": "\u00f7", "=": ""}
    assert sorted(labels) == sorted(f"{c['target']}{signs[c['op']]}" for c in cages)
    # Each cage is outlined: a thick edge on each side of a cell that leaves the cage.
    for cage in cages:
        cells = {tuple(cell) for cell in cage["cells"]}
        for r, c in cells:
            td = page.locator(f"#pz-replay tbody tr:nth-child({r + 1}) td:nth-child({c + 1})")
            classes = set((td.get_attribute("class") or "").split())
            assert ("pz-cage-right" in classes) == ((r, c + 1) not in cells), (r, c, classes)
            assert ("pz-cage-bottom" in classes) == ((r + 1, c) not in cells), (r, c, classes)
    # The values still step: step 0 has none of the written answers.
    page.click('#pz-replay [data-go="first"]')
    assert page.text_content("#pz-replay output") == "step 0 of 2"
    bp.screenshot(f"admin-attempt-{kind}-1280x800")
    bp.assert_clean()


@pytest.mark.parametrize("kind", ["futoshiki", "futoshiki-adjacent"])
def test_the_attempt_replay_draws_the_futoshiki_signs(
    open_page: Callable[..., BrowserPage], kind: str
) -> None:
    attempt = _attempt(kind, seed=2)
    definition = attempt.puzzle.definition
    bp = open_page(DESKTOP)
    sign_in_superuser(bp)
    page = bp.page
    page.goto(bp.url(f"/admin/puzzles/attempt/{attempt.pk}/change/"))
    page.wait_for_selector("#pz-replay output:not(:empty)")
    drawn = page.eval_on_selector_all("#pz-replay td.pz-sign", "ts => ts.map(t => t.textContent)")
    if kind == "futoshiki":
        assert len(drawn) == len(definition["relations"]) > 0
        assert set(drawn) <= {"<", ">", "\u2227", "\u2228"}
        # Each sign between the two cells it compares, and pointing the right way.
        for rel in definition["relations"]:
            (r1, c1), (r2, c2) = sorted([tuple(rel["a"]), tuple(rel["b"])])
            op = rel["op"] if [r1, c1] == list(rel["a"]) else {"<": ">", ">": "<"}[rel["op"]]
            row, col = r1 + r2 + 1, c1 + c2 + 1  # the track between them, 1-based
            text = page.text_content(f"#pz-replay tbody tr:nth-child({row}) td:nth-child({col})")
            expected = op if r1 == r2 else {"<": "\u2227", ">": "\u2228"}[op]
            assert text == expected, (rel, text)
    else:
        assert len(drawn) == len(definition["bars"]) > 0
        for bar in definition["bars"]:
            (r1, c1), (r2, c2) = sorted([tuple(bar["a"]), tuple(bar["b"])])
            row, col = r1 + r2 + 1, c1 + c2 + 1
            text = page.text_content(f"#pz-replay tbody tr:nth-child({row}) td:nth-child({col})")
            assert text == ("|" if r1 == r2 else "\u2014"), (bar, text)
    # 4 x 4 cells and the 3 tracks between them.
    assert page.locator("#pz-replay tbody tr").count() == 7
    assert page.locator("#pz-replay td.pz-cell").count() == 16
    bp.screenshot(f"admin-attempt-{kind}-1280x800")
    bp.assert_clean()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_main_admin_pages_have_no_serious_accessibility_finding(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize
) -> None:
    from django.contrib.auth.models import User

    from tests.factories import GameFactory, PlayerFactory, play

    game = play(GameFactory.create(player=PlayerFactory.create(), seed=7))
    attempt = _attempt("kenken", seed=11)
    bp = open_page(viewport)
    sign_in_superuser(bp)
    page = bp.page
    size = f"{viewport['width']}x{viewport['height']}"
    pages = {
        "index": "/admin/",
        "games-search": "/admin/games/game/?q=greedy",
        "attempts": "/admin/puzzles/attempt/",
        "game-change": f"/admin/games/game/{game.pk}/change/",
        "attempt-replay": f"/admin/puzzles/attempt/{attempt.pk}/change/",
        # Django's own pages: the group and permission pickers, the sign-in times.
        "user-change": f"/admin/auth/user/{User.objects.get().pk}/change/",
    }
    found = []
    for name, path in pages.items():
        page.goto(bp.url(path))
        page.wait_for_load_state("networkidle")
        bp.screenshot(f"admin-{name}-{size}")
        loaded = len(bp.console_errors)
        violations = serious_violations(page)
        # axe sets inline styles while it checks a change form's widgets, which the site's
        # policy refuses (the page itself logged nothing: that is checked at the end).
        bp.console_errors[loaded:] = [
            error for error in bp.console_errors[loaded:] if "Applying inline style" not in error
        ]
        if violations:
            found.append(f"{name} ({path}) at {size}:\n{describe(violations)}")
    assert found == [], "\n".join(found)
    # The search box has a name of its own, not only a title.
    page.goto(bp.url("/admin/games/game/"))
    assert (
        page.get_attribute("#searchbar", "aria-label")
        or page.locator("label[for=searchbar]").count()
    )
    bp.assert_clean()
