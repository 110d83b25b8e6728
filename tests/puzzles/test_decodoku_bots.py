"""The decoder bots on Decodoku puzzles, and ``manage.py decodoku_puzzle bots``."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.engines.decodoku import MODULUS, Board, check, geometry, solve
from puzzles.engines.decodoku.bots import BOTS, corner_sink_decoder, exact
from puzzles.engines.decodoku.generate import generate
from puzzles.models import DecodokuBotAnswer
from puzzles.services import attempt_finish, attempt_start
from tests.factories import PlayerFactory


@st.composite
def boards(draw: st.DrawFn) -> Board:
    rows = draw(st.integers(3, 6))
    cols = draw(st.integers(3, 6))
    geo = geometry(rows, cols)
    values = [draw(st.integers(0, MODULUS - 1)) for _ in range(geo.cells)]
    values[0] = values[-1] = 0
    return Board(geo, tuple(values))


@settings(max_examples=80, deadline=None)
@given(boards())
def test_the_clustering_decoder_always_explains_the_board_with_no_fewer_links(board: Board):
    answer = corner_sink_decoder(board)
    verdict = check(board, answer.links)
    assert verdict.valid
    assert answer.corner in verdict.answers
    assert len(answer.links) >= solve(board).links


def test_the_clustering_decoder_pairs_two_complements_and_leaves_the_corners_alone() -> None:
    geo = geometry(4, 4)
    values = [0] * 16
    values[geo.cell(1, 1)], values[geo.cell(1, 2)] = 3, 7
    answer = corner_sink_decoder(Board(geo, tuple(values)))
    assert answer.links == {geo.link(geo.cell(1, 1), geo.cell(1, 2))}
    assert answer.corner == 0


def test_the_clustering_decoder_joins_three_numbers_no_pairing_could() -> None:
    # 3 + 3 + 4: no two of them add up to 10, which is why matching is not used.
    geo = geometry(5, 5)
    values = [0] * 25
    for (r, c), v in (((2, 1), 3), ((2, 2), 3), ((2, 3), 4)):
        values[geo.cell(r, c)] = v
    answer = corner_sink_decoder(Board(geo, tuple(values)))
    assert len(answer.links) == 2
    groups = [g for g in check(Board(geo, tuple(values)), answer.links).groups if len(g.cells) > 1]
    assert [g.remainder for g in groups] == [0]


def test_the_exact_bot_is_the_solver_and_the_clustering_bot_finds_true_corners() -> None:
    made = [generate(seed=seed, rate=0.1) for seed in range(20)]
    right = 0
    for puzzle in made:
        best = solve(puzzle.board)
        answer = exact(puzzle.board)
        assert len(answer.links) == best.links
        assert answer.corner == best.corner
        assert answer.ties == best.ties
        right += corner_sink_decoder(puzzle.board).corner == puzzle.corners[0]
    # At a low noise rate the clusters are small: most answers are the true corner.
    assert right > len(made) // 2


@pytest.mark.django_db
def test_the_bots_command_decodes_what_the_task_missed() -> None:
    player = PlayerFactory.create()
    attempt = attempt_start(player=player, kind="decodoku", number=3)
    attempt_finish(attempt_id=attempt.pk, player=player)
    # Without a transaction the commit hook never runs, as when the broker was down.
    assert not DecodokuBotAnswer.objects.exists()
    out = StringIO()
    call_command("decodoku_puzzle", "bots", stdout=out)
    assert json.loads(out.getvalue()) == {"puzzles": 1, "answers": len(BOTS)}
    assert DecodokuBotAnswer.objects.filter(puzzle=attempt.puzzle).count() == len(BOTS)
    again = StringIO()
    call_command("decodoku_puzzle", "bots", stdout=again)
    assert json.loads(again.getvalue()) == {"puzzles": 0, "answers": 0}


@pytest.mark.django_db
def test_the_bots_command_with_all_decodes_puzzles_nobody_finished() -> None:
    player = PlayerFactory.create()
    attempt = attempt_start(player=player, kind="decodoku", number=4)  # still open
    out = StringIO()
    call_command("decodoku_puzzle", "bots", stdout=out)
    assert json.loads(out.getvalue()) == {"puzzles": 0, "answers": 0}
    call_command("decodoku_puzzle", "bots", "--all", stdout=out)
    assert DecodokuBotAnswer.objects.filter(puzzle=attempt.puzzle).count() == len(BOTS)
