"""Rule sets: the parameters of a Decodoku game.

The default rule set is the original game (Decodoku v1): L = 7 as on phones,
the Z10 variant, noise rounds of weight 6, a round every 5 moves, and the iOS
app's merge labelling. Other rule sets exist for bot sweeps (L from 3 to 16,
other budgets and round lengths).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import InvalidRuleSet
from .version import RULESET_SCHEMA_VERSION

MIN_SIZE = 3
MAX_SIZE = 16
MAX_BUDGET = 100.0
MAX_MOVES_PER_ROUND = 100


class Variant(StrEnum):
    Z10 = "z10"
    PHI_LAMBDA = "phi_lambda"


class MergeLabel(StrEnum):
    """Which id survives when a move merges two groups.

    Only a label: the outcome of a game never depends on it.
    """

    DESTINATION = "destination"  # the iOS app (2016)
    MOVED = "moved"  # the later apps (2016-2017) and their save files


@dataclass(frozen=True, slots=True)
class RuleSet:
    size: int = 7
    variant: Variant = Variant.Z10
    noise_budget: float = 6.0
    moves_per_round: int = 5
    merge_label: MergeLabel = MergeLabel.DESTINATION

    def __post_init__(self) -> None:
        size = self.size
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidRuleSet("size must be an integer")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidRuleSet(f"size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")
        try:
            object.__setattr__(self, "variant", Variant(self.variant))
        except ValueError:
            raise InvalidRuleSet(f"unknown variant {self.variant!r}") from None
        try:
            object.__setattr__(self, "merge_label", MergeLabel(self.merge_label))
        except ValueError:
            raise InvalidRuleSet(f"unknown merge label convention {self.merge_label!r}") from None
        budget = self.noise_budget
        if isinstance(budget, bool) or not isinstance(budget, int | float):
            raise InvalidRuleSet("noise_budget must be a number")
        budget = float(budget)
        if not math.isfinite(budget) or not 0 < budget <= MAX_BUDGET:
            raise InvalidRuleSet(f"noise_budget must be > 0 and <= {MAX_BUDGET:g}")
        object.__setattr__(self, "noise_budget", budget)
        moves = self.moves_per_round
        if isinstance(moves, bool) or not isinstance(moves, int):
            raise InvalidRuleSet("moves_per_round must be an integer")
        if not 1 <= moves <= MAX_MOVES_PER_ROUND:
            raise InvalidRuleSet(f"moves_per_round must be between 1 and {MAX_MOVES_PER_ROUND}")

    @property
    def cells(self) -> int:
        return self.size * self.size

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": RULESET_SCHEMA_VERSION,
            "size": self.size,
            "variant": str(self.variant),
            "noise_budget": self.noise_budget,
            "moves_per_round": self.moves_per_round,
            "merge_label": str(self.merge_label),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if not isinstance(data, dict):
            raise InvalidRuleSet("a rule set must be an object")
        schema = data.get("schema", RULESET_SCHEMA_VERSION)
        if schema != RULESET_SCHEMA_VERSION:
            raise InvalidRuleSet(f"unknown rule set schema {schema!r}")
        known = {"schema", "size", "variant", "noise_budget", "moves_per_round", "merge_label"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRuleSet(f"unknown rule set fields: {', '.join(unknown)}")
        defaults = cls()
        return cls(
            size=data.get("size", defaults.size),
            variant=data.get("variant", defaults.variant),
            noise_budget=data.get("noise_budget", defaults.noise_budget),
            moves_per_round=data.get("moves_per_round", defaults.moves_per_round),
            merge_label=data.get("merge_label", defaults.merge_label),
        )

    @property
    def key(self) -> str:
        """A short stable text naming the rule set, e.g. ``z10-L7-b6-m5-destination``."""
        return (
            f"{self.variant}-L{self.size}-b{self.noise_budget:g}"
            f"-m{self.moves_per_round}-{self.merge_label}"
        )


ORIGINAL = RuleSet()
