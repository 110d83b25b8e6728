"""simulate, then import_legacy: the files name their seed, so the games come back exactly."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine.legacy import game_to_save
from games.engine.replay import moves_of
from games.engine.simulate import make_rules, simulate_games
from games.errors import SaveFileRejected
from games.models import Event, Game
from games.recording import event_dicts
from games.services.legacy import legacy_import

pytestmark = pytest.mark.django_db

NOISE_KINDS = ("noise_round", "noise_error", "merge", "round_end", "jump", "regenerated", "loss")


def _simulated(count: int, seed: int) -> list:
    """Games whose seed fits the seed column (63 bits); simulate draws 64-bit seeds."""
    games = simulate_games(policy="random", games=4 * count, seed=seed, rules=make_rules())
    return [sim for sim in games if sim.game.seed < 2**63][:count]


def test_simulated_games_are_imported_as_the_exact_games(tmp_path: Path, player):
    played = _simulated(6, 41)
    for sim in played:
        (tmp_path / f"game_{sim.index}.csv").write_text(game_to_save(sim.game))
    out = StringIO()
    call_command("import_legacy", str(tmp_path), "--player-id", str(player.pk), stdout=out)
    summary = "6 imported, 0 already imported, 0 not save files, 0 invalid"
    assert out.getvalue().splitlines()[-1] == summary
    for sim in played:
        game = Game.objects.get(legacy_filename=f"game_{sim.index}.csv")
        assert game.seed == sim.game.seed
        assert not game.partially_observed
        assert game.import_report["exact"] is True
        stored = event_dicts(Event.objects.filter(game=game).order_by("seq"))
        expected = [event.to_dict() for event in sim.game.events]
        # Every noise error, merge, round and the loss are the simulated game's.
        assert [e for e in stored if e["kind"] in NOISE_KINDS] == [
            e for e in expected if e["kind"] in NOISE_KINDS]
        assert len(stored) == len(expected)
        # Moves differ only where the boards cannot tell (an annihilation's direction).
        moves = Event.objects.filter(game=game, kind="move").order_by("seq")
        for row, move in zip(moves, moves_of(sim.game.events), strict=True):
            if row.move_certain:
                assert (row.from_row, row.from_col, row.to_row, row.to_col) == move
            else:
                assert row.explanations is not None
                assert row.explanations >= 2
                assert row.annihilated
    verified = StringIO()
    call_command("verify_games", stdout=verified)
    assert "6 match, 0 do not" in verified.getvalue()


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
    games = simulate_games(policy="random", games=12, seed=43, rules=make_rules())
    sim = next(s for s in games if s.game.seed >= 2**63)
    game = legacy_import(player=player, filename="big.csv",
                         data=game_to_save(sim.game).encode()).game
    assert game.seed is None
    assert "exact" not in game.import_report
    # The convention is the file's (destination), shown by its merges or named by its header.
    assert game.merge_label == "destination"
    moves = Event.objects.filter(game=game, kind="move")
    assert moves.count() == len(moves_of(sim.game.events))
    assert all(row.move_certain is not None for row in moves)
