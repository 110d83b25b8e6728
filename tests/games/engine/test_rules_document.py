"""docs/rules.md states the engine's choice for every case the original apps never met.

The rules document promises that the engine's choice for a noise round
that leaves the board empty, an empty first board and a first board that
keeps spanning is written there; each is checked against what the engine
does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import games.engine.game as game_module
from games.engine import EngineError, Game, RuleSet
from games.engine.events import JumpAhead
from tests.games.engine.engine_testkit import error_draws, position, script

RULES = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def _section(title: str) -> str:
    text = RULES.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return " ".join(text[start:end].split())


CLOCK = "The clock, noise timing and the end of the game"


def test_a_noise_round_that_empties_the_board_moves_the_clock_to_the_next_round():
    # The engine: the round's last error (weight 0.1) annihilates the last pair.
    game = position(["550", "000", "370"], [[1, 1, 0], [0, 0, 0], [2, 2, 0]],
                    rules=RuleSet(size=3, noise_budget=0.1), t=4)
    script(game, error_draws(3, (2, 0), (2, 1), 7) + error_draws(3, (1, 1), (2, 1), 3))
    events = game.move(0, 0, 0, 1)
    assert [e.kind for e in events][3:6] == ["round_end", "jump", "round_start"]
    assert events[4] == JumpAhead(t=10, round=2, from_t=5, reason="empty_after_noise")
    # The rules document says so.
    clock = _section(CLOCK)
    assert "A noise round that leaves the board empty" in clock
    assert "the clock moves to the next round at once" in clock
    assert "from t = 5 to t = 10" in clock
    assert "`empty_after_noise`" in clock
    assert "the next noise round runs straight away" in clock


def test_an_empty_first_board_and_one_that_keeps_spanning_are_written_down():
    clock = _section(CLOCK)
    assert "A first board that is empty** is drawn again" in clock
    assert "regeneration with reason `empty`" in clock
    assert f"after {game_module.MAX_REGENERATIONS:,} draws in a row" in clock
    assert "refused as unplayable (`unplayable_rule_set`)" in clock


def test_a_rule_set_whose_first_board_keeps_spanning_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(game_module, "MAX_REGENERATIONS", 3)
    with pytest.raises(EngineError) as caught:
        Game(RuleSet(size=3, noise_budget=20), 1)  # every first board spans
    assert caught.value.code == "unplayable_rule_set"
