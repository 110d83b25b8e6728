"""Reading the board from the page and playing moves on it, as a player would."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

Cell = tuple[int, int]


def board_symbols(page: Page) -> list[str]:
    """What every cell shows, row-major ("" for an empty cell)."""
    return page.eval_on_selector_all(
        "#board .cell", "cells => cells.map(c => c.textContent.trim())"
    )


def board_size(page: Page) -> int:
    return math.isqrt(len(board_symbols(page)))


def text(page: Page, selector: str) -> str:
    """The text of the first element ``selector`` matches ("" when it has none)."""
    return page.text_content(selector) or ""


def moves_made(page: Page) -> int:
    return int(page.get_attribute("#moves-count", "data-moves") or "")


def shown_int(page: Page, selector: str) -> int:
    return int(text(page, selector).strip())


def cell(page: Page, row: int, col: int) -> Locator:
    return page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"]')


def centre(page: Page, row: int, col: int) -> tuple[float, float]:
    box = cell(page, row, col).bounding_box()
    assert box is not None, "the cell is not visible"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def neighbours(size: int, row: int, col: int) -> list[Cell]:
    around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [(r, c) for r, c in around if 0 <= r < size and 0 <= c < size]


def pick_move(symbols: list[str], *, prefer_empty: bool = True) -> tuple[Cell, Cell]:
    """A legal move: a number and a neighbour, preferring an empty neighbour near the centre.

    Moving onto an empty square never merges groups, which keeps a big board
    from ending early while a test needs it alive.
    """
    size = math.isqrt(len(symbols))
    middle = (size - 1) / 2
    best = None
    for index, symbol in enumerate(symbols):
        if not symbol:
            continue
        row, col = divmod(index, size)
        for r, c in neighbours(size, row, col):
            empty = not symbols[r * size + c]
            score = (0 if empty == prefer_empty else 10) + abs(r - middle) + abs(c - middle)
            if best is None or score < best[0]:
                best = (score, (row, col), (r, c))
    assert best is not None, "the board has no number to move"
    return best[1], best[2]


def drag(page: Page, source: Cell, target: Cell) -> None:
    """Press on a number, drag it onto a neighbour and let go (Pointer Events from a mouse)."""
    x0, y0 = centre(page, *source)
    x1, y1 = centre(page, *target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def click_move(page: Page, source: Cell, target: Cell) -> None:
    cell(page, *source).click()
    cell(page, *target).click()


def keyboard_move(page: Page, source: Cell, target: Cell) -> None:
    """Walk the cursor to the number with the arrow keys, then Shift + arrow to move it."""
    focused = page.evaluate(
        "() => { const a = document.activeElement;"
        " const c = a && a.closest ? a.closest('.cell') : null;"
        " return c ? [Number(c.dataset.row), Number(c.dataset.col)] : null; }"
    )
    if focused is None:
        page.focus('#board .cell[tabindex="0"]')
        focused = page.evaluate(
            "() => [Number(document.activeElement.dataset.row),"
            " Number(document.activeElement.dataset.col)]"
        )
    row, col = focused
    while row != source[0]:
        page.keyboard.press("ArrowDown" if source[0] > row else "ArrowUp")
        row += 1 if source[0] > row else -1
    while col != source[1]:
        page.keyboard.press("ArrowRight" if source[1] > col else "ArrowLeft")
        col += 1 if source[1] > col else -1
    active = page.evaluate(
        "() => [Number(document.activeElement.dataset.row),"
        " Number(document.activeElement.dataset.col)]"
    )
    assert tuple(active) == tuple(source), "the keyboard cursor did not reach the number"
    key = {(-1, 0): "ArrowUp", (1, 0): "ArrowDown", (0, -1): "ArrowLeft", (0, 1): "ArrowRight"}[
        (target[0] - source[0], target[1] - source[1])
    ]
    page.keyboard.press(f"Shift+{key}")


WAIT_FOR_MOVE = """n => {
  const over = !document.querySelector('#gameover').hidden;
  const made = Number(document.querySelector('#moves-count').dataset.moves);
  const mode = document.querySelector('#board').dataset.mode;
  return over || (made >= n && mode === 'play');
}"""


def wait_for_moves(page: Page, count: int) -> None:
    """Wait until the page shows ``count`` moves and takes the next one, or the game ended."""
    page.wait_for_function(WAIT_FOR_MOVE, arg=count)


def game_over(page: Page) -> bool:
    return page.is_visible("#gameover")


def wait_until_playable(page: Page) -> None:
    page.wait_for_selector('#board[data-mode="play"]')


def answer_research_question(page: Page, *, yes: bool) -> None:
    """Answer the research question a page asks before a first game; wait until it is saved."""
    page.click("#consent-yes" if yes else "#consent-no")
    page.wait_for_selector("#consent-summary", state="visible")


def answer_if_asked(page: Page, *, yes: bool = False) -> None:
    """Answer the research question when the page asks it (a browser's first visit only)."""
    page.wait_for_load_state("networkidle")
    if page.is_visible("#consent-ask"):
        answer_research_question(page, yes=yes)


def make_unasked_player(page: Page, players_url: str) -> None:
    """A player made without an answer in this browser's session, as the old Play button
    made them: the API's ``POST /players/`` with an empty body."""
    made = page.request.post(players_url, data="{}", headers={"Content-Type": "application/json"})
    assert made.status == 201
