"""The player's own pages (My games): the recovery code, puzzles and uploads listed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.sessions import PLAYER_SESSION_KEY
from games.models import Player
from games.selectors import player_by_recovery_code

pytestmark = pytest.mark.django_db


def _browser_of(player: Player) -> Client:
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    return browser


def _shown_code(html: str) -> str:
    found = re.search(r'id="recovery-code">([^<]*)</output>', html)
    return found.group(1) if found else ""


def test_a_recovery_code_stays_shown_and_valid_across_reloads(player):
    browser = _browser_of(player)
    made = browser.post("/me/recovery-code/")
    # Post, then redirect: reloading the page that shows the code asks for nothing new.
    assert made.status_code == 302
    assert made["Location"].startswith("/me/")
    first = _shown_code(browser.get("/me/").content.decode())
    again = _shown_code(browser.get("/me/").content.decode())
    assert first
    assert again == first
    assert player_by_recovery_code(code=first) == player
    assert 'id="recovery-copy"' in browser.get("/me/").content.decode()


def test_only_an_explicit_new_code_replaces_the_shown_one(player):
    browser = _browser_of(player)
    browser.post("/me/recovery-code/")
    old = _shown_code(browser.get("/me/").content.decode())
    browser.post("/me/recovery-code/")
    new = _shown_code(browser.get("/me/").content.decode())
    assert new
    assert new != old
    assert player_by_recovery_code(code=old) is None
    assert player_by_recovery_code(code=new) == player


def test_a_code_made_in_another_browser_is_not_shown_and_a_stale_one_disappears(player):
    here, there = _browser_of(player), _browser_of(player)
    here.post("/me/recovery-code/")
    assert _shown_code(here.get("/me/").content.decode())
    there.post("/me/recovery-code/")
    # The code kept here is no longer the player's: it is not shown as if it worked.
    assert _shown_code(here.get("/me/").content.decode()) == ""
    assert "Make a new recovery code" in here.get("/me/").content.decode()


def test_a_recovery_code_needs_a_player():
    assert Client().post("/me/recovery-code/").status_code == 400


def test_my_games_lists_the_players_puzzle_attempts_and_no_one_elses(player):
    from puzzles.services import attempt_finish, attempt_start
    from tests.factories import PlayerFactory

    kenken = attempt_start(player=player, kind="kenken", size=4, seed=11)
    futoshiki = attempt_start(player=player, kind="futoshiki", size=4, seed=12)
    attempt_finish(attempt_id=futoshiki.pk, player=player)
    twomino = attempt_start(player=player, kind="2mino", seed=13)
    other = attempt_start(player=PlayerFactory.create(), kind="kenken", size=4, seed=14)
    html = _browser_of(player).get("/me/").content.decode()
    section = html[html.index('id="puzzles-section"') :]
    section = section[: section.index("</section>")]
    for name in ("KenKen", "Futoshiki", "2mino"):
        assert f'data-label="Puzzle">{name}<' in section
    assert f"/puzzles/#{kenken.pk}" in section
    assert ">Resume<" in section
    assert f"/puzzles/#{futoshiki.pk}" in section
    assert "Abandoned" in section
    assert f"/puzzles/2mino/#{twomino.pk}" in section
    assert str(other.pk) not in html


def test_my_games_says_when_there_is_no_puzzle_yet(player):
    html = _browser_of(player).get("/me/").content.decode()
    assert "No puzzle attempts yet." in html


def test_my_games_opens_a_decodoku_attempt_on_its_own_page(player):
    # Before: every attempt but 2mino linked to the KenKen and Futoshiki page.
    from puzzles.services import attempt_start

    published = attempt_start(player=player, kind="decodoku", number=1)
    generated = attempt_start(player=player, kind="decodoku", seed=5)
    html = _browser_of(player).get("/me/").content.decode()
    section = html[html.index('id="puzzles-section"') :]
    section = section[: section.index("</section>")]
    assert f"/puzzles/decodoku/1/#{published.pk}" in section
    assert f"/puzzles/decodoku/new/#{generated.pk}" in section
    assert f"/puzzles/#{published.pk}" not in section


def test_puzzle_bests_count_the_players_solves_and_keep_the_fastest(player):
    from datetime import timedelta

    from puzzles.engines.futoshiki import from_dict
    from puzzles.engines.grading import grade
    from puzzles.models import Attempt
    from puzzles.my_games import bests_section
    from puzzles.services import attempt_act, attempt_finish, attempt_start, own_puzzle_start
    from tests.factories import PlayerFactory

    square = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    definition = {
        "kind": "futoshiki",
        "size": 4,
        "givens": [[r, c, square[r][c]] for r in range(4) for c in range(4) if (r, c) != (3, 3)],
    }

    def solve_in(who, seconds: int) -> None:
        attempt = own_puzzle_start(player=who, definition=definition)
        attempt_act(
            attempt_id=attempt.pk,
            player=who,
            step=0,
            kind="entry",
            payload={"cell": [3, 3], "value": 1},
        )
        attempt.refresh_from_db()
        assert attempt.status == Attempt.Status.SOLVED
        assert attempt.finished_at is not None
        Attempt.objects.filter(pk=attempt.pk).update(
            started_at=attempt.finished_at - timedelta(seconds=seconds)
        )

    assert bests_section(player=player)["rows"] == []
    solve_in(player, 90)
    solve_in(player, 30)
    solve_in(PlayerFactory.create(), 5)  # another player's faster solve
    given_up = attempt_start(player=player, kind="kenken", size=4, seed=11)
    attempt_finish(attempt_id=given_up.pk, player=player)  # abandoned: not a best

    level = grade(from_dict(definition)).label
    rows = bests_section(player=player)["rows"]
    assert [row["cells"] for row in rows] == [
        ["Futoshiki", "4\u00a0\u00d7\u00a04", level.capitalize(), "2", "30 s"]
    ]


def test_my_games_shows_the_puzzle_bests_above_the_attempts_once_one_is_solved(player):
    # Before: the bests table was built but My games took one section per app.
    from puzzles.services import attempt_act, own_puzzle_start

    html = _browser_of(player).get("/me/").content.decode()
    assert 'id="puzzle-bests-section"' not in html  # nothing solved: no empty bests table
    square = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    definition = {
        "kind": "futoshiki",
        "size": 4,
        "givens": [[r, c, square[r][c]] for r in range(4) for c in range(4) if (r, c) != (3, 3)],
    }
    attempt = own_puzzle_start(player=player, definition=definition)
    attempt_act(attempt_id=attempt.pk, player=player, step=0, kind="entry",
                payload={"cell": [3, 3], "value": 1})
    html = _browser_of(player).get("/me/").content.decode()
    assert html.index('id="puzzle-bests-section"') < html.index('id="puzzles-section"')
