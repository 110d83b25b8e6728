"""Regenerated first boards: the rows of discarded boards are marked in every event export."""

from __future__ import annotations

from games.engine import Game as EngineGame
from games.engine import RuleSet
from games.models import Event
from tests.factories import GameFactory, play
from tests.research.test_exports import export

SEED = 7005  # with L=3 and budget 2, the first board is drawn three times


def test_discarded_first_boards_are_marked_and_the_kept_rows_agree_with_the_game(
    researcher_client, consenting_player
):
    engine = EngineGame(RuleSet(size=3, noise_budget=2.0), SEED)
    assert sum(1 for e in engine.events if e.kind == "regenerated") == 2
    game = play(GameFactory(player=consenting_player, seed=SEED, size=3, noise_budget=2.0))
    last_regeneration = Event.objects.filter(game=game, kind="regenerated").order_by(
        "-seq").first()
    assert last_regeneration is not None

    rounds = export(researcher_client, "round_boundaries")
    ends = [r for r in rounds if r["kind"] == "round_end"]
    kept_ends = [r for r in ends if r["discarded"] == "false"]
    assert len(ends) > game.rounds  # the discarded boards' rounds are there too
    assert len(kept_ends) == game.rounds  # without them, the counts agree

    noise = export(researcher_client, "noise_errors")
    seqs = {int(r["seq"]): r["discarded"] for r in noise}
    assert any(flag == "true" for flag in seqs.values())
    for seq, flag in seqs.items():
        assert flag == ("true" if seq < last_regeneration.seq else "false")


def test_games_export_seeds_as_text(researcher_client, consenting_player):
    game = play(GameFactory(player=consenting_player, seed=2**62 + 12345))
    rows = export(researcher_client, "games")
    assert rows[0]["seed"] == str(game.seed)
