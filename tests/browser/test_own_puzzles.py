"""Make your own: a 4 x 4 Futoshiki entered on the puzzles page, checked, saved, loaded, played."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from puzzles.models import Attempt
from puzzles.selectors import own_puzzle_check
from puzzles.services import OWN
from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, BrowserPage
from tests.browser.helpers import answer_if_asked

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SQUARE = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]


def verdict_after(page: Page, button: str) -> str:
    page.evaluate("() => { document.getElementById('pz-make-verdict').dataset.solutions = ''; }")
    page.click(button)
    page.wait_for_function(
        "() => document.getElementById('pz-make-verdict').dataset.solutions !== ''"
    )
    return page.text_content("#pz-make-verdict") or ""


def give_square_but_last_cell(page: Page) -> None:
    for value in range(1, 5):
        for r in range(4):
            for c in range(4):
                if SQUARE[r][c] == value and (r, c) != (3, 3):
                    page.click(f'#pz-make-grid [data-cell="{r},{c}"]')
        page.fill("#pz-make-value", str(value))
        page.click("#pz-make-give")


def test_a_futoshiki_entered_checked_saved_and_played(
    open_page: Callable[..., BrowserPage], tmp_path: Path
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.select_option("#pz-make-kind", "futoshiki")
    page.select_option("#pz-make-size", "4")
    assert page.locator("#pz-make-grid [data-cell]").count() == 16
    assert "More than one solution" in verdict_after(page, "#pz-make-check")
    assert page.is_disabled("#pz-make-play")

    give_square_but_last_cell(page)
    # a sign that holds in the square: row 3, cells 3 and 4 (2 > 1)
    page.click('#pz-make-grid [data-cell="3,2"]')
    page.select_option("#pz-make-sign-where", "right")
    page.select_option("#pz-make-sign-op", ">")
    page.click("#pz-make-sign")
    assert page.locator('#pz-make-grid [data-cell="3,2"]').text_content() == "2>"
    assert "One solution" in verdict_after(page, "#pz-make-check")
    assert_no_serious_violations(page, "the puzzle editor with a Futoshiki")

    with page.expect_download() as download:
        page.click("#pz-make-save")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert (data["format"], data["version"], data["kind"], data["size"]) == (
        "decodoku-lab-puzzle",
        1,
        "futoshiki",
        4,
    )
    assert len(data["givens"]) == 15
    assert data["relations"] == [{"a": [3, 2], "b": [3, 3], "op": ">"}]

    # An empty grid, then the file loaded back: checked again on its own.
    page.click("#pz-make-clear")
    page.evaluate("() => { document.getElementById('pz-make-verdict').dataset.solutions = ''; }")
    page.set_input_files("#pz-make-load", str(saved))
    page.wait_for_function(
        "() => document.getElementById('pz-make-verdict').dataset.solutions === 'one'"
    )
    assert page.locator('#pz-make-grid [data-cell="0,0"]').text_content() == "1"

    page.click("#pz-make-play")
    page.wait_for_selector("#pz-board .pz-cell")
    attempt = Attempt.objects.select_related("puzzle").get()
    assert attempt.puzzle.requested_difficulty == OWN
    assert attempt.puzzle.solution == SQUARE
    assert page.url.endswith(f"#{attempt.pk}")
    # The puzzle in play, saved as a file: the same puzzle as the one entered.
    with page.expect_download() as again:
        page.click("#pz-file-save")
    played = tmp_path / "played.json"
    again.value.save_as(played)
    in_play = json.loads(played.read_text())
    assert (in_play["format"], in_play["kind"], in_play["size"]) == (data["format"], "futoshiki", 4)
    assert sorted(in_play["givens"]) == sorted(data["givens"])
    assert in_play["relations"] == data["relations"]
    assert "solution" not in in_play
    assert not browser.console_errors


KENKEN_CAGES = [
    ([[0, 0], [0, 1]], "+", 3),
    ([[0, 2], [1, 2]], "+", 4),
    ([[1, 0], [2, 0]], "+", 5),
    ([[1, 1], [2, 1]], "x", 3),
    ([[2, 2]], "=", 2),
]


def test_a_kenken_made_of_cages_gets_the_server_s_verdict_and_passes_axe(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.select_option("#pz-make-size", "3")
    for cells, op, target in KENKEN_CAGES:
        for r, c in cells:
            page.click(f'#pz-make-grid [data-cell="{r},{c}"]')
        if len(cells) > 1:
            page.select_option("#pz-make-op", op)
        page.fill("#pz-make-target", str(target))
        page.click("#pz-make-cage")
    first = page.locator('#pz-make-grid [data-cell="0,0"]')
    assert first.text_content() == "3+"
    assert first.get_attribute("aria-label") == "Row 1, column 1, cage 1: 3+"
    shown = verdict_after(page, "#pz-make-check")
    definition = {
        "kind": "kenken",
        "size": 3,
        "cages": [{"cells": cells, "op": op, "target": t} for cells, op, t in KENKEN_CAGES],
    }
    expected = own_puzzle_check(definition=definition)
    assert page.get_attribute("#pz-make-verdict", "data-solutions") == expected.solutions
    if expected.grade is not None:
        assert f"level {expected.grade.label}" in shown
    assert_no_serious_violations(page, "the puzzle editor")
    browser.assert_clean()


@pytest.mark.parametrize(("kind", "size"), [("futoshiki-adjacent", 11), ("futoshiki", 10)])
def test_a_large_grid_in_play_saved_as_a_file_and_loaded_back_is_the_same_puzzle(
    open_page: Callable[..., BrowserPage], tmp_path: Path, kind: str, size: int
) -> None:
    from tests.browser.test_puzzles import start

    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    first = start(page, kind, size)
    # Its ID is shown during play too.
    assert (page.text_content("#pz-live-id-text") or "").startswith(f"{kind}:{size}:")
    with page.expect_download() as download:
        page.click("#pz-file-save")
    saved = tmp_path / "variant.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert (data["kind"], data["size"]) == (kind, size)
    assert "solution" not in data
    assert ("bars" in data) == (kind == "futoshiki-adjacent")

    page.goto(browser.url("/puzzles/"))

    answer_if_asked(page)
    page.evaluate("() => { document.getElementById('pz-make-verdict').dataset.solutions = ''; }")
    page.set_input_files("#pz-make-load", str(saved))
    page.wait_for_function(
        "() => document.getElementById('pz-make-verdict').dataset.solutions === 'one'"
    )
    # The editor does not draw grids above 9 x 9: it says so and plays it as it is.
    assert page.is_hidden("#pz-make-grid")
    assert "does not draw" in (page.text_content("#pz-make-file-note") or "")
    assert_no_serious_violations(page, f"the puzzle editor with a {kind} file")
    page.click("#pz-make-play")
    page.wait_for_function(
        # The page's module may not be there yet while the new puzzle loads.
        "id => window.puzzlePage && window.puzzlePage.current()"
        " && window.puzzlePage.current().id !== id",
        arg=str(first.pk),
    )
    again = Attempt.objects.select_related("puzzle").latest("started_at")
    assert again.pk != first.pk
    assert (again.puzzle.kind, again.puzzle.requested_difficulty) == (kind, OWN)
    assert again.puzzle.solution == first.puzzle.solution
    # Empty grid goes back to drawing a puzzle of the editor's own.
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.set_input_files("#pz-make-load", str(saved))
    page.wait_for_selector("#pz-make-file-note:not([hidden])")
    page.click("#pz-make-clear")
    assert page.is_visible("#pz-make-grid")
    assert page.is_hidden("#pz-make-file-note")
    browser.assert_clean()


def test_an_adjacent_futoshiki_and_a_product_kenken_made_in_the_editor(
    open_page: Callable[..., BrowserPage],
) -> None:
    browser = open_page(DESKTOP)
    page = browser.page
    page.goto(browser.url("/puzzles/"))
    answer_if_asked(page)
    page.select_option("#pz-make-kind", "futoshiki-adjacent")
    page.select_option("#pz-make-size", "4")
    assert page.is_visible("#pz-make-bar")
    assert page.is_hidden("#pz-make-sign")
    give_square_but_last_cell(page)
    bars = 0
    for r in range(4):
        for c in range(4):
            for where, (rr, cc) in (("right", (r, c + 1)), ("below", (r + 1, c))):
                if rr < 4 and cc < 4 and abs(SQUARE[r][c] - SQUARE[rr][cc]) == 1:
                    page.click(f'#pz-make-grid [data-cell="{r},{c}"]')
                    page.select_option("#pz-make-sign-where", where)
                    page.click("#pz-make-bar")
                    page.click(f'#pz-make-grid [data-cell="{r},{c}"]')  # unselect
                    bars += 1
    assert bars == 20
    label = page.locator('#pz-make-grid [data-cell="0,0"]').get_attribute("aria-label") or ""
    assert "one apart from the cell to its right" in label
    assert "One solution" in verdict_after(page, "#pz-make-check")
    assert_no_serious_violations(page, "the puzzle editor with an Adjacent Futoshiki")
    page.click("#pz-make-play")
    page.wait_for_selector("#pz-board .pz-cell")
    attempt = Attempt.objects.select_related("puzzle").get()
    assert (attempt.puzzle.kind, attempt.puzzle.solution) == ("futoshiki-adjacent", SQUARE)
    assert len(attempt.puzzle.definition["bars"]) == 20

    page.goto(browser.url("/puzzles/"))

    answer_if_asked(page)
    page.select_option("#pz-make-kind", "kenken-multiply")
    page.select_option("#pz-make-size", "3")
    # Only products: the other operations cannot be chosen.
    assert page.eval_on_selector_all(
        "#pz-make-op option:not([disabled])", "options => options.map(o => o.value)"
    ) == ["x"]
    square = [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
    cages = [([[0, 0], [0, 1]], 2)] + [
        ([[r, c]], square[r][c])
        for r in range(3)
        for c in range(3)
        if (r, c) not in {(0, 0), (0, 1)}
    ]
    for cells, target in cages:
        for r, c in cells:
            page.click(f'#pz-make-grid [data-cell="{r},{c}"]')
        page.fill("#pz-make-target", str(target))
        page.click("#pz-make-cage")
    assert page.locator('#pz-make-grid [data-cell="0,0"]').text_content() == "2\u00d7"
    assert "One solution" in verdict_after(page, "#pz-make-check")
    page.click("#pz-make-play")
    page.wait_for_function("() => Boolean(window.puzzlePage.current())")
    product = Attempt.objects.select_related("puzzle").latest("started_at")
    assert (product.puzzle.kind, product.puzzle.solution) == ("kenken-multiply", square)
    browser.assert_clean()
