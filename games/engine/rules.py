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
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .errors import InvalidRuleSet
from .version import RULESET_SCHEMA_VERSION

MIN_SIZE = 3
MAX_SIZE = 16  # the original family: the web, the API and budget sweeps
MAX_FAMILY_SIZE = 64  # the threshold families: bots and threshold sweeps
MAX_BUDGET = 100.0
MAX_MOVES_PER_ROUND = 100
# Per-edge error rates of the threshold families. A floor keeps a sustained
# game on a small board from drawing empty rounds for ever.
MIN_ERROR_RATE = 0.0001
MAX_ERROR_RATE = 1.0
MAX_MOVES_PER_CELL = 10.0
# The planar family's values live in Z_d; d = 10 is the game's own modulus.
MIN_MODULUS = 2
MAX_MODULUS = 10


class Variant(StrEnum):
    Z10 = "z10"
    PHI_LAMBDA = "phi_lambda"


class Family(StrEnum):
    """A family of rule sets for threshold studies (the original game has none)."""

    ONE_SHOT = "one_shot"
    SUSTAINED = "sustained"
    PLANAR = "planar"

    @property
    def criterion(self) -> str:
        """What a failed shot means: ``logical`` (a logical error of the planar code) or
        ``spanning`` (the game's loss rule: a group touched two opposite sides)."""
        return "logical" if self is Family.PLANAR else "spanning"


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
    family: Family | None = None
    error_rate: float | None = None  # p, per edge and noise round (families only)
    moves_per_cell: float | None = None  # m, per noise round (sustained only)
    modulus: int | None = None  # d of Z_d (planar only)

    def __post_init__(self) -> None:
        if self.family is not None:
            try:
                object.__setattr__(self, "family", Family(self.family))
            except ValueError:
                raise InvalidRuleSet(f"unknown rule family {self.family!r}") from None
        size = self.size
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidRuleSet("size must be an integer")
        largest = MAX_SIZE if self.family is None else MAX_FAMILY_SIZE
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
        self._check_family()

    def _check_family(self) -> None:
        family = self.family
        if family is None:
            if self.error_rate is not None or self.moves_per_cell is not None:
                raise InvalidRuleSet(
                    "error_rate and moves_per_cell belong to a rule family (one_shot, sustained)"
                )
            if self.modulus is not None:
                raise InvalidRuleSet("modulus belongs to the planar family")
            return
        if family is Family.PLANAR:
            self._check_planar()
        elif self.modulus is not None:
            raise InvalidRuleSet("modulus belongs to the planar family")
        if self.noise_budget != 6.0 or self.moves_per_round != 5:
            raise InvalidRuleSet(
                f"the {family} family has no noise budget or fixed moves per round: "
                "give error_rate (and moves_per_cell) instead"
            )
        rate = _number("error_rate", self.error_rate)
        if not MIN_ERROR_RATE <= rate <= MAX_ERROR_RATE:
            raise InvalidRuleSet(
                f"error_rate must be between {MIN_ERROR_RATE:g} and {MAX_ERROR_RATE:g}, "
                f"got {rate!r}"
            )
        object.__setattr__(self, "error_rate", rate)
        if family in (Family.ONE_SHOT, Family.PLANAR):
            if self.moves_per_cell is not None:
                raise InvalidRuleSet(f"the {family} family has no moves_per_cell")
            return
        per_cell = _number("moves_per_cell", self.moves_per_cell)
        if not 0 < per_cell <= MAX_MOVES_PER_CELL:
            raise InvalidRuleSet(
                f"moves_per_cell must be > 0 and <= {MAX_MOVES_PER_CELL:g}, got {per_cell!r}"
            )
        object.__setattr__(self, "moves_per_cell", per_cell)

    def _check_planar(self) -> None:
        modulus = self.modulus
        if isinstance(modulus, bool) or not isinstance(modulus, int):
            raise InvalidRuleSet("the planar family needs an integer modulus")
        if not MIN_MODULUS <= modulus <= MAX_MODULUS:
            raise InvalidRuleSet(
                f"modulus must be between {MIN_MODULUS} and {MAX_MODULUS}, got {modulus}"
            )
        if self.variant is not Variant.Z10 or self.merge_label is not MergeLabel.DESTINATION:
            # Neither applies: planar values are Z_d and a planar game has no groups.
            raise InvalidRuleSet("the planar family has no variant or merge label to choose")

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def round_moves(self) -> int | None:
        """Moves between noise rounds: ``moves_per_round``, or ``ceil(m * L * L)``.

        ``m`` is read as the decimal it prints as (0.1 is one tenth), so that
        ``ceil`` never rounds up a product that binary floating point makes
        a hair too large. ``None`` for the one_shot family (no second round).
        """
        if self.family is None:
            return self.moves_per_round
        if self.family is not Family.SUSTAINED or self.moves_per_cell is None:
            return None
        return math.ceil(Fraction(repr(self.moves_per_cell)) * self.size * self.size)

    def to_dict(self) -> dict[str, Any]:
        if self.family is Family.PLANAR:
            return {
                "schema": RULESET_SCHEMA_VERSION,
                "family": str(self.family),
                "size": self.size,
                "modulus": self.modulus,
                "error_rate": self.error_rate,
            }
        if self.family is not None:
            data: dict[str, Any] = {
                "schema": RULESET_SCHEMA_VERSION,
                "family": str(self.family),
                "size": self.size,
                "variant": str(self.variant),
                "error_rate": self.error_rate,
            }
            if self.family is Family.SUSTAINED:
                data["moves_per_cell"] = self.moves_per_cell
            data["merge_label"] = str(self.merge_label)
            return data
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
        if data.get("family") is not None:
            return cls._family_from_dict(data)
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

    @classmethod
    def _family_from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if data["family"] == Family.PLANAR:
            return cls._planar_from_dict(data)
        known = {"schema", "family", "size", "variant", "error_rate", "moves_per_cell",
                 "merge_label"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRuleSet(
                f"unknown fields for a {data['family']} rule set: {', '.join(unknown)}"
            )
        if "size" not in data or "error_rate" not in data:
            raise InvalidRuleSet("a rule family needs its size and error_rate")
        return cls(
            size=data["size"],
            variant=data.get("variant", Variant.Z10),
            merge_label=data.get("merge_label", MergeLabel.DESTINATION),
            family=data["family"],
            error_rate=data["error_rate"],
            moves_per_cell=data.get("moves_per_cell"),
        )

    @classmethod
    def _planar_from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {"schema", "family", "size", "modulus", "error_rate"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRuleSet(f"unknown fields for a planar rule set: {', '.join(unknown)}")
        missing = [name for name in ("size", "modulus", "error_rate") if name not in data]
        if missing:
            raise InvalidRuleSet(f"a planar rule set needs its {', '.join(missing)}")
        return cls(size=data["size"], family=Family.PLANAR, modulus=data["modulus"],
                   error_rate=data["error_rate"])

    @property
    def key(self) -> str:
        """A short stable text naming the rule set, e.g. ``z10-L7-b6-m5-destination``.

        Families: ``z10-oneshot-L16-p0.150``, ``z10-sustained-L16-p0.150-m1`` and
        ``z2-planar-L16-p0.100`` (the planar family's modulus d as ``zd``),
        with ``-moved`` appended for the later apps' merge labels. ``p`` shows
        at least three decimals, more when it has them (``p0.1505``).
        """
        if self.family is Family.PLANAR:
            rate = self.error_rate if self.error_rate is not None else 0.0
            return f"z{self.modulus}-planar-L{self.size}-p{_decimals(rate, 3)}"
        if self.family is not None:
            rate = self.error_rate if self.error_rate is not None else 0.0
            family = self.family.replace("_", "")
            text = f"{self.variant}-{family}-L{self.size}-p{_decimals(rate, 3)}"
            if self.family is Family.SUSTAINED and self.moves_per_cell is not None:
                text += f"-m{_decimals(self.moves_per_cell, 0)}"
            if self.merge_label is MergeLabel.MOVED:
                text += f"-{self.merge_label}"
            return text
        return (
            f"{self.variant}-L{self.size}-b{self.noise_budget:g}"
            f"-m{self.moves_per_round}-{self.merge_label}"
        )


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRuleSet(f"{name} must be a number")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidRuleSet(f"{name} must be finite")
    return number


def _decimals(value: float, least: int) -> str:
    """``value`` with ``least`` decimals, or its shortest exact form when that loses digits."""
    text = f"{value:.{least}f}"
    return text if float(text) == value else repr(value)


ORIGINAL = RuleSet()
