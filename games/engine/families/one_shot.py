"""The one_shot family: one noise round at rate ``p`` per edge, then the decoder cleans up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..rulevalues import Family
from ..shot import ShotOutcome
from .threshold import GroupedKind, decode

if TYPE_CHECKING:
    from ..game import Game


class OneShot(GroupedKind):
    family: ClassVar[Family | None] = Family.ONE_SHOT
    criterion = "spanning"
    single_round = True

    def play_game(self, game: Game, bot: Any, *, max_rounds: int) -> ShotOutcome:
        decode(game, bot, max_moves=max_rounds * game.rules.size * game.rules.size)
        moves = game.moves_made
        return ShotOutcome(seed=game.seed, failed=game.loss is not None, rounds=1, moves=moves,
                           score=moves, censored=not game.over)


ONE_SHOT_KIND = OneShot()
