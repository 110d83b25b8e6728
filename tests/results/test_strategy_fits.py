"""People's moves of research data, fitted by the strategy model and stored as versioned fits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine import Game as EngineGame
from games.engine import game_from_state
from games.engine.bots import get_bot
from games.models import Game
from games.services import game_move
from games.services.legacy import legacy_import
from results.models import StrategyFit
from results.selectors import strategy_moves
from tests.factories import GameFactory, PlayerFactory, platform_bot_player
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db


def play_randomly(game: Game, moves: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Play ``moves`` legal moves drawn with ``seed`` through the play service."""
    rng = random.Random(seed)
    made = []
    for _ in range(moves):
        if game.status != Game.Status.ACTIVE:
            break
        engine = game_from_state(game.state, record=False)
        move = rng.choice(list(engine.legal_moves()))
        game = game_move(game_id=game.pk, player=game.player, step=game.moves_count,
                         from_row=move[0], from_col=move[1], to_row=move[2], to_col=move[3]).game
        made.append(move)
    return made


def people(count: int, moves: int = 12) -> None:
    for n in range(count):
        play_randomly(GameFactory.create(size=5, noise_budget=3.0, seed=300 + n), moves, seed=n)


def test_a_move_played_here_is_the_one_chosen_among_the_legal_moves_of_its_board() -> None:
    game = GameFactory.create(size=5, noise_budget=3.0, seed=11)
    made = play_randomly(game, 8, seed=1)
    found = strategy_moves()
    assert found.games == 1
    assert len(found.boards) == len(made)
    assert set(found.units) == {f"player:{game.player_id}"}
    for board, move in zip(found.boards, made, strict=True):
        assert [board.moves[k] for k in board.chosen] == [move]
        assert set(board.bot_scores) == {"random", "greedy", "clustering", "player"}
        assert all(len(scores) == len(board.moves) for scores in board.bot_scores.values())


def test_bot_practice_and_unconsented_games_give_no_moves() -> None:
    play_randomly(GameFactory.create(player=platform_bot_player(), source=Game.Source.BOT), 3,
                  seed=0)
    play_randomly(GameFactory.create(mode=Game.Mode.PRACTICE), 3, seed=0)
    play_randomly(GameFactory.create(player=PlayerFactory.create(consent_version=None)), 3, seed=0)
    assert strategy_moves().boards == []


def test_an_imported_annihilation_enters_either_way_round() -> None:
    uploaded = legacy_import(player=PlayerFactory.create(), filename="Z10_normal_475.csv",
                             data=(SAVES / "Z10_normal_475.csv").read_bytes()).game
    found = strategy_moves(cohort="imported")
    assert found.games == 1
    assert set(found.units) == {f"file:{uploaded.pk}"}
    twofold = [board for board in found.boards if len(board.chosen) == 2]
    assert twofold  # without them almost every annihilation would be left out
    assert all(len(board.chosen) in (1, 2) for board in found.boards)
    for board in twofold:  # the two explanations: each number moved onto the other
        first, second = (board.moves[k] for k in board.chosen)
        assert first[:2] == second[2:]
        assert first[2:] == second[:2]
    moves = uploaded.events.filter(kind="move")
    certain = moves.filter(move_certain=True).count()
    # More than the certain moves (the annihilations), fewer than all (the hidden ones).
    assert certain < len(found.boards) < moves.count()


def test_a_fit_is_stored_as_a_new_row_and_the_same_seed_gives_the_same_json(
    tmp_path: Path,
) -> None:
    people(4)
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    call_command("strategy", "fit", "--folds", "3", "--seed", "5", "--json", str(first))
    call_command("strategy", "fit", "--folds", "3", "--seed", "5", "--json", str(second))
    one, two = json.loads(first.read_text()), json.loads(second.read_text())
    assert one.pop("fit_id") != two.pop("fit_id")
    assert one == two
    assert StrategyFit.objects.count() == 2
    assert one["n_players"] == 4
    assert one["n_games"] == 4
    assert [row["name"] for row in one["features"]][:2] == ["group_size", "sure_annihilation"]
    assert set(one["heldout"]["bots"]) == {"random", "greedy", "clustering", "player"}
    assert 0 <= one["heldout"]["model"]["top1"] <= 1
    stored = StrategyFit.objects.get(pk=json.loads(first.read_text())["fit_id"])
    assert stored.data_cutoff > 0
    assert stored.model_version == 1
    assert stored.feature_set_version == 1


def test_show_prints_a_stored_fit_and_refuses_an_unknown_one(capsys: pytest.CaptureFixture) -> None:
    people(3)
    call_command("strategy", "fit", "--folds", "2")
    fit = StrategyFit.objects.get()
    capsys.readouterr()
    call_command("strategy", "show", str(fit.pk))
    assert json.loads(capsys.readouterr().out)["fit_id"] == fit.pk
    with pytest.raises(CommandError, match="no strategy fit"):
        call_command("strategy", "show", str(fit.pk + 1))


def test_too_few_players_for_the_folds_is_a_clear_error_and_stores_nothing() -> None:
    people(2)
    with pytest.raises(CommandError, match="cannot fill 5 folds"):
        call_command("strategy", "fit")
    with pytest.raises(CommandError, match="no moves of people"):
        call_command("strategy", "fit", "--cohort", "phi_lambda")
    assert not StrategyFit.objects.exists()


def test_the_player_bot_plays_a_move_it_scores_highest() -> None:
    game = GameFactory.create(size=5, noise_budget=3.0, seed=21)
    engine = game_from_state(game.state, record=False)
    assert isinstance(engine, EngineGame)
    play_randomly(game, 1, seed=2)
    board = strategy_moves().boards[0]
    scores = board.bot_scores["player"]
    played = get_bot("player", seed=0).choose(engine)
    assert scores[board.moves.index(played)] == max(scores)
