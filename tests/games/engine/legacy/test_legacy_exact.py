"""Saves written by this platform name their game and every move: the exact game comes back.

``game_to_save`` writes a header (engine, rules, seed) and, beside every
later step's number, the move that gave that board. ``exact_game`` replays
the seed, keeps the named move (it must give the board) and so gives back
every event of the game played, even where the boards alone cannot tell two
moves apart.
"""

from __future__ import annotations

import pytest

from games.engine.legacy import game_to_save, read_save, write_save
from games.engine.legacy.errors import LegacyFormatError
from games.engine.legacy.exact import exact_game, named_move, named_move_note
from games.engine.legacy.export import move_note
from games.engine.replay import moves_of
from games.engine.simulate import make_rules, simulate_games

# Game 19 of `simulate --seed 7`: at t = 15 an annihilation merges two groups and
# the noise round that follows merges the result into a third group at once, so
# no board shows which id survived the move.
HIDDEN = {"seed": 7, "first_index": 19}


def _hidden_game():
    (sim,) = simulate_games(games=1, rules=make_rules(), **HIDDEN)
    return sim.game


def _without_move_notes(text: str):
    save = read_save(text.encode())
    for step in save.steps:
        step.comments = [c for c in step.comments if named_move_note(c) is None]
    return save


def test_every_step_names_its_move_and_the_file_reads_back_byte_for_byte():
    game = _hidden_game()
    text = game_to_save(game)
    save = read_save(text.encode())
    assert write_save(save) == text
    assert named_move(save.steps[0]) is None
    assert [named_move(step) for step in save.steps[1:]] == moves_of(game.events)
    assert move_note((2, 3, 2, 4)) == "move: row 2 col 3 -> row 2 col 4"
    assert named_move_note("move: row 2 col 3 -> row 2 col 4") == (2, 3, 2, 4)
    assert named_move_note("move: row 2 col 3 -> row 2 col 4 or so") is None
    assert named_move_note("move: row " + "9" * 5000 + " col 3 -> row 2 col 4") is None


def test_the_named_moves_give_back_every_event_of_the_game_played():
    game = _hidden_game()
    exact = exact_game(read_save(game_to_save(game).encode()))
    assert exact is not None
    assert exact.game.events == game.events
    assert exact.moves == moves_of(game.events)
    assert exact.named == set(range(1, game.moves_made + 1))
    assert exact.ambiguous  # the boards alone would not have told these moves


def test_without_the_move_notes_the_hidden_group_id_is_a_guess():
    game = _hidden_game()
    exact = exact_game(_without_move_notes(game_to_save(game)))
    assert exact is not None
    assert not exact.named
    played = [e.to_dict() for e in game.events if e.kind != "move"]
    again = [e.to_dict() for e in exact.game.events if e.kind != "move"]
    differing = [(a, b) for a, b in zip(played, again, strict=True) if a != b]
    # The move's merge, the next noise error's group2_before and the noise merge.
    assert [a["kind"] for a, _ in differing] == ["merge", "noise", "merge"]
    assert all(a["t"] == 15 for a, _ in differing)
    # Every board is the same all the same, and every differing move is flagged.
    assert exact.game.board() == game.board()
    for index, (played_move, kept) in enumerate(
        zip(moves_of(game.events), exact.moves, strict=True), start=1
    ):
        if played_move != kept:
            assert exact.ambiguous.get(index, 1) >= 2


def test_a_named_move_that_does_not_give_the_board_is_refused():
    game = _hidden_game()
    moves = moves_of(game.events)
    exact = exact_game(read_save(game_to_save(game).encode()))
    assert exact is not None
    # A step only one move explains: naming any other move there contradicts the boards.
    step = next(k for k in range(1, len(moves) + 1) if k not in exact.ambiguous)
    wrong = next(m for m in moves if m != moves[step - 1])
    save = read_save(game_to_save(game).encode())
    save.steps[step].comments = [move_note(wrong)]
    with pytest.raises(LegacyFormatError) as caught:
        exact_game(save)
    assert caught.value.code == "replay_mismatch"
    assert caught.value.step == save.steps[step].t
    assert "names the move" in str(caught.value)
