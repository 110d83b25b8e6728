"""Storing analyses: once per game, from the hook, the task and the periodic sweep."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from kombu.exceptions import OperationalError as BrokerError

from games.engine import RuleSet
from games.models import Game
from games.services import game_abandon
from games.services.legacy import legacy_import
from games.verification import game_verify
from results import tasks
from results.analysis import ANALYSIS_VERSION, REFERENCE_BOTS
from results.models import GameAnalysis, MoveAnalysis, MoveBotAgreement, RoundAnalysis
from results.selectors import games_needing_analysis
from results.services import (
    analysis_enqueue_pending,
    bot_play_game,
    bot_player,
    game_analyse,
)
from tests.factories import GameFactory, PlayerFactory, play
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db



def _counts(game: Game) -> tuple[int, int, int, int]:
    return (
        GameAnalysis.objects.filter(game=game).count(),
        MoveAnalysis.objects.filter(game=game).count(),
        RoundAnalysis.objects.filter(game=game).count(),
        MoveBotAgreement.objects.filter(move__game=game).count(),
    )


def test_it_stores_one_analysis_of_a_lost_game():
    game = play(GameFactory())
    analysis = game_analyse(game_id=game.pk)
    assert analysis is not None
    assert analysis.analysis_version == ANALYSIS_VERSION
    assert analysis.lost
    assert analysis.coverage == "full"
    assert analysis.survived_rounds == game.rounds
    assert analysis.survived_moves == game.moves_count
    assert analysis.score == game.score
    assert _counts(game) == (1, game.moves_count, game.rounds,
                             game.moves_count * len(REFERENCE_BOTS))
    assert analysis.noise_errors == sum(
        RoundAnalysis.objects.filter(game=game).values_list("errors", flat=True)
    )


def test_analysing_again_changes_nothing_and_forcing_replaces_the_rows():
    game = play(GameFactory())
    first = game_analyse(game_id=game.pk)
    counts = _counts(game)
    again = game_analyse(game_id=game.pk)
    assert again.computed_at == first.computed_at
    forced = game_analyse(game_id=game.pk, force=True)
    assert forced.computed_at > first.computed_at
    assert _counts(game) == counts


def test_active_and_unknown_games_are_not_analysed():
    game = GameFactory()
    assert game_analyse(game_id=game.pk) is None
    assert game_analyse(game_id="00000000-0000-0000-0000-000000000000") is None
    assert _counts(game) == (0, 0, 0, 0)


def test_an_abandoned_game_is_censored_at_the_round_it_reached():
    game = play(GameFactory(), moves=7)
    game = game_abandon(game_id=game.pk, player=game.player)
    analysis = game_analyse(game_id=game.pk)
    assert not analysis.lost
    assert analysis.survived_rounds == game.rounds == 2
    assert analysis.survived_moves == 7


def test_the_task_run_twice_leaves_exactly_one_analysis():
    game = play(GameFactory())
    assert tasks.analyse_game.apply(args=[str(game.pk)]).get() is True
    counts = _counts(game)
    assert tasks.analyse_game.apply(args=[str(game.pk)]).get() is True
    assert _counts(game) == counts
    assert counts[0] == 1


def test_the_task_retries_when_the_database_is_briefly_away(monkeypatch):
    from django.db import OperationalError

    game = play(GameFactory())
    calls = []
    real = game_analyse

    def flaky(*, game_id, force=False):
        calls.append(game_id)
        if len(calls) == 1:
            raise OperationalError("connection lost")
        return real(game_id=game_id, force=force)

    monkeypatch.setattr("results.services.game_analyse", flaky)
    # throw=False: let the eager call follow the retry instead of raising it.
    result = tasks.analyse_game.apply(args=[str(game.pk)], throw=False)
    assert result.get() is True
    assert len(calls) == 2
    assert _counts(game)[0] == 1


def test_the_hook_queues_the_analysis_once_the_game_ends(django_capture_on_commit_callbacks):
    game = play(GameFactory(), moves=3)
    with django_capture_on_commit_callbacks(execute=True):
        game = play(game)
    assert game.status == Game.Status.LOST
    assert _counts(game)[0] == 1


def test_a_broker_that_is_down_loses_no_game(monkeypatch, caplog,
                                              django_capture_on_commit_callbacks):
    def unreachable(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.analyse_game, "apply_async", unreachable)
    game = play(GameFactory(), moves=2)
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        game = game_abandon(game_id=game.pk, player=game.player)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED
    assert "periodic sweep" in caplog.text
    assert list(games_needing_analysis()) == [game]
    monkeypatch.undo()
    # Fresh games are left to their own task for a while; after that the sweep queues them.
    assert analysis_enqueue_pending() == 0
    assert analysis_enqueue_pending(grace=timedelta(0)) == 1
    assert _counts(game)[0] == 1
    assert list(games_needing_analysis()) == []
    assert tasks.analyse_pending.apply(kwargs={"grace_seconds": 0}).get() == 0


def test_the_periodic_sweep_redoes_analyses_of_an_older_version():
    game = play(GameFactory())
    game_analyse(game_id=game.pk)
    GameAnalysis.objects.filter(game=game).update(analysis_version=ANALYSIS_VERSION - 1)
    assert list(games_needing_analysis()) == [game]
    assert analysis_enqueue_pending(grace=timedelta(0)) == 1
    assert GameAnalysis.objects.get(game=game).analysis_version == ANALYSIS_VERSION
    assert _counts(game)[0] == 1


def test_bots_record_games_like_players_do():
    rules = RuleSet(size=5)
    game = bot_play_game(bot_name="greedy", rules=rules, seed=77)
    assert game.source == Game.Source.BOT
    assert (game.bot_name, game.bot_version) == ("greedy", "1")
    assert game.status == Game.Status.LOST
    assert game_verify(game=game).ok
    assert game.player == bot_player(bot_name="greedy")
    again = bot_play_game(bot_name="greedy", rules=rules, seed=77)
    assert (again.score, again.moves_count) == (game.score, game.moves_count)
    analysis = game_analyse(game_id=game.pk)
    # The recorded bot is seeded with the game's seed, the reference bot with 0:
    # they may break ties differently, but they agree on most moves.
    agree = MoveBotAgreement.objects.filter(move__game=game, bot_name="greedy", top3=True)
    assert agree.count() >= 0.8 * analysis.survived_moves


def test_a_bot_game_stopped_at_its_move_cap_is_abandoned():
    game = bot_play_game(bot_name="clustering", rules=RuleSet(size=9, noise_budget=3.0), seed=1,
                         max_moves=12)
    assert game.status == Game.Status.ABANDONED
    assert game.moves_count == 12
    assert game_verify(game=game).ok


def test_an_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        bot_player(bot_name="nobody")


def test_an_uploaded_z10_save_is_analysed_from_its_boards():
    player = PlayerFactory()
    game = legacy_import(player=player, filename="Z10_normal_475.csv",
                         data=(SAVES / "Z10_normal_475.csv").read_bytes()).game
    analysis = game_analyse(game_id=game.pk)
    assert analysis.coverage == "boards"
    assert analysis.noise_errors is None
    assert analysis.effective_error_rate is None
    assert "noise is not recorded" in analysis.note
    assert analysis.survived_rounds == game.rounds
    assert analysis.score == 475
    rounds = RoundAnalysis.objects.filter(game=game)
    assert rounds.count() >= 475 // 5
    assert not rounds.filter(errors__isnull=False).exists()
    moves = MoveAnalysis.objects.filter(game=game)
    assert moves.count() > 400
    assert not moves.filter(move_class="unclassified").exists()
    assert moves.filter(move_class="annihilation").exists()


def test_a_phi_lambda_save_is_analysed_as_far_as_it_shows():
    player = PlayerFactory()
    game = legacy_import(player=player, filename="PL_normal_205.csv",
                         data=(SAVES / "PL_normal_205.csv").read_bytes()).game
    analysis = game_analyse(game_id=game.pk)
    assert analysis.coverage == "partial"
    assert "Phi" in analysis.note
    classes = set(MoveAnalysis.objects.filter(game=game).values_list("move_class", flat=True))
    assert "unclassified" in classes
    assert classes - {"unclassified"}
    assert MoveBotAgreement.objects.filter(move__game=game).exists()
