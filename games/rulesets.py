"""Rule sets and the game columns that store them: one converter each way.

A recorded game stores its rule set as one column per parameter
(``RULES_COLUMNS``) plus its stable key (``rules_key``). ``rules_columns``
gives those columns for a rule set, ``rules_from_columns`` rebuilds the rule
set from a game (or any row holding the columns, e.g. a daily challenge);
``Game.rules`` is the latter for a game.

A Colors record (``Decodoku: Colors`` and the oldest Z10 save files show
group numbers only) is played by the Z10 rules: its columns say ``colors``
(variant and key) and give the Z10 rule set back.

The original game has ``family`` empty and no ``modulus`` or ``error_rate``.
A planar game (the planar code-capacity family) has ``family`` and
``variant`` ``planar`` (its values are Z_d, not one of the game's variants),
its ``modulus`` d and ``error_rate`` p, and no noise budget, fixed moves per
round or merge label: ``noise_budget`` and ``moves_per_round`` are 0 and
``merge_label`` is empty. The other rule families (one-shot and sustained)
are played in sweeps only: ``rules_columns`` refuses them rather than store a
rule set that would replay as another.

Which games were played by the same rules, for comparing or pooling them
(the scores' percentiles, the dashboard's cohorts), is ``RULE_GROUP_FIELDS``:
the columns that decide a game of the original rules' outcome. The merge
label is left out (only a label: the outcome never depends on it), and so is
the key, which names it. ``rule_group`` reads them from a game or a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from games.engine.errors import InvalidRuleSet
from games.engine.families import stored_kind
from games.engine.rules import Family, RuleSet
from games.engine.variants import variant_kind

RULES_COLUMNS = (
    "size",
    "variant",
    "noise_budget",
    "moves_per_round",
    "merge_label",
    "family",
    "modulus",
    "error_rate",
)
"""The game columns that hold a rule set's parameters (``rules_key`` holds its key)."""

# The family column of the original game (``NO_FAMILY``, the engine's), and of a planar game.
PLANAR_FAMILY = str(Family.PLANAR)
# The variant column of a planar game: its values are Z_d (``modulus``).
PLANAR_VARIANT = PLANAR_FAMILY


RULE_GROUP_FIELDS = ("variant", "size", "noise_budget", "moves_per_round")
"""The game columns that make games of the original rules one rule set, for comparing them."""


@dataclass(frozen=True, slots=True)
class RuleGroup:
    """The rules a game was played by, as far as its outcome goes (``RULE_GROUP_FIELDS``)."""

    variant: str
    size: int
    noise_budget: float
    moves_per_round: int

    @property
    def label(self) -> str:
        """Short text for keys and logs, e.g. ``z10-L7-b6-m5``."""
        return f"{self.variant}-L{self.size}-b{self.noise_budget:g}-m{self.moves_per_round}"


def rule_group(row: Any) -> RuleGroup:
    """The rule group of a game, or of any object with the ``RULE_GROUP_FIELDS``."""
    return RuleGroup(*(getattr(row, name) for name in RULE_GROUP_FIELDS))


class RuleColumns(Protocol):
    """Anything with the rule set's columns: a ``Game``, or a row read with ``values()``."""

    size: int
    variant: str
    noise_budget: float
    moves_per_round: int
    merge_label: str
    family: str
    modulus: int | None
    error_rate: float | None


def rules_columns(rules: RuleSet, *, saved_as: str | None = None) -> dict[str, Any]:
    """The game columns (and ``rules_key``) that store ``rules`` (its kind's ``columns``).

    ``saved_as``: the variant of the save file the game was read from (a Colors
    save is played by the Z10 rules: its columns say ``colors``).
    """
    columns = rules.kind.columns(rules)
    return columns if saved_as is None else variant_kind(saved_as).record_columns(columns)


def rules_from_columns(row: RuleColumns) -> RuleSet:
    """The rule set that a game's columns store (``InvalidRuleSet`` if they hold none)."""
    try:
        kind = stored_kind(row.family)
    except InvalidRuleSet:
        raise InvalidRuleSet(f"the columns hold no rule set: family {row.family!r}") from None
    return RuleSet(**kind.fields_from_columns(row))
