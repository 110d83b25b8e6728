"""Rule sets and the game columns that store them: one converter each way.

A recorded game stores its rule set as one column per parameter (``size``,
``variant``, ``noise_budget``, ``moves_per_round``, ``merge_label``) plus its
stable key (``rules_key``). ``rules_columns`` gives those columns for a rule
set, ``rules_from_columns`` rebuilds the rule set from a game (or any row
holding the columns); ``Game.rules`` is the latter for a game.

A Colors record (``Decodoku: Colors`` and the oldest Z10 save files show
group numbers only) is played by the Z10 rules: its columns say ``colors``
(variant and key) and give the Z10 rule set back.

Rule families (``RuleSet.family``: the threshold studies' per-edge noise)
have no columns yet: they are played in sweeps, never recorded as games, and
``rules_columns`` refuses them rather than store a rule set that would replay
as another.
"""

from __future__ import annotations

from typing import Any, Protocol

from games.engine.errors import InvalidRuleSet
from games.engine.legacy.model import COLORS
from games.engine.rules import MergeLabel, RuleSet, Variant

RULES_COLUMNS = ("size", "variant", "noise_budget", "moves_per_round", "merge_label")
"""The game columns that hold a rule set's parameters (``rules_key`` holds its key)."""


class RuleColumns(Protocol):
    """Anything with the rule set's columns: a ``Game``, or a row read with ``values()``."""

    size: int
    variant: str
    noise_budget: float
    moves_per_round: int
    merge_label: str


def rules_columns(rules: RuleSet, *, colors: bool = False) -> dict[str, Any]:
    """The game columns (and ``rules_key``) that store ``rules``.

    ``colors``: the record is a Colors save file, played by the Z10 rules.
    """
    if rules.family is not None:
        raise InvalidRuleSet(
            f"rule family {rules.family} games are not recorded (only sweeps play them)"
        )
    variant, key = str(rules.variant), rules.key
    if colors:
        if rules.variant is not Variant.Z10:
            raise InvalidRuleSet("a Colors record is played by the Z10 rules")
        variant, key = COLORS, COLORS + key.removeprefix(str(Variant.Z10))
    return {
        "size": rules.size,
        "variant": variant,
        "noise_budget": rules.noise_budget,
        "moves_per_round": rules.moves_per_round,
        "merge_label": str(rules.merge_label),
        "rules_key": key,
    }


def rules_from_columns(row: RuleColumns) -> RuleSet:
    """The rule set that a game's columns store (``InvalidRuleSet`` if they hold none)."""
    try:
        variant = Variant.Z10 if row.variant == COLORS else Variant(row.variant)
        merge_label = MergeLabel(row.merge_label)
    except ValueError as exc:
        raise InvalidRuleSet(f"the columns hold no rule set: {exc}") from None
    return RuleSet(
        size=row.size,
        variant=variant,
        noise_budget=row.noise_budget,
        moves_per_round=row.moves_per_round,
        merge_label=merge_label,
    )
