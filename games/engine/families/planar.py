"""The planar family: the planar code's lattice in Z_d, decoded by the planar decoders.

The game itself is ``games.engine.planar`` (``PlanarGame``); this kind says
how its rule sets are checked, stored and named, and how its shots are played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidRuleSet
from ..rulevalues import MAX_MODULUS, MIN_MODULUS, Family, MergeLabel, Variant
from ..version import RULESET_SCHEMA_VERSION
from .base import ShotEngine, decimals
from .threshold import ThresholdKind

if TYPE_CHECKING:
    from ..bots import LearnedWeights
    from ..rules import RuleSet
    from ..shot import ShotOutcome

_FIELDS = frozenset({"schema", "family", "size", "modulus", "error_rate"})
DEFAULT_MODULUS = 10


class Planar(ThresholdKind):
    family: ClassVar[Family | None] = Family.PLANAR
    criterion = "logical"
    single_round = True
    grouped = False
    # A shot stopped by the move cap is a failure: leaving it out would flatter a
    # decoder that loops.
    censored_in_trials = True

    def check_own(self, rules: RuleSet) -> None:
        modulus = rules.modulus
        if isinstance(modulus, bool) or not isinstance(modulus, int):
            raise InvalidRuleSet("the planar family needs an integer modulus")
        if not MIN_MODULUS <= modulus <= MAX_MODULUS:
            raise InvalidRuleSet(
                f"modulus must be between {MIN_MODULUS} and {MAX_MODULUS}, got {modulus}"
            )
        if rules.variant is not Variant.Z10 or rules.merge_label is not MergeLabel.DESTINATION:
            # Neither applies: planar values are Z_d and a planar game has no groups.
            raise InvalidRuleSet("the planar family has no variant or merge label to choose")

    def to_dict(self, rules: RuleSet) -> dict[str, Any]:
        return {
            "schema": RULESET_SCHEMA_VERSION,
            "family": str(rules.family),
            "size": rules.size,
            "modulus": rules.modulus,
            "error_rate": rules.error_rate,
        }

    def fields_from_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(data) - _FIELDS)
        if unknown:
            raise InvalidRuleSet(f"unknown fields for a planar rule set: {', '.join(unknown)}")
        missing = [name for name in ("size", "modulus", "error_rate") if name not in data]
        if missing:
            raise InvalidRuleSet(f"a planar rule set needs its {', '.join(missing)}")
        return {"size": data["size"], "family": Family.PLANAR, "modulus": data["modulus"],
                "error_rate": data["error_rate"]}

    def columns(self, rules: RuleSet) -> dict[str, Any]:
        # The variant column says "planar" too: the values are Z_d (``modulus``), and
        # a planar game has no noise budget, fixed moves per round or merge label.
        return {
            "size": rules.size,
            "variant": self.stored,
            "noise_budget": 0.0,
            "moves_per_round": 0,
            "merge_label": "",
            "family": self.stored,
            "modulus": rules.modulus,
            "error_rate": rules.error_rate,
            "rules_key": rules.key,
        }

    def fields_from_columns(self, row: Any) -> dict[str, Any]:
        if row.variant != self.stored:
            raise InvalidRuleSet(f"a planar game's variant column is {self.stored!r}")
        return {"size": row.size, "family": Family.PLANAR, "modulus": row.modulus,
                "error_rate": row.error_rate}

    def key(self, rules: RuleSet) -> str:
        rate = rules.error_rate if rules.error_rate is not None else 0.0
        return f"z{rules.modulus}-planar-L{rules.size}-p{decimals(rate, 3)}"

    def threshold_fields(self, *, size: int, rate: float, variant: str,
                         moves_per_cell: float, modulus: int | None) -> dict[str, Any]:
        return {"size": size, "family": Family.PLANAR, "error_rate": rate,
                "modulus": DEFAULT_MODULUS if modulus is None else modulus}

    def shot_seed(self, seed: int) -> int:
        # The top 63 bits: any planar shot can also be recorded as a game (a game's seed
        # is a signed 64-bit column) and replay as that game.
        return seed >> 1

    def play_shot(self, *, rules: RuleSet, bot: str, seed: int, max_rounds: int,
                  weights: LearnedWeights | None, engine: ShotEngine) -> ShotOutcome:
        if weights is not None:
            raise ValueError("the planar decoders play without weights")
        return engine.play_planar_shot(rules=rules, bot=bot, seed=seed,
                                max_moves=max_rounds * rules.size * rules.size)

    def play_shots(self, *, rules: RuleSet, bot: str, seeds: Sequence[int], max_rounds: int,
                   weights: LearnedWeights | None, engine: ShotEngine,
                   play_one: Callable[..., ShotOutcome] | None = None) -> list[ShotOutcome]:
        """The matching decoder decodes the shots in one call (``play_one`` is not used)."""
        if weights is not None:
            raise ValueError("the planar decoders play without weights")
        return engine.planar_outcomes(rules=rules, bot=bot, seeds=seeds,
                               max_moves=max_rounds * rules.size * rules.size)


PLANAR_KIND = Planar()
