"""Planar boards in the browser: a person cleans a board and sees its logical outcome."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.axe import assert_no_serious_violations
from tests.browser.conftest import DESKTOP, PHONE, BrowserPage, page_width
from tests.browser.helpers import cell, centre, moves_made, text, wait_until_playable
from tests.browser.test_play import recorded_game, start_from_home

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

    from games.engine.rules import RuleSet
    from games.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Move = tuple[int, int, int, int]
Coordinates = tuple[int | None, int | None]
# The chain picture's lines as [edge, value] pairs.
DRAWN_EDGES = "lines => lines.map(l => [l.dataset.edge, Number(l.dataset.value)])"


def choose_planar(page: Page, *, size: int, modulus: int, rate: str) -> None:
    page.check('input[name="family"][value="planar"]')
    page.select_option("#planar-size-select", str(size))
    page.select_option("#error-rate-select", rate)
    page.check(f'input[name="modulus"][value="{modulus}"]')


def wait_for_planar_board(page: Page, size: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#board .cell').length === n * n"
        " && document.querySelector('#board-frame').classList.contains('is-planar')"
        " && (document.querySelector('#board').dataset.mode === 'play'"
        "     || !document.querySelector('#gameover').hidden)",
        arg=size,
    )


def planned_moves(game: Game) -> list[Move]:
    """The clustering decoder's moves for the game's current board (as the server holds it)."""
    from tests.factories import decoder_moves

    game.refresh_from_db()
    return [tuple(move) for move in decoder_moves(game, "clustering")]  # type: ignore[misc]


def exit_of(page: Page, side: str, row: int = 0) -> str:
    if side in ("left", "right"):
        return f'.planar-side-{side} .planar-exit[data-row="{row}"]'
    return f".planar-side-{side} .planar-exit"


def play_move(page: Page, move: Move, gesture: str) -> None:
    """One move as a person makes it: drag, tap then tap, or the keyboard."""
    from_row, from_col, to_row, to_col = move
    size = int(page.eval_on_selector("#board", "b => b.getAttribute('aria-colcount')"))
    outside = not 0 <= to_col < size
    before = moves_made(page)
    if gesture == "drag":
        x0, y0 = centre(page, from_row, from_col)
        pitch = (centre(page, 0, 1)[0] - centre(page, 0, 0)[0]) * (to_col - from_col)
        pitch_y = (centre(page, 1, 0)[1] - centre(page, 0, 0)[1]) * (to_row - from_row)
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + pitch / 2, y0 + pitch_y / 2, steps=4)
        page.mouse.move(x0 + pitch, y0 + pitch_y, steps=4)
        page.mouse.up()
    elif gesture == "tap":
        cell(page, from_row, from_col).click()
        if outside:
            page.click(exit_of(page, "left" if to_col < 0 else "right", from_row))
        else:
            cell(page, to_row, to_col).click()
    else:
        cell(page, from_row, from_col).focus()
        key = {(-1, 0): "ArrowUp", (1, 0): "ArrowDown", (0, -1): "ArrowLeft", (0, 1): "ArrowRight"}
        page.keyboard.press(f"Shift+{key[(to_row - from_row, to_col - from_col)]}")
    page.wait_for_function(
        "n => !document.querySelector('#gameover').hidden"
        " || (Number(document.querySelector('#moves-count').dataset.moves) > n"
        "     && document.querySelector('#board').dataset.mode === 'play')",
        arg=before,
    )


def play_to_the_end(page: Page, game: Game) -> int:
    """Play the decoder's plan with every gesture in turn; returns how many moves left the board."""
    gestures = ("drag", "tap", "keys")
    off = 0
    for number, move in enumerate(planned_moves(game)):
        off += not 0 <= move[3] < game.size
        play_move(page, move, gestures[number % len(gestures)])
    page.wait_for_selector("#gameover:not([hidden])")
    return off


def expected_chain(game: Game, layer: str) -> dict[str, int]:
    """The recorded errors and moves summed per edge mod d, rightwards or downwards."""
    d = int(game.modulus or 0)
    edges: dict[str, int] = {}

    def add(source: Coordinates, target: Coordinates, moved: int | None) -> None:
        (r1, c1), (r2, c2) = [(int(r or 0), int(c or 0)) for r, c in (source, target)]
        amount = int(moved or 0)
        if r1 == r2:
            key, signed = f"h,{r1},{max(c1, c2)}", amount if c2 > c1 else -amount
        else:
            key, signed = f"v,{min(r1, r2)},{c1}", amount if r2 > r1 else -amount
        edges[key] = (edges.get(key, 0) + signed) % d

    for e in game.events.order_by("seq").values():
        if e["kind"] == "noise" and layer != "moves":
            add((e["row2"], e["col2"]), (e["row1"], e["col1"]), e["a"])
        elif e["kind"] == "move" and layer != "noise":
            add((e["from_row"], e["from_col"]), (e["to_row"], e["to_col"]), e["value"])
    return {key: value for key, value in edges.items() if value}


