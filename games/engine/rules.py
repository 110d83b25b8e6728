"""Rule sets: the parameters of a Decodoku game.

The default rule set is the original game (Decodoku v1): L = 7 as on phones,
the Z10 variant, noise rounds of weight 6, a round every 5 moves, and the iOS
app's merge labelling. Other rule sets exist for bot sweeps (L from 3 to 16,
other budgets and round lengths).

Threshold studies use two further *families* of rule sets (see
``docs/rules.md``, "Rule families for threshold studies"): noise per edge at a
rate ``p`` instead of a budget for the whole board, so that the density of
errors does not fall as the board grows. ``one_shot`` draws one noise round
and lets the decoder clean the board; ``sustained`` draws a round before every
``ceil(m * L * L)`` moves. Their boards go from 3 to 64 (``MAX_FAMILY_SIZE``);
the original family keeps 3 to 16. A rule set of the original family has
``family = None`` and stores, names and compares exactly as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import InvalidRuleSet
from .families.registry import FamilyKind, kind_named, kind_of
from .rulevalues import (
    MAX_BUDGET,
    MAX_ERROR_RATE,
    MAX_FAMILY_SIZE,
    MAX_MODULUS,
    MAX_MOVES_PER_CELL,
    MAX_MOVES_PER_ROUND,
    MAX_SIZE,
    MIN_ERROR_RATE,
    MIN_MODULUS,
    MIN_SIZE,
    Family,
    MergeLabel,
    Variant,
)
from .version import RULESET_SCHEMA_VERSION

__all__ = [
    "DEFAULT_RULES",
    "MAX_BUDGET",
    "MAX_ERROR_RATE",
    "MAX_FAMILY_SIZE",
    "MAX_MODULUS",
    "MAX_MOVES_PER_CELL",
    "MAX_MOVES_PER_ROUND",
    "MAX_SIZE",
    "MIN_ERROR_RATE",
    "MIN_MODULUS",
    "MIN_SIZE",
    "Family",
    "FamilyKind",
    "MergeLabel",
    "RuleSet",
    "Variant",
    "dict_kind",
]


@dataclass(frozen=True, slots=True)
class RuleSet:
    size: int = 7
    variant: Variant = Variant.Z10
    noise_budget: float = 6.0
    moves_per_round: int = 5
    merge_label: MergeLabel = MergeLabel.DESTINATION
    family: Family | None = None
    error_rate: float | None = None  # p, per edge and noise round (families only)
    moves_per_cell: float | None = None  # m, per noise round (sustained only)
    modulus: int | None = None  # d of Z_d (planar only)

    def __post_init__(self) -> None:
        kind = kind_named(self.family)
        object.__setattr__(self, "family", kind.family)
        size = self.size
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidRuleSet("size must be an integer")
        largest = kind.max_size
        if not MIN_SIZE <= size <= largest:
            raise InvalidRuleSet(f"size must be between {MIN_SIZE} and {largest}, got {size}")
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
        kind.check(self)

    @property
    def kind(self) -> FamilyKind:
        """The rule family's kind (``games.engine.families``): what differs between families."""
        return kind_of(self.family)

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def round_moves(self) -> int | None:
        """Moves between noise rounds: ``moves_per_round``, or ``ceil(m * L * L)``.

        ``m`` is read as the decimal it prints as (0.1 is one tenth), so that
        ``ceil`` never rounds up a product that binary floating point makes
        a hair too large. ``None`` for the one_shot and planar families (no
        second round).
        """
        return self.kind.round_moves(self)

    def to_dict(self) -> dict[str, Any]:
        return self.kind.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if not isinstance(data, dict):
            raise InvalidRuleSet("a rule set must be an object")
        schema = data.get("schema", RULESET_SCHEMA_VERSION)
        if schema != RULESET_SCHEMA_VERSION:
            raise InvalidRuleSet(f"unknown rule set schema {schema!r}")
        return cls(**dict_kind(data).fields_from_dict(data))

    @property
    def key(self) -> str:
        """A short stable text naming the rule set, e.g. ``z10-L7-b6-m5-destination``.

        Families: ``z10-oneshot-L16-p0.150``, ``z10-sustained-L16-p0.150-m1`` and
        ``z2-planar-L16-p0.100`` (the planar family's modulus d as ``zd``),
        with ``-moved`` appended for the later apps' merge labels. ``p`` shows
        at least three decimals, more when it has them (``p0.1505``).
        """
        return self.kind.key(self)


def dict_kind(data: dict[str, Any]) -> FamilyKind:
    """The kind that reads a stored rule set (``RuleSet.to_dict``), by its ``family``.

    A family no kind knows is read as a game family's (one_shot's) fields,
    so that ``RuleSet`` names the unknown family in its message.
    """
    try:
        return kind_named(data.get("family"))
    except (InvalidRuleSet, TypeError):
        return kind_of(Family.ONE_SHOT)


DEFAULT_RULES = RuleSet()
"""The original game's default rule set (L = 7, Z10, noise budget 6, a round every 5 moves).

Its parameters, not a name for "no family": that is ``family=None`` on a rule set and
``NO_FAMILY`` (``games.engine.families``) in a ``family`` column."""
