"""Playing Decodoku in a real browser against the live server, and what the server recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import DESKTOP, PHONE, BrowserPage
from tests.browser.helpers import (
    answer_research_question,
    board_size,
    board_symbols,
    cell,
    centre,
    click_move,
    drag,
    game_over,
    keyboard_move,
    moves_made,
    pick_move,
    shown_int,
    text,
    wait_for_moves,
    wait_until_playable,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from games.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_MOVES = 400


def start_from_home(bp: BrowserPage, *, consent: bool = True) -> None:
    page = bp.page
    page.goto(bp.url("/"))
    answer_research_question(page, yes=consent)
    page.click("#play-button")
    page.wait_for_url("**/play/")
    wait_until_playable(page)


def start_new_game(page: Page, *, size: int, variant: str = "z10", mode: str = "normal") -> None:
    """Choose a game in the menu and start it (confirming when a game is under way)."""
    page.select_option("#size-select", str(size))
    page.check(f'input[name="variant"][value="{variant}"]')
    page.check(f'input[name="mode"][value="{mode}"]')
    page.click("#new-game")
    if page.is_visible("#new-game-help"):
        page.click("#new-game")
    # The page is settled once the board has the focus: it is shown first, then the
    # status line greets the game, then the board takes the focus (which scrolls the
    # page to it); a click of the test's before that lands where the page scrolls away.
    page.wait_for_function(
        "n => document.querySelectorAll('#board .cell').length === n * n"
        " && document.querySelector('#board').dataset.mode === 'play'"
        " && document.querySelector('#moves-count').dataset.moves === '0'"
        " && document.activeElement !== null && document.activeElement.closest('#board') !== null",
        arg=size,
    )


def recorded_game(**filters: object) -> Game:
    from games.models import Game

    game = Game.objects.filter(**filters).order_by("-started_at").first()
    assert game is not None, f"no game recorded with {filters}"
    return game


def assert_recorded_in_order(game: Game, ui_moves: int) -> None:
    """Every event of the game is stored with contiguous seq numbers, and every move in order."""
    from games.models import Event

    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs))), "event seq numbers are not contiguous from 0"
    assert game.next_seq == len(seqs)
    indices = list(
        Event.objects.filter(game=game, kind="move").order_by("seq").values_list("index", flat=True)
    )
    assert indices == list(range(1, ui_moves + 1)), "moves are not recorded once each, in order"
    assert game.moves_count == ui_moves


def play_until(page: Page, stop: Callable[[], bool], limit: int = MAX_MOVES) -> int:
    """Play moves by clicking until ``stop()`` is true; return the moves made."""
    for _ in range(limit):
        if stop():
            break
        made = moves_made(page)
        source, target = pick_move(board_symbols(page), prefer_empty=False)
        click_move(page, source, target)
        wait_for_moves(page, made + 1)
    return moves_made(page)


def test_a_whole_game_in_the_browser_is_recorded_move_by_move(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    assert board_size(page) == 7
    assert shown_int(page, "#round") == 1
    assert shown_int(page, "#moves-left") == 5

    # A move by dragging a number onto a neighbour.
    before = board_symbols(page)
    source, target = pick_move(before)
    drag(page, source, target)
    wait_for_moves(page, 1)
    after = board_symbols(page)
    assert after[source[0] * 7 + source[1]] == "", "the dragged number left its square"
    assert shown_int(page, "#score") >= 1
    assert shown_int(page, "#moves-left") == 4

    # A move by keyboard: arrows walk the cursor, Shift + arrow moves the number.
    source, target = pick_move(board_symbols(page))
    keyboard_move(page, source, target)
    wait_for_moves(page, 2)
    assert board_symbols(page)[source[0] * 7 + source[1]] == ""

    # Three more moves bring the fifth, and with it a round of noise.
    for made in range(2, 5):
        if shown_int(page, "#round") > 1:
            break  # an emptied board jumps the clock ahead to the noise
        source, target = pick_move(board_symbols(page))
        click_move(page, source, target)
        wait_for_moves(page, made + 1)
    assert shown_int(page, "#round") == 2, "no noise round arrived after five moves"
    assert page.locator("#board .cell.is-changed").count() > 0, "no changed cell flashed"
    assert "Noise round 2" in text(page, "#status")
    bp.screenshot("play-desktop")

    # Back in time: a long press on the grid looks at the board before the last move.
    made = moves_made(page)
    x, y = centre(page, 1, 1)
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(900)
    page.mouse.up()
    page.wait_for_selector('#board[data-mode="history"]')
    page.wait_for_function(
        "t => document.querySelector('#lookback-banner').textContent.includes(t)",
        arg=f"after move {made - 1} of {made}",
    )
    # Tapping the left half goes one step further back, the right half forward again.
    box = page.locator("#board").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "t => document.querySelector('#lookback-banner').textContent.includes(t)",
        arg=f"after move {made - 2} of {made}",
    )
    assert page.is_enabled("#present-button")
    bp.screenshot("back-in-time-desktop")
    # No moves while looking back.
    source, target = pick_move(board_symbols(page))
    keyboard_move(page, source, target)
    page.wait_for_timeout(300)
    assert moves_made(page) == made
    assert page.get_attribute("#board", "data-mode") == "history"
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "t => document.querySelector('#lookback-banner').textContent.includes(t)",
        arg=f"after move {made - 1} of {made}",
    )
    page.click("#present-button")
    wait_until_playable(page)
    assert page.is_hidden("#lookback-banner")
    # The ◀ button enters the mode too, and ▶ from the last board returns to the present.
    page.click("#back-button")
    page.wait_for_selector('#board[data-mode="history"]')
    page.click("#forward-button")
    wait_until_playable(page)
    # A swipe across the grid while looking back also returns to the present.
    page.click("#back-button")
    page.wait_for_selector('#board[data-mode="history"]')
    drag(page, (3, 1), (3, 3))
    wait_until_playable(page)
    assert moves_made(page) == made

    first_game = recorded_game(size=7)
    ui_moves_first = moves_made(page)

    # A small board ends quickly: play it to the end.
    start_new_game(page, size=3)
    total = play_until(page, lambda: game_over(page))
    assert game_over(page), f"the 3 x 3 game did not end in {MAX_MOVES} moves"
    page.wait_for_selector("#replaybar:not([hidden])")
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    assert page.locator("#board .cell.is-spanning").count() > 0, "the spanning group is not shown"
    ui_score = shown_int(page, "#final-score")
    assert shown_int(page, "#best-score") >= ui_score
    assert "Game over" in text(page, "#gameover-title")
    bp.screenshot("game-over-desktop")

    # The replay steps through every board of the game.
    assert page.get_attribute("#replay-slider", "max") == str(total)
    page.click("#replay-first")
    assert "First board" in text(page, "#replay-label")
    page.click("#replay-next")
    assert "After move 1 of" in text(page, "#replay-label")
    page.click("#replay-play")
    page.wait_for_function(
        "n => document.querySelector('#replay-slider').value === String(n)", arg=total
    )

    # What the server recorded matches what the player saw.
    game = recorded_game(size=3)
    assert game.status == "lost"
    assert game.score == ui_score
    assert game.source == "web"
    assert game.research_consent is True
    assert_recorded_in_order(game, total)
    first_game.refresh_from_db()
    assert first_game.status == "abandoned", "starting a new game ends the one under way"
    assert_recorded_in_order(first_game, ui_moves_first)

    # Play again starts a fresh game with the same settings.
    page.click("#play-again")
    page.wait_for_function(
        "() => document.querySelector('#gameover').hidden"
        " && document.querySelector('#moves-count').dataset.moves === '0'"
    )
    assert board_size(page) == 3
    bp.assert_clean()


def test_notes_on_moves_are_stored_with_the_move(open_page: Callable[..., BrowserPage]) -> None:
    from games.models import Event

    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp, consent=False)
    for made in range(2):
        source, target = pick_move(board_symbols(page))
        click_move(page, source, target)
        wait_for_moves(page, made + 1)
    page.click('#move-list li[data-index="2"] .note-button')
    page.fill('#move-list li[data-index="2"] textarea', "Keeping the 3 away from the edge")
    page.click('#move-list li[data-index="2"] button[type="submit"]')
    page.wait_for_selector('#move-list li[data-index="2"] .move-note')
    game = recorded_game()
    assert game.research_consent is False, "playing without consent keeps games out of research"
    move = Event.objects.get(game=game, kind="move", index=2)
    assert move.note == "Keeping the 3 away from the edge"
    assert Event.objects.get(game=game, kind="move", index=1).note == ""
    bp.assert_clean()


def test_a_reload_resumes_the_game(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    for made in range(3):
        source, target = pick_move(board_symbols(page))
        click_move(page, source, target)
        wait_for_moves(page, made + 1)
    symbols = board_symbols(page)
    score = shown_int(page, "#score")
    page.reload()
    page.wait_for_function("() => document.querySelector('#moves-count').dataset.moves === '3'")
    wait_until_playable(page)
    assert board_symbols(page) == symbols
    assert shown_int(page, "#score") == score
    assert page.locator("#move-list li").count() == 3
    bp.assert_clean()


def test_a_lost_answer_is_retried_with_the_same_step_and_counted_once(
    open_page: Callable[..., BrowserPage],
) -> None:
    """The server plays the move but the answer never arrives: the retry must not play it again."""
    from games.models import Event

    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    dropped: list[object] = []

    def lose_first_answer(route: Route) -> None:
        if route.request.method == "POST" and not dropped:
            route.fetch()  # the server receives and plays the move...
            dropped.append(route.request.post_data_json)
            route.abort("connectionreset")  # ...but the page never hears back
        else:
            route.continue_()

    page.route("**/api/v1/games/*/moves/", lose_first_answer)
    source, target = pick_move(board_symbols(page))
    drag(page, source, target)
    wait_for_moves(page, 1)
    assert len(dropped) == 1
    game = recorded_game()
    assert Event.objects.filter(game=game, kind="move").count() == 1
    assert game.moves_count == 1
    # The lost answer is logged by the browser; nothing else may be.
    assert all("ERR_CONNECTION_RESET" in e or "Failed to load" in e for e in bp.console_errors)
    assert all("moves/" in r for r in bp.failed_requests)


def test_a_move_that_cannot_be_sent_offers_retry(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    page.route("**/api/v1/games/*/moves/", lambda route: route.abort("internetdisconnected"))
    source, target = pick_move(board_symbols(page))
    drag(page, source, target)
    page.wait_for_selector("#retry-button:not([hidden])", timeout=20_000)
    assert "Press Retry" in text(page, "#status")
    assert page.get_attribute("#status", "aria-live") == "polite"
    assert moves_made(page) == 0
    page.unroute("**/api/v1/games/*/moves/")
    page.click("#retry-button")
    wait_for_moves(page, 1)
    assert page.is_hidden("#retry-button")
    assert recorded_game().moves_count == 1


def test_practice_and_phi_lambda_boards(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    assert page.locator("#board .cell.has-group").count() == 0, "normal mode hides the groups"

    start_new_game(page, size=8, mode="practice")
    numbers = sum(1 for s in board_symbols(page) if s)
    assert page.locator("#board .cell.has-group").count() == numbers
    label = cell(page, 0, 0).get_attribute("aria-label")
    assert label is not None
    assert label.startswith("row 1 column 1: ")

    start_new_game(page, size=5, variant="phi_lambda")
    symbols = {s for s in board_symbols(page) if s}
    assert symbols, "the board shows no number"
    assert symbols <= {"Φ", "Λ"}, "a Phi-Lambda board shows only Phi and Lambda"
    source, target = pick_move(board_symbols(page))
    click_move(page, source, target)
    wait_for_moves(page, 1)
    assert set(filter(None, board_symbols(page))) <= {"Φ", "Λ"}
    bp.assert_clean()


def test_phone_layout_plays_by_touch_and_ends(open_page: Callable[..., BrowserPage]) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways on a phone"
    box = page.locator("#board").bounding_box()
    assert box is not None
    assert box["width"] <= PHONE["width"]
    assert box["width"] > 300
    source, target = pick_move(board_symbols(page))
    cell(page, *source).tap()
    cell(page, *target).tap()
    wait_for_moves(page, 1)
    bp.screenshot("play-phone")
    made = moves_made(page)
    page.click("#back-button")
    page.wait_for_selector('#board[data-mode="history"]')
    bp.screenshot("back-in-time-phone")
    page.click("#present-button")
    wait_until_playable(page)
    assert moves_made(page) == made

    start_new_game(page, size=3)
    play_until(page, lambda: game_over(page))
    assert game_over(page)
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    bp.screenshot("game-over-phone")
    bp.assert_clean()


def test_opening_play_after_a_game_ended_shows_that_game_until_a_new_one_is_asked_for(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.models import Game

    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    start_new_game(page, size=3)
    play_until(page, lambda: game_over(page))
    assert game_over(page)
    page.wait_for_function("() => /\\d/.test(document.querySelector('#best-score').textContent)")
    finished = recorded_game(size=3)
    score = shown_int(page, "#final-score")
    games_before = Game.objects.count()

    # Back to Play by the menu, by a reload, and from a browser that kept nothing locally.
    for arrive in (
        lambda: page.click(".site-nav >> text=Play"),
        page.reload,
        lambda: (page.evaluate("() => localStorage.clear()"), page.reload()),
    ):
        arrive()
        page.wait_for_selector("#gameover:not([hidden])")
        page.wait_for_selector("#replaybar:not([hidden])")
        assert shown_int(page, "#final-score") == score
        assert page.is_visible("#share-button")
        assert page.locator("#board .cell.is-spanning").count() > 0
        page.wait_for_load_state("networkidle")
        assert Game.objects.count() == games_before, "opening Play started a game by itself"
        assert not Game.objects.filter(status="active").exists()

    # Only the player's own request starts the next game.
    page.click("#play-again")
    page.wait_for_function(
        "() => document.querySelector('#gameover').hidden"
        " && document.querySelector('#board').dataset.mode === 'play'"
    )
    assert Game.objects.count() == games_before + 1
    assert Game.objects.exclude(pk=finished.pk).filter(status="active").count() == 1
    bp.assert_clean()


def test_the_game_over_board_says_when_the_outlined_group_is_in_pieces(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    start_new_game(page, size=3)
    play_until(page, lambda: game_over(page))
    page.wait_for_selector("#replaybar:not([hidden])")
    # The page's own count of the pieces, on boards made for it: 2 pieces, and 1.
    said = page.evaluate(
        """async () => {
          const common = await import('/static/games/js/play-common.js');
          const split = [7, 0, 7, 7, 0, 7, 0, 0, 7];
          return [common.groupPieces(split, 7), common.spanningLegend(split, 7),
                  common.groupPieces([7, 7, 0, 0], 7), common.spanningLegend([7, 7, 0, 0], 7)];
        }"""
    )
    assert said[0] == 2
    assert "in 2 pieces, are one group" in said[1]
    assert "stays joined after the numbers between its parts are cleared" in said[1]
    assert said[2:] == [1, ""]
    # The real board: the caption is shown exactly when the outline is in pieces.
    spanning = page.eval_on_selector_all(
        "#board .cell.is-spanning",
        "cells => cells.map(c => [Number(c.dataset.row), Number(c.dataset.col)])",
    )
    cells = {(r, c) for r, c in spanning}
    pieces, seen = 0, set()
    for start in cells:
        if start in seen:
            continue
        pieces += 1
        stack = [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in cells and near not in seen:
                    seen.add(near)
                    stack.append(near)
    assert pieces >= 1
    legend = page.locator("#board-legend")
    if pieces > 1:
        assert legend.is_visible()
        assert f"in {pieces} pieces" in text(page, "#board-legend")
    else:
        assert legend.is_hidden()
    # Shown as the shared page and the play page show it (the caption under the board).
    page.evaluate(
        """async () => {
          const common = await import('/static/games/js/play-common.js');
          const legend = document.getElementById('board-legend');
          legend.textContent = common.spanningLegend([7, 0, 7, 7, 0, 7, 0, 0, 7], 7);
          legend.hidden = false;
        }"""
    )
    board = page.locator("#board-frame").bounding_box()
    caption = page.locator("#board-legend").bounding_box()
    assert board is not None
    assert caption is not None
    assert board["y"] + board["height"] <= caption["y"] + 1
    bp.screenshot("game-over-legend-desktop")
    page.set_viewport_size(PHONE)
    bp.screenshot("game-over-legend-phone")
    bp.assert_clean()
