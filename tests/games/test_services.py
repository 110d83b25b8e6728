"""Starting games, playing moves, retries, conflicts, notes and the end of a game."""

from __future__ import annotations

import pytest

from games.engine import Game as EngineGame
from games.engine import RuleSet
from games.errors import GameOver, IllegalMoveError, InvalidInput, InvalidRules, NotFound, StaleStep
from games.models import BoardSnapshot, Event, Game, Player
from games.recording import board_from_snapshot, board_from_state
from games.selectors import player_by_token
from games.services import (
    game_abandon,
    game_add_note,
    game_move,
    game_start,
    player_create,
)
from games.signals import game_finished
from games.tokens import hash_token
from tests.factories import GameFactory, PlayerFactory, next_legal_move, platform_bot_player, play

pytestmark = pytest.mark.django_db


def _seqs(game: Game) -> list[int]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))


def _move(game: Game, step: int | None = None, move=None, **kwargs):
    move = move or next_legal_move(game)
    return game_move(
        game_id=game.pk,
        player=game.player,
        step=game.moves_count if step is None else step,
        from_row=move[0],
        from_col=move[1],
        to_row=move[2],
        to_col=move[3],
        **kwargs,
    )


# -- players -----------------------------------------------------------------


def test_a_new_player_gets_a_token_that_is_stored_only_as_a_hash():
    player, token = player_create(consent_version="2026-11-v1")
    stored = Player.objects.get(pk=player.pk)
    assert stored.token_hash == hash_token(token)
    assert token not in {stored.token_hash, stored.token_prefix}
    assert token.startswith(stored.token_prefix)
    assert stored.consented_at is not None
    assert player_by_token(token=token) == player
    assert player_by_token(token=token + "x") is None


def test_a_player_without_consent_has_no_consent_time():
    player, _ = player_create(consent_version=None)
    assert player.consent_version is None
    assert player.consented_at is None
    assert not player.research_consent


def test_a_consent_version_that_is_too_long_is_refused():
    with pytest.raises(InvalidInput):
        player_create(consent_version="v" * 33)


# -- starting ----------------------------------------------------------------


def test_starting_a_game_records_the_first_noise_and_board_zero(player):
    game = game_start(player=player, rules=RuleSet(), mode="normal", source="api", seed=7)
    engine = EngineGame(RuleSet(), 7)
    assert game.seed == 7
    assert game.rules_key == RuleSet().key
    assert game.engine_version == engine.engine_version
    assert _seqs(game) == list(range(len(engine.events)))
    assert game.next_seq == len(engine.events)
    snapshot = BoardSnapshot.objects.get(game=game, step=0)
    assert board_from_snapshot(snapshot, size=7) == engine.board()
    assert board_from_state(game.state) == engine.board()
    assert game.research_consent is True
    assert game.status == Game.Status.ACTIVE
    assert game.ended_at is None


def test_the_server_draws_a_63_bit_seed(player):
    seeds = {
        game_start(player=player, rules=RuleSet(), mode="normal", source="api").seed
        for _ in range(3)
    }
    assert len(seeds) == 3
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_a_game_copies_the_players_consent(db):
    player = PlayerFactory(consent_version=None)
    assert GameFactory(player=player).research_consent is False


def test_bot_fields_are_only_for_bots(player):
    with pytest.raises(InvalidInput):
        game_start(player=player, rules=RuleSet(), source="api", bot_name="greedy")
    bot = platform_bot_player("greedy")
    game = game_start(
        player=bot, rules=RuleSet(), source="bot", bot_name="greedy", bot_version="2"
    )
    assert (game.source, game.bot_name, game.bot_version) == ("bot", "greedy", "2")


def test_only_the_platforms_bot_players_record_bot_games(player):
    with pytest.raises(InvalidInput):
        game_start(player=player, rules=RuleSet(), source="bot", bot_name="x")
    assert not Game.objects.filter(player=player).exists()


def test_an_unplayable_rule_set_is_refused(player, monkeypatch):
    monkeypatch.setattr("games.engine.game.MAX_REGENERATIONS", 0)
    with pytest.raises(InvalidRules):
        game_start(player=player, rules=RuleSet(size=3, noise_budget=20), seed=1)
    assert not Game.objects.exists()


# -- moving ------------------------------------------------------------------


def test_a_move_records_its_events_after_the_previous_ones_and_a_board(game):
    before = game.next_seq
    move = next_legal_move(game)
    result = _move(game, note="first try")
    game.refresh_from_db()
    assert not result.replayed
    assert result.step == 1 == game.moves_count
    assert [row.seq for row in result.events] == list(range(before, game.next_seq))
    assert _seqs(game) == list(range(game.next_seq))
    move_row = result.events[0]
    assert move_row.kind == "move"
    assert move_row.index == 1
    assert (move_row.from_row, move_row.from_col, move_row.to_row, move_row.to_col) == move
    assert move_row.note == "first try"
    assert move_row.server_time is not None
    engine = EngineGame(RuleSet(), game.seed)
    engine.move(*move)
    assert board_from_state(game.state) == engine.board()
    assert board_from_snapshot(result.snapshot, size=7) == engine.board()
    assert game.score == engine.t


