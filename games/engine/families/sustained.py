"""The sustained family: a noise round at rate ``p`` per edge every ``ceil(m * L * L)`` moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..rulevalues import Family
from ..shot import ShotOutcome
from .threshold import GroupedKind, ceil_moves

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import RuleSet


class Sustained(GroupedKind):
    family: ClassVar[Family | None] = Family.SUSTAINED
    criterion = "spanning"
    takes_moves_per_cell = True

    def round_moves(self, rules: RuleSet) -> int | None:
        if rules.moves_per_cell is None:
            return None
        return ceil_moves(rules.moves_per_cell, rules.size)

    def play_game(self, game: Game, bot: Any, *, max_rounds: int) -> ShotOutcome:
        move, choose = game.move, bot.choose
        while game.loss is None and game.round <= max_rounds:
            move(*choose(game))
        moves = game.moves_made
        if game.loss is not None:
            return ShotOutcome(seed=game.seed, failed=True, rounds=game.round, moves=moves,
                               score=moves, censored=False)
        return ShotOutcome(seed=game.seed, failed=False, rounds=max_rounds, moves=moves,
                           score=moves, censored=True)


SUSTAINED_KIND = Sustained()
