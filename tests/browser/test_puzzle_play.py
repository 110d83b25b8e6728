"""The KenKen, Futoshiki and 2mino pages: accessibility, conflict highlighting, redo, give up.

axe-core runs on every puzzle page while playing and once solved; the grid is
read as a grid by assistive technology, each cell names its cage clue and the
Futoshiki signs that touch it, and entries are announced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from puzzles.engines import twomino
from puzzles.engines.registry import KINDS
from puzzles.models import Action, Attempt
from puzzles.offered import offered_levels
from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, BrowserPage
from tests.browser.helpers import answer_if_asked, text
from tests.browser.test_puzzles import cell, settle, start
from tests.browser.test_twomino import bar_selector, bars_to_draw
from tests.browser.test_twomino import settle as settle_twomino
from tests.browser.test_twomino import start as start_twomino

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def name(page: Page, r: int, c: int) -> str:
    """The cell's accessible name (its content: the visually hidden description)."""
    return cell(page, r, c).locator(".pz-name").text_content() or ""


def fill(page: Page, attempt: Attempt) -> None:
    """Write the solution's numbers into every cell that is not given, by keys."""
    solution = attempt.puzzle.solution
    givens = {(r, c) for r, c, _ in attempt.puzzle.definition.get("givens", [])}
    for r, row in enumerate(solution):
        for c, value in enumerate(row):
            if (r, c) in givens:
                continue
            cell(page, r, c).click()
            page.keyboard.press(str(value))
    settle(page)


@pytest.mark.parametrize("kind", ["kenken", "futoshiki"])
def test_latin_pages_pass_axe_while_playing_and_solved(
    open_page: Callable[..., BrowserPage], kind: str
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, kind, 5)
    # The grid is a grid of rows of cells.
    assert page.locator("#pz-board > [role=row]").count() == 5
    assert page.locator("#pz-board [role=row] > [role=gridcell]").count() == 25
    # A skip link leads to the grid.
    assert page.get_attribute("a.skip-to-grid", "href") == "#pz-board"
    cell(page, 0, 0).click()
    page.keyboard.press("1")
    settle(page)
    assert_no_serious_violations(page, f"{kind} while playing")
    browser.screenshot(f"puzzle-{kind}-axe-playing-desktop")
    fill(page, attempt)
    page.wait_for_selector("#pz-solved:not([hidden])")
    assert_no_serious_violations(page, f"{kind} solved")
    browser.assert_clean()


def test_cells_name_their_cage_clue_and_signs(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    cage = attempt.puzzle.definition["cages"][0]
    r, c = sorted(cage["cells"])[0]
    label = name(page, r, c)
    assert f"cage {cage['target']}" in label
    count = len(cage["cells"])
    assert (f"{count} cells" if count > 1 else "1 cell") in label
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "futoshiki", 5)
    relation = attempt.puzzle.definition["relations"][0]
    (ra, ca), (rb, cb) = relation["a"], relation["b"]
    label_a = name(page, ra, ca)
    word = "less than" if relation["op"] == "<" else "greater than"
    assert f"{word} row {rb + 1}, column {cb + 1}" in label_a
    # An entry is announced in the live region.
    target = next(
        (r, c)
        for r in range(5)
        for c in range(5)
        if (r, c) not in {(g[0], g[1]) for g in attempt.puzzle.definition.get("givens", [])}
    )
    cell(page, *target).click()
    page.keyboard.press("2")
    settle(page)
    assert f"Row {target[0] + 1}, column {target[1] + 1}: 2" in text(page, "#pz-announce")
    browser.assert_clean()


