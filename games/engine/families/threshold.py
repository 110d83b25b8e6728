"""What the threshold families share: noise per edge at a rate ``p``, and bots playing shots.

``ThresholdKind`` checks what every threshold family checks (no noise
budget, an error rate in range, ``moves_per_cell`` only where the family
takes it); ``GroupedKind`` is a threshold family of the game itself
(``Game``, with groups and bots): one_shot and sustained.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidRuleSet
from ..rulevalues import (
    MAX_ERROR_RATE,
    MAX_FAMILY_SIZE,
    MAX_MOVES_PER_CELL,
    MIN_ERROR_RATE,
    MergeLabel,
    Variant,
)
from ..version import RULESET_SCHEMA_VERSION
from .base import FamilyKind, ShotEngine, decimals, number
from .seeds import bot_seed

if TYPE_CHECKING:
    from ..bots import LearnedWeights
    from ..game import Game
    from ..rules import RuleSet
    from ..shot import ShotOutcome


class ThresholdKind(FamilyKind):
    max_size = MAX_FAMILY_SIZE
    takes_moves_per_cell: ClassVar[bool] = False

    def check_own(self, rules: RuleSet) -> None:
        """The checks of the family's own fields, before the shared ones."""
        if rules.modulus is not None:
            raise InvalidRuleSet("modulus belongs to the planar family")

    def check(self, rules: RuleSet) -> None:
        self.check_own(rules)
        if rules.noise_budget != 6.0 or rules.moves_per_round != 5:
            raise InvalidRuleSet(
                f"the {self.family} family has no noise budget or fixed moves per round: "
                "give error_rate (and moves_per_cell) instead"
            )
        rate = number("error_rate", rules.error_rate)
        if not MIN_ERROR_RATE <= rate <= MAX_ERROR_RATE:
            raise InvalidRuleSet(
                f"error_rate must be between {MIN_ERROR_RATE:g} and {MAX_ERROR_RATE:g}, "
                f"got {rate!r}"
            )
        object.__setattr__(rules, "error_rate", rate)
        if not self.takes_moves_per_cell:
            if rules.moves_per_cell is not None:
                raise InvalidRuleSet(f"the {self.family} family has no moves_per_cell")
            return
        per_cell = number("moves_per_cell", rules.moves_per_cell)
        if not 0 < per_cell <= MAX_MOVES_PER_CELL:
            raise InvalidRuleSet(
                f"moves_per_cell must be > 0 and <= {MAX_MOVES_PER_CELL:g}, got {per_cell!r}"
            )
        object.__setattr__(rules, "moves_per_cell", per_cell)

    def round_moves(self, rules: RuleSet) -> int | None:
        return None


_GROUPED_FIELDS = frozenset({"schema", "family", "size", "variant", "error_rate",
                             "moves_per_cell", "merge_label"})


class GroupedKind(ThresholdKind):
    """A threshold family of the game itself, played by its bots."""

    def to_dict(self, rules: RuleSet) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": RULESET_SCHEMA_VERSION,
            "family": str(rules.family),
            "size": rules.size,
            "variant": str(rules.variant),
            "error_rate": rules.error_rate,
        }
        if self.takes_moves_per_cell:
            data["moves_per_cell"] = rules.moves_per_cell
        data["merge_label"] = str(rules.merge_label)
        return data

    def fields_from_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(data) - _GROUPED_FIELDS)
        if unknown:
            raise InvalidRuleSet(
                f"unknown fields for a {data['family']} rule set: {', '.join(unknown)}"
            )
        if "size" not in data or "error_rate" not in data:
            raise InvalidRuleSet("a rule family needs its size and error_rate")
        return {
            "size": data["size"],
            "variant": data.get("variant", Variant.Z10),
            "merge_label": data.get("merge_label", MergeLabel.DESTINATION),
            "family": data["family"],
            "error_rate": data["error_rate"],
            "moves_per_cell": data.get("moves_per_cell"),
        }

    def key(self, rules: RuleSet) -> str:
        rate = rules.error_rate if rules.error_rate is not None else 0.0
        family = str(self.family).replace("_", "")
        text = f"{rules.variant}-{family}-L{rules.size}-p{decimals(rate, 3)}"
        if self.takes_moves_per_cell and rules.moves_per_cell is not None:
            text += f"-m{decimals(rules.moves_per_cell, 0)}"
        if rules.merge_label is MergeLabel.MOVED:
            text += f"-{rules.merge_label}"
        return text

    def threshold_fields(self, *, size: int, rate: float, variant: str,
                         moves_per_cell: float, modulus: int | None) -> dict[str, Any]:
        return {
            "size": size,
            "variant": variant,
            "family": self.family,
            "error_rate": rate,
            "moves_per_cell": moves_per_cell if self.takes_moves_per_cell else None,
        }

    def play_shot(self, *, rules: RuleSet, bot: str, seed: int, max_rounds: int,
                  weights: LearnedWeights | None, engine: ShotEngine) -> ShotOutcome:
        bot_instance: Any = engine.get_bot(bot, seed=bot_seed(seed), weights=weights)
        game = engine.game(rules, seed, record=False)
        return self.play_game(game, bot_instance, max_rounds=max_rounds)

    @abstractmethod
    def play_game(self, game: Game, bot: Any, *, max_rounds: int) -> ShotOutcome:
        """Let ``bot`` play the shot ``game`` to its end (or the family's safety stop)."""


def decode(game: Game, bot: Any, *, max_moves: int) -> Game:
    """Let ``bot`` decode a one_shot ``game`` until it is over (or ``max_moves`` moves).

    A bot with a ``plan()`` (the clustering bot's ``FusionPlan``) decides
    through it: the plan grows its clusters once and follows them move by
    move instead of growing them again on every board. Any other bot
    plays ``choose``.

    With no noise after the first round, a bot that decides from the board
    alone and meets a board again would go round the same loop for ever (a
    number stepping back and forth between two clusters). So the k-th time
    the same values come back, the bot plays its k-th preferred move
    (``rank``; its last one when it has fewer), which ends every such loop
    (a plan is then told to ``forget`` and grows its clusters again). On a
    board met for the first time it plays the plan's move or ``choose``.
    """
    make_plan = getattr(bot, "plan", None)
    plan = make_plan() if callable(make_plan) else None
    choose = plan.choose if plan is not None else bot.choose
    visits: dict[tuple[int, ...], int] = {}
    while not game.over and game.moves_made < max_moves:
        board = game.values
        before = visits.get(board, 0)
        visits[board] = before + 1
        if before == 0:
            move = choose(game)
        else:
            ranked = bot.rank(board, game.size, game.rules, k=before + 1)
            move = ranked[min(before, len(ranked) - 1)]
            if plan is not None:
                plan.forget()
        game.move(*move)
    return game


def ceil_moves(moves_per_cell: float, size: int) -> int:
    """``ceil(m * L * L)`` with ``m`` read as the decimal it prints as (0.1 is one tenth),
    so that ``ceil`` never rounds up a product that binary floating point makes a hair
    too large."""
    return math.ceil(Fraction(repr(moves_per_cell)) * size * size)
