"""Planar games recorded like every game: started, played, finished, verified, played by bots."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import Family, RuleSet, replay, verify_events
from games.engine.planar import PlanarGame, get_decoder, play_planar_shot
from games.errors import GameOver, IllegalMoveError, InvalidInput, InvalidRules
from games.models import BoardSnapshot, Event, Game
from games.recording import board_from_snapshot, board_from_state, event_dicts
from games.selectors import game_events, player_games_view, score_percentiles
from games.services import game_abandon, game_move, game_start, planar_bot_game
from games.verification import game_verify
from results.models import GameAnalysis
from results.selectors import games_needing_analysis
from results.services import game_analyse
from tests.factories import PlanarGameFactory, decoder_moves, play_planar

pytestmark = pytest.mark.django_db


def planar(size: int = 5, modulus: int = 2, rate: float = 0.1) -> RuleSet:
    return RuleSet(size=size, family=Family.PLANAR, modulus=modulus, error_rate=rate)


def _verify_command(*args: str) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


# -- starting and playing ----------------------------------------------------------------


def test_a_planar_game_starts_with_its_rule_set_noise_and_first_board(player):
    game = PlanarGameFactory.create(player=player, seed=5001)
    game.refresh_from_db()
    assert (game.family, game.variant, game.modulus, game.error_rate) == (
        "planar", "planar", 2, 0.1)
    assert (game.noise_budget, game.moves_per_round, game.merge_label) == (0.0, 0, "")
    assert game.rules_key == "z2-planar-L5-p0.100"
    assert (game.status, game.score, game.rounds, game.moves_count) == ("active", 0, 1, 0)
    assert (game.logical_charge, game.logical_failure) == (None, None)
    engine = PlanarGame(planar(), 5001)
    assert event_dicts(game_events(game=game)) == [e.to_dict() for e in engine.events]
    assert game.next_seq == len(engine.events)
    assert board_from_state(game.state) == engine.board()
    first = BoardSnapshot.objects.get(game=game, step=0)
    assert board_from_snapshot(first, size=5) == engine.board()


def test_moves_off_the_board_and_the_end_of_the_game_are_recorded(player):
    game = PlanarGameFactory.create(player=player, seed=5001)
    moves = decoder_moves(game)
    assert any(to_col in (-1, 5) for *_, to_col in moves)
    game = play_planar(game)
    game.refresh_from_db()
    engine = replay(planar(), 5001, moves, engine_version=game.engine_version)
    assert isinstance(engine, PlanarGame)
    assert game.status == Game.Status.FINISHED
    assert game.ended_at is not None
    assert (game.logical_charge, game.logical_failure) == (engine.charge, engine.failed) == (
        1, True)
    assert (game.score, game.moves_count, game.rounds) == (len(moves), len(moves), 1)
    rows = list(game_events(game=game))
    assert rows[-1].kind == "logical_outcome"
    assert (rows[-1].charge, rows[-1].failed, rows[-1].t) == (1, True, len(moves))
    off = [row for row in rows if row.kind == "move" and row.to_col in (-1, 5)]
    assert off
    assert all((row.to_value_before, row.to_value_after) == (0, 0) for row in off)
    assert BoardSnapshot.objects.filter(game=game).count() == len(moves) + 1
    assert verify_events(planar(), 5001, event_dicts(rows), engine_version=game.engine_version).ok
    # A planar game has no per-game analysis (it is judged by its logical outcome).
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert game_analyse(game_id=game.pk) is None
    assert not games_needing_analysis().filter(pk=game.pk).exists()
    with pytest.raises(GameOver):
        game_move(game_id=game.pk, player=player, step=game.moves_count, from_row=0,
                  from_col=0, to_row=0, to_col=-1)


def test_an_illegal_move_changes_nothing(player):
    game = PlanarGameFactory.create(player=player, seed=5001)
    before = (game.state, Event.objects.filter(game=game).count())
    row, col = next(divmod(i, 5) for i, v in enumerate(game.state["values"]) if v != "0")
    with pytest.raises(IllegalMoveError) as refused:
        game_move(game_id=game.pk, player=player, step=0, from_row=row, from_col=col,
                  to_row=row, to_col=col + 2)
    assert refused.value.code == "not_adjacent"
    game.refresh_from_db()
    assert (game.state, Event.objects.filter(game=game).count()) == before


def test_a_clean_first_board_is_a_finished_game_at_once(player):
    rules = planar(3, 2, 0.0001)
    engine = PlanarGame(rules, 1)
    assert engine.over  # no edge drew an error
    game = game_start(player=player, rules=rules, seed=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (game.logical_charge, game.logical_failure, game.score) == (0, False, 0)
    assert [row.kind for row in game_events(game=game)] == [
        "round_start", "round_end", "logical_outcome"]
    assert game_verify(game=game).ok


def test_a_planar_game_is_played_in_normal_mode_only(player):
    with pytest.raises(InvalidInput, match="normal mode"):
        game_start(player=player, rules=planar(), mode=Game.Mode.PRACTICE)


def test_a_planar_game_has_no_percentile_and_no_best(player):
    finished = play_planar(PlanarGameFactory.create(player=player, seed=5000))
    assert finished.status == Game.Status.FINISHED
    assert score_percentiles(games=[finished]) == {}
    view = player_games_view(player=player, today=timezone.now().date())
    assert view["games"][0]["percentile"] is None
    assert view["bests"] == []


def test_a_planar_bot_game_counts_as_research_data(player):
    game = planar_bot_game(rules=planar(), bot_name="matching", seed=5014)
    assert Game.objects.research_data().filter(pk=game.pk).exists()
    assert Game.objects.planar().filter(pk=game.pk).exists()
    assert not Game.objects.original().filter(pk=game.pk).exists()


# -- the database keeps planar columns consistent ------------------------------------------


@pytest.mark.parametrize("change", [
    {"size": 65},
    {"modulus": 11},
    {"modulus": None},
    {"error_rate": None},
    {"variant": "z10"},
    {"family": ""},
    {"status": "finished", "ended_at": timezone.now()},  # without its outcome
    {"logical_failure": True, "logical_charge": 1},  # an outcome while active
])
def test_the_database_refuses_inconsistent_planar_columns(player, change):
    game = PlanarGameFactory.create(player=player)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(**change)


def test_the_database_allows_a_planar_board_of_64_but_an_original_one_of_16_only(player, game):
    planar_game = PlanarGameFactory.create(player=player)
    Game.objects.filter(pk=planar_game.pk).update(size=64)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(size=17)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(modulus=2)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Game.objects.filter(pk=game.pk).update(status="finished", ended_at=timezone.now(),
                                               logical_charge=0, logical_failure=False)


# -- verification -----------------------------------------------------------------------------


def test_recorded_planar_games_verify_as_they_are_played(player):
    active = play_planar(PlanarGameFactory.create(player=player, seed=5001), moves=4)
    finished = play_planar(PlanarGameFactory.create(player=player, seed=5001, modulus=3))
    abandoned = game_abandon(game_id=play_planar(
        PlanarGameFactory.create(player=player, seed=5004), moves=2).pk, player=player)
    for game in (active, finished, abandoned):
        check = game_verify(game=game)
        assert check.ok, check.problems
        assert check.events_checked == game.next_seq
        assert check.boards_checked == game.moves_count + 1
    output, ok = _verify_command("--game", str(finished.pk), "--game", str(active.pk))
    assert ok, output
    assert "2 games checked" in output
    assert "2 match, 0 do not" in output


@pytest.mark.parametrize("tamper", ["outcome_event", "failure_column", "charge_column",
                                    "off_board_move", "board", "status"])
def test_a_tampered_planar_game_does_not_verify(player, tamper):
    game = play_planar(PlanarGameFactory.create(player=player, seed=5001))
    rows = Event.objects.filter(game=game)
    if tamper == "outcome_event":
        rows.filter(kind="logical_outcome").update(charge=0, failed=False)
    elif tamper == "failure_column":
        Game.objects.filter(pk=game.pk).update(logical_failure=False)
    elif tamper == "charge_column":
        Game.objects.filter(pk=game.pk).update(logical_charge=0)
    elif tamper == "off_board_move":
        move = rows.filter(kind="move", to_col=-1).first() or rows.filter(kind="move",
                                                                           to_col=5).first()
        assert move is not None
        rows.filter(pk=move.pk).update(to_col=-1 if move.to_col == 5 else 5)
    elif tamper == "board":
        last = BoardSnapshot.objects.filter(game=game).order_by("-step").first()
        BoardSnapshot.objects.filter(pk=last.pk).update(values="1" + last.values[1:])
    else:
        Game.objects.filter(pk=game.pk).update(status="abandoned", logical_charge=None,
                                               logical_failure=None)
    game.refresh_from_db()
    check = game_verify(game=game)
    assert not check.ok
    output, ok = _verify_command("--game", str(game.pk))
    assert not ok
    assert "DOES NOT MATCH" in output


# -- the planar decoders as bots ----------------------------------------------------------------


@pytest.mark.parametrize(("decoder", "modulus", "seed"), [
    ("matching", 2, 5014), ("clustering", 2, 5001), ("clustering", 3, 5007),
    ("optimal", 2, 5014), ("optimal", 10, 5003),
])
def test_a_planar_decoder_records_its_game_as_the_shot_plays_it(decoder, modulus, seed):
    rules = planar(5, modulus)
    game = planar_bot_game(rules=rules, bot_name=decoder, seed=seed)
    game.refresh_from_db()
    bot = get_decoder(decoder)
    assert (game.source, game.bot_name, game.bot_version) == ("bot", decoder, str(bot.version))
    assert game.player.user.username == f"decodoku-bot-planar-{decoder}"
    assert not game.player.user.is_active
    assert game.player.consent_version == "bot"
    assert game.status == Game.Status.FINISHED
    shot = play_planar_shot(rules=rules, bot=decoder, seed=seed, max_moves=10_000)
    assert (game.logical_failure, game.moves_count) == (shot.failed, shot.moves)
    assert game.seed == seed
    assert game_verify(game=game).ok
    again = planar_bot_game(rules=rules, bot_name=decoder, seed=seed)
    assert again.player == game.player
    assert event_dicts(game_events(game=again)) == event_dicts(game_events(game=game))


def test_a_bot_records_boards_larger_than_the_api_allows():
    game = planar_bot_game(rules=planar(24, 2, 0.05), bot_name="matching", seed=3)
    assert (game.size, game.status) == (24, Game.Status.FINISHED)
    assert game_verify(game=game).ok


def test_a_plan_longer_than_the_move_cap_is_stopped_and_abandoned():
    rules = planar(5, 2)
    full = planar_bot_game(rules=rules, bot_name="clustering", seed=5001)
    capped = planar_bot_game(rules=rules, bot_name="clustering", seed=5001, max_moves=3)
    assert full.moves_count > 3
    assert (capped.status, capped.moves_count) == (Game.Status.ABANDONED, 3)
    assert (capped.logical_charge, capped.logical_failure) == (None, None)
    assert game_verify(game=capped).ok


@pytest.mark.parametrize(("arguments", "error"), [
    ({"bot_name": "greedy"}, InvalidInput),
    ({"bot_name": "matching", "rules": planar(5, 3)}, InvalidRules),
    ({"rules": RuleSet(size=5)}, InvalidRules),
    ({"max_moves": -1}, InvalidInput),
])
def test_a_planar_bot_game_refuses_what_it_cannot_play(arguments, error):
    with pytest.raises(error):
        planar_bot_game(**{"rules": planar(), "bot_name": "clustering", "seed": 1, **arguments})
    assert not Game.objects.exists()