def test_twomino_passes_axe_while_playing_and_solved(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    _, puzzle = start_twomino(page, 3)
    tiling = next(iter(twomino.solve(3, puzzle.grid, puzzle.locked, limit=1)))
    draw = bars_to_draw(puzzle, tiling)
    page.click(bar_selector(draw[0]))
    settle_twomino(page)
    assert_no_serious_violations(page, "2mino while playing")
    for b in draw[1:]:
        page.click(bar_selector(b))
    settle_twomino(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    assert_no_serious_violations(page, "2mino solved")
    browser.assert_clean()


def test_repeated_digits_are_highlighted_and_the_switch_is_remembered(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    # No Check that compares with the solution any more.
    assert page.locator('[data-tool="check"]').count() == 0
    solution = attempt.puzzle.solution
    value = solution[0][0]
    cell(page, 0, 0).click()
    page.keyboard.press(str(value))
    cell(page, 0, 1).click()
    page.keyboard.press(str(value))  # the same number twice in row 1
    settle(page)
    assert "pz-conflict" in (cell(page, 0, 0).get_attribute("class") or "")
    assert "pz-conflict" in (cell(page, 0, 1).get_attribute("class") or "")
    assert "repeated" in name(page, 0, 1)
    assert "twice" in text(page, "#pz-announce")
    browser.screenshot("puzzle-kenken-conflict-desktop")
    # Switched off, it stays off on the next visit.
    page.uncheck("#pz-highlight")
    assert "pz-conflict" not in (cell(page, 0, 1).get_attribute("class") or "")
    page.reload()
    page.wait_for_selector("#pz-board .pz-cell")
    assert not page.is_checked("#pz-highlight")
    assert "pz-conflict" not in (cell(page, 0, 1).get_attribute("class") or "")
    page.check("#pz-highlight")
    assert "pz-conflict" in (cell(page, 0, 1).get_attribute("class") or "")
    browser.assert_clean()


def test_redo_and_a_confirmed_give_up_that_offers_another_puzzle(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(PHONE, touch=True)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    cell(page, 1, 1).tap()
    page.locator('#pz-pad [data-value="3"]').tap()
    settle(page)
    page.locator('[data-tool="undo"]').tap()
    settle(page)
    assert (cell(page, 1, 1).locator(".pz-value").text_content() or "") == ""
    page.locator('[data-tool="redo"]').tap()
    settle(page)
    assert cell(page, 1, 1).locator(".pz-value").text_content() == "3"
    kinds = list(Action.objects.filter(attempt=attempt).values_list("kind", flat=True))
    assert kinds == ["entry", "undo", "entry"]
    # On a phone the help speaks of taps.
    assert "Tap" in text(page, "#pz-help")
    assert "Backspace" not in text(page, "#pz-help")
    # Give up asks first; cancelling keeps playing.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator('[data-tool="giveup"]').tap()
    settle(page)
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.ACTIVE
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-tool="giveup"]').tap()
    settle(page)
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.ABANDONED
    page.wait_for_selector("#pz-over:not([hidden])")
    assert not page.is_visible("#pz-pad")
    browser.screenshot("puzzle-kenken-gave-up-phone")
    page.locator("#pz-over-again").tap()
    page.wait_for_selector("#pz-setup:not([hidden])")
    browser.assert_clean()


def test_levels_follow_the_kind(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))

    answer_if_asked(page)

    def levels() -> list[str]:
        values: list[str] = page.eval_on_selector_all(
            "#pz-difficulty option", "options => options.map(o => o.value)"
        )
        return values

    # Each kind's own ladder, at its default size, keeping the levels offered there.
    for kind, ladder in (
        ("kenken", ["easy", "normal", "hard", "extreme", "unreasonable"]),
        ("futoshiki", ["trivial", "easy", "tricky", "extreme", "recursive"]),
    ):
        page.select_option("#pz-kind", kind)
        size = int(page.input_value("#pz-size"))
        assert size == KINDS[kind].default_size
        offer = next(row for row in offered_levels(kind=kind) if row["size"] == size)
        assert levels() == [""] * offer["any"] + [lvl for lvl in ladder if lvl in offer["levels"]]
    browser.assert_clean()


def test_twomino_undo_pictures_and_a_victory_that_respects_reduced_motion(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP, reduced_motion=True)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    page.check("#tm-pictures")
    attempt, puzzle = start_twomino(page, 3)
    # Pictures, and their names in the bars' names.
    first = page.locator("#tm-board .tm-cell").first.text_content() or ""
    assert not first.isdigit()
    label = page.get_attribute("#tm-board .tm-bar >> nth=0", "aria-label") or ""
    inside = label.split("(")[1].split(")")[0]
    assert inside.isalpha(), label  # a picture's name, not a digit
    tiling = next(iter(twomino.solve(3, puzzle.grid, puzzle.locked, limit=1)))
    draw = bars_to_draw(puzzle, tiling)
    page.click(bar_selector(tiling[0]))  # a wrong bar, taken back by undo
    settle_twomino(page)
    page.click('[data-tool="undo"]')
    settle_twomino(page)
    assert "tm-on" not in (page.get_attribute(bar_selector(tiling[0]), "class") or "")
    assert list(Action.objects.filter(attempt=attempt).values_list("kind", flat=True)) == [
        "toggle",
        "toggle",
    ]
    for b in draw:
        page.click(bar_selector(b))
    settle_twomino(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    browser.screenshot("twomino-pictures-solved-desktop")
    animation = page.eval_on_selector(
        "#tm-board .tm-cell.tm-formed", "c => getComputedStyle(c).animationName"
    )
    assert "tm-victory" in (page.get_attribute("#tm-board", "class") or "")
    assert animation == "none"
    # The remembered choice: pictures on the next visit.
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    assert page.is_checked("#tm-pictures")
    browser.assert_clean()


def test_twomino_victory_moves_without_reduced_motion(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(PHONE, touch=True)
    page = browser.page
    page.goto(browser.url("/puzzles/2mino/"))
    answer_if_asked(page)
    _, puzzle = start_twomino(page, 3)
    tiling = next(iter(twomino.solve(3, puzzle.grid, puzzle.locked, limit=1)))
    for b in bars_to_draw(puzzle, tiling):
        page.locator(bar_selector(b)).tap()
    settle_twomino(page)
    page.wait_for_selector("#tm-solved:not([hidden])")
    animation = page.eval_on_selector(
        "#tm-board .tm-cell.tm-formed", "c => getComputedStyle(c).animationName"
    )
    assert animation == "tm-win"
    # On a phone the help speaks of taps, not keys.
    assert "Tap a bar" in text(page, "#tm-help")
    assert "Space" not in text(page, "#tm-help")
    browser.screenshot("twomino-solved-phone")
    browser.assert_clean()


def test_a_finished_puzzle_has_an_id_and_a_link_that_opens_it_again(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "futoshiki", 4)
    fill(page, attempt)
    page.wait_for_selector("#pz-solved:not([hidden])")
    puzzle = attempt.puzzle
    shown = text(page, "#pz-solved .pz-share-id")
    assert shown == f"futoshiki-4-any-{puzzle.seed}"
    browser.screenshot("puzzle-futoshiki-id-desktop")
    page.click("#pz-solved .pz-share-link")
    page.wait_for_selector("#pz-setup:not([hidden])")
    assert page.input_value("#pz-id") == shown
    page.click("#pz-start")
    page.wait_for_selector("#pz-board .pz-cell")
    again = Attempt.objects.select_related("puzzle").latest("started_at")
    assert again.pk != attempt.pk
    assert again.puzzle.definition == puzzle.definition
    # A typed ID that is not one is refused with a clear message.
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.fill("#pz-id", "kenken-five")
    page.click("#pz-start")
    page.wait_for_selector("#pz-new[data-error]")
    assert "not a puzzle ID" in (page.get_attribute("#pz-new", "data-error") or "")
    browser.assert_clean()


def test_the_pad_stays_on_screen_at_200_percent_zoom(
    open_page: Callable[..., BrowserPage],
) -> None:
    # 1280 x 800 at 200 %: a window of 640 x 400 CSS pixels.
    browser = open_page({"width": 640, "height": 400})
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    start(page, "kenken", 6)
    cell(page, 0, 0).click()
    box = page.locator("#pz-pad").bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 400
    # What the window shows (a full-page picture would not show a sticky pad where it is).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "puzzle-kenken-zoom-200.png"))
    browser.assert_clean()


def test_thick_cage_borders_are_drawn_over_the_thin_lines(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(PHONE)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    start(page, "kenken", 5)
    widths = page.eval_on_selector(
        "#pz-board .pz-edge-left:not([data-c='0'])",
        """c => ({ own: getComputedStyle(c).borderLeftWidth,
                   layer: getComputedStyle(c, '::after').borderLeftWidth })""",
    )
    # No thin line of the cell's own beside the thick one: the thick layer covers it.
    assert widths == {"own": "0px", "layer": "3px"}
    browser.screenshot("puzzle-kenken-borders-phone")
    browser.assert_clean()


def test_candidates_fill_clear_and_write_with_a_click(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    posts: list[str] = []
    page.on(
        "request",
        lambda request: posts.append(request.url) if request.method == "POST" else None,
    )
    page.keyboard.press("f")
    settle(page)
    marks = page.evaluate("() => window.puzzlePage.current().state.marks")
    assert all(m == 0b1111 for row in marks for m in row)
    # 64 actions, each its own step, in one request.
    assert Action.objects.filter(attempt=attempt, kind="candidate").count() == 64
    assert [url.split("/api/v1/puzzles/")[1].split("/", 1)[1] for url in posts] == [
        "actions/batch/"
    ]
    # A candidate of the selected cell, clicked, is written; the number's marks go from
    # its row, column and cage.
    value = attempt.puzzle.solution[0][0]
    # The first click selects the cell (selected when the puzzle opened: not chosen yet).
    cell(page, 0, 0).click()
    settle(page)
    assert page.evaluate("() => window.puzzlePage.current().state.entries[0][0]") == 0
    cell(page, 0, 0).locator(".pz-marks > span").nth(value - 1).click()
    settle(page)
    state = page.evaluate("() => window.puzzlePage.current().state")
    assert state["entries"][0][0] == value
    bit = 1 << (value - 1)
    assert not any(state["marks"][0][c] & bit for c in range(1, 4))
    assert not any(state["marks"][r][0] & bit for r in range(1, 4))
    # A cell outside the row, the column and the cage keeps its mark.
    cage = next(cg for cg in attempt.puzzle.definition["cages"] if [0, 0] in cg["cells"])
    elsewhere = next(
        (r, c) for r in range(1, 4) for c in range(1, 4) if [r, c] not in cage["cells"]
    )
    assert state["marks"][elsewhere[0]][elsewhere[1]] & bit
    # One undo takes back the number and the marks it cleared; one redo does both again.
    page.keyboard.press("u")
    settle(page)
    undone = page.evaluate("() => window.puzzlePage.current().state")
    assert undone["entries"][0][0] == 0
    assert undone["marks"] == marks
    page.keyboard.press("y")
    settle(page)
    assert page.evaluate("() => window.puzzlePage.current().state") == state
    # Restart (confirmed) erases every number written.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-tool="restart"]')
    settle(page)
    entries = page.evaluate("() => window.puzzlePage.current().state.entries")
    assert entries[0][0] == 0
    browser.assert_clean()


def test_a_puzzle_prints_as_its_grid_alone(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    start(page, "futoshiki", 5)
    assert page.locator('[data-tool="print"]').count() == 1
    page.emulate_media(media="print")
    assert page.is_visible("#pz-board")
    assert page.is_visible("#pz-title")
    for hidden in ("#pz-pad", ".pz-tools", ".site-header", "#pz-help"):
        assert not page.is_visible(hidden), hidden
    browser.screenshot("puzzle-futoshiki-print")
    browser.assert_clean()


def test_a_hint_says_why(open_page: Callable[..., BrowserPage]) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    attempt = start(page, "kenken", 4)
    said = []
    for _ in range(6):  # a few hints, writing each one's number
        page.keyboard.press("h")
        settle(page)
        action = Action.objects.filter(attempt=attempt, kind="hint").latest("step")
        hint = action.result["hint"]
        message = text(page, "#pz-message")
        said.append(message)
        if hint is None:
            break
        if hint["kind"] == "single_candidate":
            assert f"can only hold {hint['value']}." in message
            why = message.split("Why: ", 1)[1]
            # Every other number is ruled out by a reason that names it or its cage.
            for v in range(1, 5):
                if v != hint["value"]:
                    assert str(v) in why or "cage" in why, (v, message)
        if hint["kind"] == "single_place":
            assert "row 0" not in message
            assert "column 0" not in message
        page.keyboard.press(str(hint["value"]))
        settle(page)
    assert any("Why: " in m for m in said), said
    assert any("cage" in m and "can only be" in m for m in said), said
    browser.screenshot("puzzle-kenken-hint-why-desktop")
    browser.assert_clean()
