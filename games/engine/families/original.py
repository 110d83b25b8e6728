"""The original game (Decodoku v1): no family; a noise budget for the whole board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidRuleSet
from ..rulevalues import COLORS, MAX_SIZE, Family, MergeLabel, Variant
from ..shot import ShotOutcome
from ..version import RULESET_SCHEMA_VERSION
from .base import NO_FAMILY, FamilyKind, ShotEngine

if TYPE_CHECKING:
    from ..bots import LearnedWeights
    from ..rules import RuleSet

_FIELDS = frozenset({"schema", "size", "variant", "noise_budget", "moves_per_round",
                     "merge_label"})


class Original(FamilyKind):
    family: ClassVar[Family | None] = None
    max_size = MAX_SIZE
    criterion = "spanning"
    threshold = False

    def check(self, rules: RuleSet) -> None:
        if rules.error_rate is not None or rules.moves_per_cell is not None:
            raise InvalidRuleSet(
                "error_rate and moves_per_cell belong to a rule family (one_shot, sustained)"
            )
        if rules.modulus is not None:
            raise InvalidRuleSet("modulus belongs to the planar family")

    def to_dict(self, rules: RuleSet) -> dict[str, Any]:
        return {
            "schema": RULESET_SCHEMA_VERSION,
            "size": rules.size,
            "variant": str(rules.variant),
            "noise_budget": rules.noise_budget,
            "moves_per_round": rules.moves_per_round,
            "merge_label": str(rules.merge_label),
        }

    def fields_from_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(data) - _FIELDS)
        if unknown:
            raise InvalidRuleSet(f"unknown rule set fields: {', '.join(unknown)}")
        return {name: data[name] for name in sorted(_FIELDS - {"schema"}) if name in data}

    def columns(self, rules: RuleSet) -> dict[str, Any]:
        return {
            "size": rules.size,
            "variant": str(rules.variant),
            "noise_budget": rules.noise_budget,
            "moves_per_round": rules.moves_per_round,
            "merge_label": str(rules.merge_label),
            "family": NO_FAMILY,
            "modulus": None,
            "error_rate": None,
            "rules_key": rules.key,
        }

    def fields_from_columns(self, row: Any) -> dict[str, Any]:
        if row.modulus is not None or row.error_rate is not None:
            raise InvalidRuleSet(
                "the columns hold no rule set: modulus or error_rate without a family")
        try:
            # A Colors record is played by the Z10 rules.
            variant = Variant.Z10 if row.variant == COLORS else Variant(row.variant)
            merge_label = MergeLabel(row.merge_label)
        except ValueError as exc:
            raise InvalidRuleSet(f"the columns hold no rule set: {exc}") from None
        return {"size": row.size, "variant": variant, "noise_budget": row.noise_budget,
                "moves_per_round": row.moves_per_round, "merge_label": merge_label}

    def key(self, rules: RuleSet) -> str:
        return (
            f"{rules.variant}-L{rules.size}-b{rules.noise_budget:g}"
            f"-m{rules.moves_per_round}-{rules.merge_label}"
        )

    def round_moves(self, rules: RuleSet) -> int | None:
        return rules.moves_per_round

    def play_shot(self, *, rules: RuleSet, bot: str, seed: int, max_rounds: int,
                  weights: LearnedWeights | None, engine: ShotEngine) -> ShotOutcome:
        """A budget sweep's game: played until it is lost or has survived ``max_rounds``
        rounds (then censored). The bot takes the game's own seed, not ``bot_seed``:
        the stored budget sweeps were played that way."""
        game = engine.game(rules, seed, record=False)
        chooser = engine.get_bot(bot, seed=seed, weights=weights)
        move, choose = game.move, chooser.choose
        while not game.over and game.round <= max_rounds:
            move(*choose(game))
        if game.over:
            return ShotOutcome(seed=seed, failed=True, rounds=game.round,
                               moves=game.moves_made, score=game.t, censored=False)
        return ShotOutcome(seed=seed, failed=False, rounds=max_rounds, moves=game.moves_made,
                           score=game.t, censored=True)


ORIGINAL_KIND = Original()