def assert_outcome_shown(bp: BrowserPage, game: Game) -> None:
    page = bp.page
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.family == "planar"
    assert game.logical_charge is not None
    title = text(page, "#gameover-title")
    assert ("a logical error" in title) == bool(game.logical_failure), title
    assert ("no logical error" in title) == (not game.logical_failure), title
    reason = text(page, "#gameover-reason")
    assert f"mod {game.modulus}" in reason
    if game.logical_failure:
        assert f"charge of {game.logical_charge}" in reason
    # The class odds of the first board, in words, where the server computed them.
    if game.class_odds is None:
        assert page.locator("#gameover-odds").is_hidden()
    else:
        assert f"{game.class_odds:.2f}." in text(page, "#gameover-odds")
    # The chain picture: the page's own sum of the errors and moves gives the server's charge.
    frame = page.locator("#board-frame")
    assert frame.get_attribute("data-charge-shown") == str(game.logical_charge)
    assert frame.get_attribute("data-chain-step") == str(game.moves_count)
    drawn = page.eval_on_selector_all(
        ".chain-picture line.chain-edge",
        "ls => ls.map(l => [l.dataset.edge, Number(l.dataset.value)])",
    )
    expected = expected_chain(game, "net")
    assert dict(drawn) == expected
    assert len(drawn) == len(expected)
    left_side = sum(v for k, v in expected.items() if k.startswith("h,") and k.endswith(",0"))
    assert left_side % int(game.modulus or 0) == game.logical_charge
    # The other layers: the moves alone, and the noise alone.
    for layer in ("moves", "noise"):
        page.check(f'input[name="chain_layer"][value="{layer}"]')
        drawn = page.eval_on_selector_all(".chain-picture line.chain-edge", DRAWN_EDGES)
        assert dict(drawn) == expected_chain(game, layer), layer
    page.check('input[name="chain_layer"][value="net"]')
    assert ("is-logical-error" in (frame.get_attribute("class") or "")) == game.logical_failure
    legend = text(page, "#board-legend")
    assert "net chain" in legend
    assert f"mod {game.modulus}" in legend
    assert text(page, "#final-score") == str(game.moves_count)
    assert page.locator("#best-score-item").is_hidden()