def test_noise_follows_every_fifth_move(game):
    game = play(game, 5)
    rounds = Event.objects.filter(game=game, kind="round_start").count()
    assert game.rounds == rounds == 2 or game.status == Game.Status.LOST


def test_a_retried_move_returns_the_recorded_result_without_playing_again(game):
    move = next_legal_move(game)
    first = _move(game, move=move)
    game.refresh_from_db()
    again = _move(game, step=0, move=move)
    game.refresh_from_db()
    assert again.replayed
    assert again.step == 1
    assert [row.pk for row in again.events] == [row.pk for row in first.events]
    assert again.snapshot.pk == first.snapshot.pk
    assert game.moves_count == 1
    assert Event.objects.filter(game=game, kind="move").count() == 1


def test_an_older_retry_returns_that_moves_result(game):
    first_move = next_legal_move(game)
    first = _move(game, move=first_move)
    game = play(Game.objects.get(pk=game.pk), 2)
    again = _move(game, step=0, move=first_move)
    assert again.replayed
    assert again.step == 1
    assert [row.pk for row in again.events] == [row.pk for row in first.events]


def test_a_different_move_at_a_past_step_is_a_stale_step(game):
    move = next_legal_move(game)
    _move(game, move=move)
    game.refresh_from_db()
    other = (move[2], move[3], move[0], move[1])
    with pytest.raises(StaleStep) as caught:
        _move(game, step=0, move=other)
    assert caught.value.extra == {"current_step": 1}


def test_a_step_ahead_of_the_game_is_a_stale_step(game):
    with pytest.raises(StaleStep) as caught:
        _move(game, step=3)
    assert caught.value.extra["current_step"] == 0


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ((0, 0, -1, 0), "off_grid"),
        ((6, 6, 7, 6), "off_grid"),
        ((0, 0, 1, 1), "not_adjacent"),
    ],
)
def test_an_illegal_move_is_refused_with_the_engines_code(game, move, code):
    with pytest.raises(IllegalMoveError) as caught:
        _move(game, move=move)
    assert caught.value.code == code
    game.refresh_from_db()
    assert game.moves_count == 0


def test_moving_from_an_empty_cell_is_refused(game):
    engine = EngineGame.from_state(game.state)
    row, col = next((r, c) for r in range(7) for c in range(6) if engine.value(r, c) == 0)
    with pytest.raises(IllegalMoveError) as caught:
        _move(game, move=(row, col, row, col + 1))
    assert caught.value.code == "empty_source"


def test_someone_elses_game_is_not_found(game):
    with pytest.raises(NotFound):
        game_move(
            game_id=game.pk, player=PlayerFactory(), step=0,
            from_row=0, from_col=0, to_row=0, to_col=1,
        )


def test_a_lost_game_is_over_and_sends_game_finished(
    player, django_capture_on_commit_callbacks
):
    finished = []

    def receiver(*, game_id, **kwargs):
        finished.append(game_id)

    game = GameFactory(player=player, size=5)
    game_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = play(game)
    finally:
        game_finished.disconnect(receiver)
    assert game.status == Game.Status.LOST
    assert game.ended_at is not None
    assert finished == [game.pk]
    loss = Event.objects.filter(game=game).order_by("seq").last()
    assert loss.kind == "loss"
    assert loss.t == game.score
    with pytest.raises(GameOver):
        _move(game, move=(0, 0, 0, 1))


def test_the_losing_move_can_still_be_retried(player):
    game = play(GameFactory(player=player, size=5))
    last = Event.objects.filter(game=game, kind="move").order_by("-index").first()
    result = _move(
        game,
        step=game.moves_count - 1,
        move=(last.from_row, last.from_col, last.to_row, last.to_col),
    )
    assert result.replayed
    assert result.events[-1].kind == "loss"


# -- abandoning and notes ----------------------------------------------------


def test_abandoning_ends_the_game_once(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        game = game_abandon(game_id=game.pk, player=game.player)
    assert game.status == Game.Status.ABANDONED
    assert game.ended_at is not None
    assert len(callbacks) == 1
    assert game_abandon(game_id=game.pk, player=game.player).ended_at == game.ended_at
    with pytest.raises(GameOver):
        _move(game, move=(0, 0, 0, 1))


def test_a_lost_game_cannot_be_abandoned(player):
    game = play(GameFactory(player=player, size=5))
    with pytest.raises(GameOver):
        game_abandon(game_id=game.pk, player=player)


def test_a_note_can_be_written_on_any_past_move(game):
    game = play(game, 3)
    move = game_add_note(game_id=game.pk, player=game.player, move_index=2, note="why not")
    assert move.index == 2
    assert Event.objects.get(game=game, kind="move", index=2).note == "why not"
    with pytest.raises(NotFound):
        game_add_note(game_id=game.pk, player=game.player, move_index=4, note="future")
    with pytest.raises(InvalidInput):
        game_add_note(game_id=game.pk, player=game.player, move_index=1, note="x" * 2001)


def test_a_failing_receiver_of_game_finished_fails_nothing(
    game, django_capture_on_commit_callbacks, caplog
):
    def broken(**kwargs):
        raise RuntimeError("receiver down")

    game_finished.connect(broken)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = game_abandon(game_id=game.pk, player=game.player)
    finally:
        game_finished.disconnect(broken)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED
    assert "receiver of game_finished failed" in caplog.text
