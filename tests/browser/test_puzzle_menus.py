"""The puzzle pages' menus and small things: only levels that come are offered, a wait
shows progress, a failure reads as a player's message, the menus win over an old ID,
pencil marks survive a number written in their cage, and the boxes, labels, headings and
Decodoku board are readable and big enough to hit."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from puzzles.engines import kenken, puzzle_id
from puzzles.models import Attempt
from puzzles.offered import offered_levels
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import answer_if_asked
from tests.browser.test_decodoku_puzzles import settle as settle_decodoku
from tests.browser.test_decodoku_puzzles import start as start_decodoku
from tests.browser.test_decodoku_puzzles import unique_published
from tests.browser.test_puzzles import cell, settle

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MENU_KINDS = ("kenken", "kenken-multiply", "futoshiki", "futoshiki-adjacent")
ATTEMPTS = "**/api/v1/puzzles/"


def options(page: Page, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")


def overlap(a: Any, b: Any) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def open_puzzles(bp: BrowserPage, query: str = "") -> Page:
    bp.page.goto(bp.url(f"/puzzles/{query}"))
    answer_if_asked(bp.page)
    return bp.page


def start_id(page: Page) -> Attempt:
    page.click("#pz-start")
    page.wait_for_selector("#pz-board .pz-cell")
    return Attempt.objects.select_related("puzzle").latest("started_at")


def test_the_menus_offer_per_size_the_levels_the_api_lists(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = open_puzzles(bp)
    listed = page.evaluate("() => fetch('/api/v1/puzzles/levels/').then(r => r.json())")
    assert listed == offered_levels()
    for kind in MENU_KINDS:
        page.select_option("#pz-kind", kind)
        rows = [row for row in listed if row["kind"] == kind]
        assert options(page, "#pz-size") == [str(row["size"]) for row in rows]
        for row in rows:
            page.select_option("#pz-size", str(row["size"]))
            assert options(page, "#pz-difficulty") == [""] * row["any"] + row["levels"]
    bp.assert_clean()


def test_a_miss_is_tried_again_so_an_offered_level_comes_on_the_first_click(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = open_puzzles(bp)
    posts: list[dict] = []

    def first_refused(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(json.loads(route.request.post_data or "{}"))
        if len(posts) == 1:
            error = {
                "code": "level_not_reached",
                "message": "no 5x5 Futoshiki rated easy from seed 1",
            }
            route.fulfill(
                status=400, content_type="application/json", body=json.dumps({"error": error})
            )
        else:
            route.continue_()

    page.route(ATTEMPTS, first_refused)
    page.select_option("#pz-kind", "futoshiki")
    page.select_option("#pz-size", "5")
    page.select_option("#pz-difficulty", "easy")
    attempt = start_id(page)
    assert (attempt.puzzle.kind, attempt.puzzle.size, attempt.puzzle.difficulty) == (
        "futoshiki",
        5,
        "easy",
    )
    assert len(posts) == 2
    assert posts[0]["seed"] != posts[1]["seed"]


def test_a_failure_reads_as_a_player_s_message_and_a_wait_shows_progress(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = open_puzzles(bp)
    page.evaluate(
        """() => {
          window.progressSeen = false;
          const progress = document.getElementById('pz-progress');
          new MutationObserver(() => { if (!progress.hidden) window.progressSeen = true; })
            .observe(progress, { attributes: true });
        }"""
    )
    tries: list[float] = []

    def slow_refusal(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        tries.append(time.monotonic())
        if len(tries) == 1:
            time.sleep(1.5)
        error = {
            "code": "level_not_reached",
            "message": "no 5x5 Futoshiki rated easy from seed 8412740916732184 in 24 tries "
            "(reached: trivial 24); try another seed or size",
        }
        route.fulfill(
            status=400, content_type="application/json", body=json.dumps({"error": error})
        )

    page.route(ATTEMPTS, slow_refusal)
    page.select_option("#pz-kind", "futoshiki")
    page.select_option("#pz-size", "5")
    page.select_option("#pz-difficulty", "easy")
    page.click("#pz-start")
    page.wait_for_selector("#pz-new[data-error]")
    shown = page.get_attribute("#pz-new", "data-error") or ""
    assert "seed" not in shown
    assert "tries" not in shown
    assert "No easy puzzle of this size could be made" in shown
    assert len(tries) == 3
    assert page.evaluate("() => window.progressSeen")
    assert page.is_hidden("#pz-progress")
    assert not Attempt.objects.exists()


def test_the_menus_win_over_a_puzzle_id_left_from_a_link(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = open_puzzles(bp, "?id=kenken-6-easy-5000")
    assert page.input_value("#pz-id") == "kenken-6-easy-5000"
    size = next(
        row["size"] for row in offered_levels(kind="futoshiki") if "tricky" in row["levels"]
    )
    page.select_option("#pz-kind", "futoshiki")
    page.select_option("#pz-size", str(size))
    page.select_option("#pz-difficulty", "tricky")
    assert page.input_value("#pz-id") == ""
    attempt = start_id(page)
    assert (attempt.puzzle.kind, attempt.puzzle.size, attempt.puzzle.difficulty) == (
        "futoshiki",
        size,
        "tricky",
    )
    bp.assert_clean()


def test_a_number_written_keeps_its_candidates_elsewhere_in_its_cage(
    open_page: Callable[..., BrowserPage],
) -> None:
    made = kenken.generate(size=6, seed=5000, difficulty="easy")
    cage = next(c for c in made.puzzle.cages if (0, 1) in c.cells)
    # r1c2 and r2c1 share a cage but neither a row nor a column; r2c1's answer is 5.
    assert (1, 0) in cage.cells
    assert made.solution[1][0] == 5
    bp = open_page(DESKTOP)
    page = open_puzzles(bp, "?id=kenken-6-easy-5000")
    start_id(page)
    page.keyboard.press("f")  # every candidate its row and column leave
    settle(page)
    bit = 1 << 4
    assert page.evaluate("() => window.puzzlePage.current().state.marks[1][0]") & bit
    # No cage label covers a candidate.
    labels = page.locator("#pz-board .pz-cage-label")
    for i in range(labels.count()):
        label = labels.nth(i)
        box = label.bounding_box()
        assert box is not None
        marks = label.locator("xpath=..").locator(".pz-marks > span:not(:empty)")
        for j in range(marks.count()):
            mark = marks.nth(j).bounding_box()
            assert mark is not None
            assert not overlap(box, mark), f"label {i} over a candidate"
    bp.screenshot("kenken-candidates-desktop")
    cell(page, 0, 1).click()
    page.keyboard.press("5")
    settle(page)
    state = page.evaluate("() => window.puzzlePage.current().state")
    assert state["entries"][0][1] == 5
    assert state["marks"][1][0] & bit, "the candidate 5 of row 2, column 1 was wiped"
    assert not any(state["marks"][0][c] & bit for c in range(6) if c != 1)
    assert not any(state["marks"][r][1] & bit for r in range(6) if r != 0)
    bp.assert_clean()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_text_boxes_are_readable_and_easy_to_hit(
    open_page: Callable[..., BrowserPage], viewport: dict, name: str
) -> None:
    bp = open_page(viewport)
    page = open_puzzles(bp)
    for box in ("#pz-id", "#pz-make-target", "#pz-make-value"):
        if page.is_hidden(box):
            page.select_option("#pz-make-kind", "futoshiki")
        size = page.eval_on_selector(box, "el => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 16, box
        rect = page.locator(box).bounding_box()
        assert rect is not None
        assert min(rect["height"], rect["width"]) >= 24, box
    # The placeholder fits in its box.
    room, needed = page.eval_on_selector(
        "#pz-id",
        """el => {
          const style = getComputedStyle(el);
          const context = document.createElement('canvas').getContext('2d');
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
          return [el.clientWidth - padding, context.measureText(el.placeholder).width];
        }""",
    )
    assert needed <= room
    # The other kinds come before the editor.
    link = page.locator('a[href="/puzzles/decodoku/"]').first.bounding_box()
    editor = page.locator("#pz-make").bounding_box()
    assert link is not None
    assert editor is not None
    assert link["y"] < editor["y"]
    bp.screenshot(f"puzzles-setup-{name}")
    bp.assert_clean()


def test_a_long_puzzle_id_stays_on_one_line_on_a_phone_and_the_page_has_a_heading(
    open_page: Callable[..., BrowserPage],
) -> None:
    long_id = puzzle_id.encode(kenken.generate(size=9, seed=3).puzzle)
    assert len(long_id) >= 100
    bp = open_page(PHONE, touch=True)
    page = open_puzzles(bp, f"?id={long_id}")
    start_id(page)
    shown = page.locator("#pz-live-id-text")
    assert shown.text_content() == long_id
    lines = page.eval_on_selector(
        "#pz-live-id-text",
        "el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)",
    )
    assert lines < 2.5
    headings = page.eval_on_selector_all(
        "h1", "hs => hs.filter(h => h.offsetParent !== null && h.textContent.trim()).length"
    )
    assert headings == 1
    # Printing leaves out the button that saves the puzzle as a file.
    assert page.is_visible("#pz-file-save")
    page.emulate_media(media="print")
    assert page.is_hidden("#pz-file-save")
    page.emulate_media(media="screen")
    bp.screenshot("puzzles-long-id-phone")
    bp.assert_clean()


def test_the_editor_on_an_empty_adjacent_grid_speaks_of_bars(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = open_puzzles(bp)
    page.select_option("#pz-make-kind", "futoshiki-adjacent")
    page.select_option("#pz-make-size", "4")
    page.click("#pz-make-check")
    page.wait_for_function("() => document.getElementById('pz-make-verdict').dataset.solutions")
    verdict = page.text_content("#pz-make-verdict") or ""
    solutions = page.get_attribute("#pz-make-verdict", "data-solutions")
    assert "cage" not in verdict
    assert "sign" not in verdict
    if solutions == "none":
        assert "bar" in verdict
    bp.assert_clean()


def test_the_2mino_menus_follow_the_levels_and_the_page_in_play_keeps_a_heading(
    open_page: Callable[..., BrowserPage],
) -> None:
    from tests.browser.test_twomino import start as start_twomino

    bp = open_page(DESKTOP)
    bp.page.goto(bp.url("/puzzles/2mino/"))
    answer_if_asked(bp.page)
    # The menus offer, per size, the levels the API lists.
    rows = [row for row in offered_levels(kind="2mino") if row["levels"]]
    assert options(bp.page, "#tm-size") == [str(row["size"]) for row in rows]
    for row in rows:
        bp.page.select_option("#tm-size", str(row["size"]))
        assert options(bp.page, "#tm-difficulty") == row["levels"]
    start_twomino(bp.page, 4)
    headings = bp.page.eval_on_selector_all(
        "h1", "hs => hs.filter(h => h.offsetParent !== null && h.textContent.trim()).length"
    )
    assert headings == 1
    bp.screenshot("twomino-playing-desktop")
    bp.assert_clean()


def test_answering_a_decodoku_puzzle_too_early_says_why_without_a_request(
    open_page: Callable[..., BrowserPage],
) -> None:
    number, _, _ = unique_published()
    bp = open_page(PHONE, touch=True)
    page = bp.page
    attempt = start_decodoku(bp, f"/puzzles/decodoku/{number}/")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    page.locator("#dk-answer-button").tap()
    settle_decodoku(bp)
    assert sent == []
    assert "Not yet" in (page.text_content("#dk-message") or "")
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.ACTIVE
    bp.assert_clean()


def test_the_decodoku_board_on_a_phone_has_big_targets_and_badges_beside_numbers(
    open_page: Callable[..., BrowserPage],
) -> None:
    number, links, _ = unique_published()
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_decodoku(bp, f"/puzzles/decodoku/{number}/")
    for link in sorted(links):
        page.locator(f'#dk-board .dk-link[data-link="{link}"]').tap()
    settle_decodoku(bp)
    sizes = page.eval_on_selector_all(
        "#dk-board .dk-cell, #dk-board .dk-link",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })",
    )
    assert min(min(w, h) for w, h in sizes) >= 24
    pairs = page.eval_on_selector_all(
        "#dk-board .dk-cell",
        """cells => cells.map(c => [c.querySelector('.dk-value'), c.querySelector('.dk-badge')])
          .filter(([, b]) => b.textContent)
          .map(([v, b]) => [v, b].map(e => {
            const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }))""",
    )
    assert pairs, "no badge shown"
    for value, badge in pairs:
        assert not overlap(value, badge)
    board = page.locator("#dk-board").bounding_box()
    assert board is not None
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= PHONE["width"]
    bp.screenshot("decodoku-board-phone")
    bp.assert_clean()
