"""simulate, then import_legacy: the files name their seed, so the games come back exactly."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import Game as EngineGame
from games.engine import RandomPolicy, RuleSet, SplitMix64
from games.engine import play as play_policy
from games.engine.legacy import game_to_save, read_save
from games.engine.legacy.errors import LegacyFormatError
from games.engine.legacy.exact import exact_game
from games.engine.replay import moves_of
from games.engine.simulate import make_rules, simulate_games
from games.errors import SaveFileRejected
from games.models import BoardSnapshot, Event, Game
from games.recording import event_dicts
from games.services.legacy import legacy_import
from games.verification import game_verify

pytestmark = pytest.mark.django_db

# Every kind of event but the player's moves: what the noise, the clock and the rules did.
NOISE_KINDS = ("round_start", "noise", "merge", "round_end", "jump", "regenerated", "loss")
SIMULATE_LINE = re.compile(r"game (\d+): noise seed (\d+), policy seed \d+, score \d+, "
                           r"\d+ moves -> (.+\.csv)")


def _simulated(count: int, seed: int) -> list:
    return list(simulate_games(policy="random", games=count, seed=seed, rules=make_rules()))


def test_simulate_then_import_legacy_gives_the_exact_games(tmp_path: Path, player):
    """Every file simulate writes comes back as its game: same seed, same noise rows."""
    count, run_seed, size = 6, 41, 5
    # A 64-bit noise seed would not fit the seed column: half of this run's raw
    # draws are above 2**63 - 1 (such games were imported from their boards).
    raw = SplitMix64(run_seed)
    assert any(raw.next64() >= 2**63 for _ in range(2 * count))
    out = StringIO()
    call_command("simulate", "--games", str(count), "--size", str(size), "--seed",
                 str(run_seed), "--save-dir", str(tmp_path), stdout=out)
    written = [SIMULATE_LINE.fullmatch(line) for line in out.getvalue().splitlines()[:count]]
    assert all(written), out.getvalue()
    imported = StringIO()
    call_command("import_legacy", str(tmp_path), "--player-id", str(player.pk),
                 stdout=imported)
    summary = f"{count} imported, 0 already imported, 0 not save files, 0 invalid"
    assert imported.getvalue().splitlines()[-1] == summary

    played = simulate_games(policy="random", games=count, seed=run_seed,
                            rules=make_rules(size=size))
    for sim, line in zip(played, written, strict=True):
        assert line is not None
        assert int(line[2]) == sim.noise_seed
        game = Game.objects.get(legacy_filename=Path(line[3]).name)
        assert game.seed == sim.noise_seed < 2**63
        assert game.engine_version == sim.game.engine_version
        assert not game.partially_observed
        assert game.import_report["exact"] is True
        stored = event_dicts(Event.objects.filter(game=game).order_by("seq"))
        expected = [event.to_dict() for event in sim.game.events]
        assert {e["kind"] for e in expected} - {"move"} <= set(NOISE_KINDS)
        assert any(e["kind"] == "noise" for e in expected)
        # Every noise error, merge, round boundary, jump and the loss are the simulated game's.
        assert [e for e in stored if e["kind"] in NOISE_KINDS] == [
            e for e in expected if e["kind"] in NOISE_KINDS]
        assert (game.score, game.rounds, game.moves_count) == (
            sim.game.t, sim.game.round, sim.game.moves_made)
        # The file names every move, so the moves are the played ones too, all certain
        # (explanations still counts the moves the boards alone allow).
        assert stored == expected
        moves = Event.objects.filter(game=game, kind="move").order_by("seq")
        assert all(row.move_certain for row in moves)
        assert all((row.explanations or 0) >= 1 for row in moves)
        assert game.import_report["named_moves"] == sim.game.moves_made
        # The move notes are the file's record of the moves, not comments on the boards.
        assert not BoardSnapshot.objects.filter(game=game).exclude(comment="").exists()
    verified = StringIO()
    call_command("verify_games", stdout=verified)
    assert f"{count} match, 0 do not" in verified.getvalue()


def test_a_file_whose_boards_are_not_its_seeds_game_is_refused(player):
    sim = _simulated(1, 42)[0]
    text = game_to_save(sim.game)
    seed_text = f"seed {sim.game.seed},"
    other = text.replace(seed_text, f"seed {sim.game.seed + 1},", 1)
    assert other != text
    with pytest.raises(SaveFileRejected) as caught:
        legacy_import(player=player, filename="x.csv", data=other.encode())
    assert caught.value.extra["reason"] == "replay_mismatch"
    assert not Game.objects.exists()


def test_a_file_naming_a_seed_beyond_63_bits_is_imported_from_its_boards(player):
    """Files written before simulate's seeds had 63 bits: read from their boards."""
    rules = make_rules()
    seed = 2**63 + 43
    engine = play_policy(EngineGame(rules, seed), RandomPolicy(7), max_moves=5000)
    text = game_to_save(engine)
    assert f"seed {seed}," in text
    game = legacy_import(player=player, filename="big.csv", data=text.encode()).game
    assert game.seed is None
    assert "exact" not in game.import_report
    # The convention is the file's (destination), shown by its merges or named by its header.
    assert game.merge_label == "destination"
    moves = Event.objects.filter(game=game, kind="move")
    assert moves.count() == len(moves_of(engine.events))
    assert all(row.move_certain is not None for row in moves)


def test_a_file_written_by_engine_1_is_imported_and_verified_as_engine_1(player):
    """A regenerated first board: versions 1 and 2 differ in its group ids."""
    rules = RuleSet(size=3, noise_budget=2.0)
    engine = play_policy(EngineGame(rules, 7005, engine_version=1), RandomPolicy(3),
                         max_moves=500)
    assert any(e.kind == "regenerated" for e in engine.events)
    text = game_to_save(engine)
    assert text.startswith(",,,,Decodoku Lab engine 1,")
    game = legacy_import(player=player, filename="one.csv", data=text.encode()).game
    assert game.import_report["exact"] is True
    assert game.engine_version == game.state["engine_version"] == 1
    stored = event_dicts(Event.objects.filter(game=game).order_by("seq"))
    assert stored == [event.to_dict() for event in engine.events]
    check = game_verify(game=game)
    assert check.ok, check.problems
    # The same boards under engine 2's numbering are not this file's game.
    newer = text.replace("Decodoku Lab engine 1,", "Decodoku Lab engine 2,", 1)
    with pytest.raises(LegacyFormatError) as caught:
        exact_game(read_save(newer.encode()))
    assert caught.value.code == "replay_mismatch"
    assert caught.value.step == 0
