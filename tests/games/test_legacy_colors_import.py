"""Colors saves become "groups observed" games of their own variant, verified from their boards."""

from __future__ import annotations

import pytest

from games.models import BoardSnapshot, Event
from games.services.legacy import legacy_import
from games.verification import game_verify
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["181_quantum_jim.csv", "361_aeshe1988.csv"])
def test_a_colors_save_is_stored_as_a_groups_observed_colors_game(player, name):
    result = legacy_import(player=player, filename=name,
                           data=(SAVES / "colors" / name).read_bytes())
    game = result.game
    assert game.variant == "colors"
    assert game.rules_key.startswith("colors-L7-")
    assert game.partially_observed
    assert result.report["observed"] == "groups"
    assert game.score == int(name.split("_")[0])
    symbols = set("".join(BoardSnapshot.objects.filter(game=game).values_list("values", flat=True)))
    assert symbols == {"0", "G"}
    moves = Event.objects.filter(game=game, kind="move")
    assert moves.exists()
    assert not moves.filter(value__isnull=False).exists()  # values are unknown
    assert Event.objects.filter(game=game).order_by("seq").last().kind == "loss"
    check = game_verify(game=game)
    assert check.ok, check.problems