def test_a_person_cleans_a_planar_board_and_sees_its_logical_outcome(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    # A 5 x 5 board at d = 10; a board drawn clean at once is finished: start again.
    for _attempt in range(6):
        choose_planar(page, size=5, modulus=10, rate="0.12")
        page.click("#new-game")
        if page.is_visible("#new-game-help"):
            page.click("#new-game")
        wait_for_planar_board(page, 5)
        game = recorded_game(family="planar")
        if game.status == "active":
            break
    assert game.status == "active", "six boards in a row were drawn clean"
    assert (game.size, game.modulus, game.error_rate, game.source) == (5, 10, 0.12, "web")
    assert "Planar 5 \u00d7 5" in text(page, "#game-tags")
    assert page.locator(".planar-side-left .planar-exit.is-open").count() == 5
    assert page.locator(".planar-side-top .planar-exit.is-closed").count() == 1
    bp.screenshot("planar-desktop-new-board")
    assert_no_serious_violations(page, "a planar board being played")

    off = play_to_the_end(page, game)
    assert_outcome_shown(bp, game)
    game.refresh_from_db()
    moves = list(game.events.filter(kind="move").order_by("index"))
    assert sum(not 0 <= int(m.to_col or 0) < game.size for m in moves) == off
    assert len(moves) == game.moves_count
    bp.screenshot("planar-desktop-clean")

    # Stepping back through the replay redraws the chain of the moves so far.
    page.click("#replay-first")
    assert page.get_attribute("#board-frame", "data-chain-step") == "0"
    assert "is-chain-partial" in (page.get_attribute("#board-frame", "class") or "")
    page.click("#replay-last")
    assert page.get_attribute("#board-frame", "data-charge-shown") == str(game.logical_charge)
    bp.assert_clean()


def _seed_for_the_picture(rules: RuleSet) -> int:
    """The first seed whose board has a number in the top row and whose decoder's plan
    leaves the board and ends in a logical error (a chain from side to side to draw)."""
    from games.engine.planar import PlanarGame
    from games.engine.planar.decoders import get_decoder

    for seed in range(1, 500):
        engine = PlanarGame(rules, seed, record=False)
        values = list(engine.values)
        plan = get_decoder("clustering").plan(values, size=rules.size, modulus=engine.modulus)
        if not any(values[: rules.size]) or all(0 <= m[3] < rules.size for m in plan):
            continue
        for move in plan:
            engine.move(*move)
        if engine.failed:
            return seed
    raise AssertionError("no such seed below 500")


@pytest.mark.parametrize(
    ("viewport", "modulus"),
    [pytest.param(PHONE, 2, id="phone-d2"), pytest.param(DESKTOP, 10, id="desktop-d10")],
)
def test_the_closed_side_refuses_and_a_logical_error_is_drawn(
    open_page: Callable[..., BrowserPage], viewport: ViewportSize, modulus: int
) -> None:
    from games.engine.rules import Family, RuleSet
    from games.models import Player
    from games.services import game_start

    phone = viewport == PHONE
    bp = open_page(viewport, touch=phone)
    page = bp.page
    start_from_home(bp)
    player = Player.objects.get()
    rules = RuleSet(size=5, family=Family.PLANAR, modulus=modulus, error_rate=0.12)
    game = game_start(player=player, rules=rules, seed=_seed_for_the_picture(rules), source="web")
    page.goto(bp.url(f"/play/?game={game.pk}"))
    wait_for_planar_board(page, 5)
    wait_until_playable(page)
    assert page_width(bp) <= viewport["width"], "the planar board scrolls sideways"

    def press(selector: str) -> None:
        page.tap(selector) if phone else page.click(selector)

    def press_cell(row: int, col: int) -> None:
        press(f'#board .cell[data-row="{row}"][data-col="{col}"]')

    # A number of the top row, moved up: the top is closed, and the server says so.
    symbols = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent.trim())")
    col = next(c for c in range(5) if symbols[c])
    press_cell(0, col)
    press(exit_of(page, "top"))
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('top and bottom are closed')"
    )
    assert moves_made(page) == 0
    game.refresh_from_db()
    assert game.moves_count == 0
    assert game.status == "active"
    name = "phone" if phone else "desktop"
    bp.screenshot(f"planar-{name}-closed-side")

    # Then the board is cleaned, tap by tap, through the open sides where the plan says so.
    for move in planned_moves(game):
        before = moves_made(page)
        press_cell(move[0], move[1])
        if 0 <= move[3] < 5:
            press_cell(move[2], move[3])
        else:
            press(exit_of(page, "left" if move[3] < 0 else "right", move[0]))
        page.wait_for_function(
            "n => !document.querySelector('#gameover').hidden"
            " || Number(document.querySelector('#moves-count').dataset.moves) > n",
            arg=before,
        )
    page.wait_for_selector("#gameover:not([hidden])")
    assert_outcome_shown(bp, game)
    game.refresh_from_db()
    assert game.logical_failure
    assert expected_chain(game, "net")
    assert "a logical error" in text(page, "#gameover-title")
    assert page_width(bp) <= viewport["width"]
    bp.screenshot(f"planar-{name}-logical-error")
    # The closed-side refusal is the one expected 422 answer.
    assert [r for r in bp.failed_requests if "422" not in r] == []
    assert [e for e in bp.console_errors if "status of 422" not in e] == []
    assert len(bp.failed_requests) == len(bp.console_errors) == 1
    assert_no_serious_violations(page, f"a clean planar board ({name})")
    assert bp.foreign_requests == []


def test_the_largest_planar_board_of_the_page_fits_a_phone(
    open_page: Callable[..., BrowserPage],
) -> None:
    bp = open_page(PHONE, touch=True)
    page = bp.page
    start_from_home(bp)
    choose_planar(page, size=12, modulus=2, rate="0.02")
    page.click("#new-game")
    if page.is_visible("#new-game-help"):
        page.click("#new-game")
    wait_for_planar_board(page, 12)
    assert page_width(bp) <= PHONE["width"]
    # Both open sides are on screen, beside the grid.
    for side in ("left", "right"):
        box = page.locator(exit_of(page, side, 11)).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"]
    bp.screenshot("planar-phone-12")
    bp.assert_clean()


def test_todays_planar_board_opens_on_the_play_page(
    open_page: Callable[..., BrowserPage],
) -> None:
    from games.daily import DAILY_PLANAR_RULES

    bp = open_page(DESKTOP)
    page = bp.page
    start_from_home(bp)
    page.click("#daily-planar-button")
    page.wait_for_url("**/play/?game=*")
    wait_for_planar_board(page, DAILY_PLANAR_RULES.size)
    game = recorded_game(family="planar")
    assert game.daily is not None
    assert game.daily.family == "planar"
    assert "Daily planar board" in text(page, "#game-tags")
    # A second visit goes back to the same game (the page is ready before the click: a
    # click before its script runs raced the page's own resume on a busy machine).
    page.goto(bp.url("/play/"))
    wait_for_planar_board(page, DAILY_PLANAR_RULES.size)
    page.click("#daily-planar-button")
    page.wait_for_url(f"**/play/?game={game.pk}")
    wait_for_planar_board(page, DAILY_PLANAR_RULES.size)
    assert recorded_game(family="planar").pk == game.pk
    bp.assert_clean()
