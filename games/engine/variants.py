"""Variants: one kind per value of a game's ``variant`` column, in one registry.

A rule set's ``variant`` is the arithmetic of the game's numbers (``Variant``:
Z10 or Phi-Lambda). The ``variant`` column of a stored game, and a save file
of the original apps, also hold ``colors`` (a Decodoku: Colors save: group
numbers only, played by the Z10 rules) and ``planar`` (a planar game, whose
values are Z_d). ``variant_kind(value)`` gives the kind of any of these; the
kind holds all that differs between them: the rules a game of it is played
by, what the player and a record see of the numbers, how the noise draws its
errors, whether group ids are used again, and how a save file writes and
reads its cells. Code outside this module asks the kind instead of comparing
variants.

Also the alphabet of a save file's cells (``EMPTY``, ``PHI``, ``LAMBDA``,
``GROUP``), which ``games.engine.legacy.model`` exports with the rest of the
format.

Adding a variant: write its kind below (a ``VariantKind``), add its member
to ``Variant`` (``games.engine.rulevalues``) when it is an arithmetic of the
rules, and register it in ``_KINDS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from .errors import InvalidRuleSet
from .rulevalues import COLORS, Family, Variant

EMPTY = "."
PHI = "P"
LAMBDA = "L"
GROUP = "G"  # a number of unknown value: the save names only its group

# Stand-in values that reproduce a move's outcome in the engine when the save does
# not give the values (Phi-Lambda, Colors): (source, destination, result) -> values.
_STAND_INS = {
    (PHI, PHI, PHI): (1, 1),
    (PHI, PHI, LAMBDA): (1, 4),
    (PHI, PHI, EMPTY): (1, 9),
    (LAMBDA, LAMBDA, EMPTY): (5, 5),
    (PHI, LAMBDA, PHI): (1, 5),
    (LAMBDA, PHI, PHI): (5, 1),
    (GROUP, GROUP, GROUP): (1, 1),
    (GROUP, GROUP, EMPTY): (1, 9),
}
_STAND_IN_VALUE = {EMPTY: 0, PHI: 1, LAMBDA: 5, GROUP: 1}


class VariantKind:
    """One value of the ``variant`` column: what differs between the variants."""

    stored: ClassVar[str]
    """The ``variant`` column's value, and the variant a save file of it names."""
    title: ClassVar[str]
    """Its name in a sentence (``Z10``, ``Phi-Lambda``, ``Colors``, ``Planar``)."""
    plays_as: ClassVar[Variant]
    """The arithmetic (a rule set's ``variant``) a game of it is played by."""
    saved_as: ClassVar[str]
    """The variant a save file of the original apps writing its games names."""
    observed: ClassVar[str] = "values"
    """What the player and a record see of a number: ``values``, ``symbols`` (only
    whether it is Lambda, a 5, or Phi, any other) or ``groups`` (only its group)."""
    lambda_pairs: ClassVar[bool] = False
    """Whether a third of the noise's errors are a Lambda pair (5, 5)."""
    reuses_ids: ClassVar[bool] = False
    """Whether a save uses a group id again once its group is gone (a Colors save
    names each group by a colour number)."""
    default: ClassVar[bool] = False
    """Whether it is the arithmetic of a rule set that names none (labels leave it unsaid)."""
    original_game: ClassVar[bool] = True
    """Whether it is a variant of the original game (played here or read from a save);
    ``False`` for planar, whose column names its family."""
    verdict: ClassVar[str]
    """How ``check_save``'s verdict names a record of it that broke no rule."""

    @property
    def shows_values(self) -> bool:
        """Whether the player and a record see the numbers' values."""
        return self.observed == "values"

    def symbol(self, value: int) -> str:
        """How a save file writes a number of value ``value`` (0: an empty cell)."""
        return str(value) if value else EMPTY

    def merge_results(self, source: str, dest: str) -> tuple[str, ...]:
        """The symbols the destination can show after ``source`` moves onto ``dest``."""
        raise InvalidRuleSet(f"{self.title} games have no save file of the original apps")

    def stand_in_values(self, symbols: Sequence[str], source: int, dest: int,
                        result: str) -> list[int]:
        """Values that make the engine play the move ``source`` -> ``dest`` of a save's
        board (``symbols``) to ``result`` exactly as the save shows it."""
        raise InvalidRuleSet(f"{self.title} games have no save file of the original apps")

    def record_columns(self, columns: dict[str, Any]) -> dict[str, Any]:
        """The columns of a game read from a save file of this variant, from the columns
        of its rule set (``rules_columns``): a Colors record's say ``colors`` (variant
        and key); ``InvalidRuleSet`` unless the rule set is of ``plays_as``."""
        played = variant_kind(self.plays_as)
        if columns["variant"] != played.stored:
            raise InvalidRuleSet(
                f"a {self.title} record is played by the {played.title} rules, "
                f"not {columns['variant']!r}")
        key = self.stored + columns["rules_key"].removeprefix(played.stored)
        return {**columns, "variant": self.stored, "rules_key": key}

    def __repr__(self) -> str:
        return f"<VariantKind {self.stored}>"


def _hidden_stand_ins(symbols: Sequence[str], source: int, dest: int, result: str) -> list[int]:
    values = [_STAND_IN_VALUE[x] for x in symbols]
    if symbols[dest] != EMPTY:
        values[source], values[dest] = _STAND_INS[(symbols[source], symbols[dest], result)]
    return values


@cache
def _z10_results(source: str, dest: str) -> tuple[str, ...]:
    if dest == EMPTY:
        return (source,)
    value = (int(source) + int(dest)) % 10
    return (str(value) if value else EMPTY,)


@cache
def _phi_lambda_results(source: str, dest: str) -> tuple[str, ...]:
    if dest == EMPTY:
        return (source,)
    if source == LAMBDA and dest == LAMBDA:
        return (EMPTY,)  # 5 + 5 = 0
    if source == PHI and dest == PHI:
        return (PHI, LAMBDA, EMPTY)
    return (PHI,)  # 5 + (anything but 0 and 5) is neither 0 nor 5


class Z10(VariantKind):
    """The numbers 1-9 added modulo 10, all of them shown."""

    stored = saved_as = str(Variant.Z10)
    title = "Z10"
    plays_as = Variant.Z10
    default = True
    verdict = "Z10"

    def merge_results(self, source: str, dest: str) -> tuple[str, ...]:
        return _z10_results(source, dest)

    def stand_in_values(self, symbols: Sequence[str], source: int, dest: int,
                        result: str) -> list[int]:
        return [0 if x == EMPTY else int(x) for x in symbols]


class PhiLambda(VariantKind):
    """Z10 shown as Lambda (a 5) or Phi (any other number); the noise favours 5 + 5."""

    stored = saved_as = str(Variant.PHI_LAMBDA)
    title = "Phi-Lambda"
    plays_as = Variant.PHI_LAMBDA
    observed = "symbols"
    lambda_pairs = True
    verdict = "partially observed Phi-Lambda record"

    def symbol(self, value: int) -> str:
        if not value:
            return EMPTY
        return LAMBDA if value == 5 else PHI

    def merge_results(self, source: str, dest: str) -> tuple[str, ...]:
        return _phi_lambda_results(source, dest)

    def stand_in_values(self, symbols: Sequence[str], source: int, dest: int,
                        result: str) -> list[int]:
        return _hidden_stand_ins(symbols, source, dest, result)


class Colors(VariantKind):
    """A Decodoku: Colors save (and the oldest Z10 saves): Z10 games, group numbers only."""

    stored = saved_as = COLORS
    title = "Colors"
    plays_as = Variant.Z10
    observed = "groups"
    reuses_ids = True
    verdict = "groups observed Colors record"

    def symbol(self, value: int) -> str:
        return GROUP if value else EMPTY

    def merge_results(self, source: str, dest: str) -> tuple[str, ...]:
        if dest == EMPTY:
            return (source,)
        return (GROUP, EMPTY)  # the values are unknown: the sum may or may not be 0

    def stand_in_values(self, symbols: Sequence[str], source: int, dest: int,
                        result: str) -> list[int]:
        return _hidden_stand_ins(symbols, source, dest, result)


class Planar(VariantKind):
    """A planar game: its values are Z_d (the rule set's ``modulus``), all of them shown.

    Its rule set keeps the default arithmetic (Z10), which it does not use. It
    has no save file of the original apps; were its boards written as one,
    they would be digits, as in a Z10 save.
    """

    stored = str(Family.PLANAR)
    title = "Planar"
    plays_as = Variant.Z10
    saved_as = str(Variant.Z10)
    original_game = False
    verdict = "Planar"


_KINDS: dict[str, VariantKind] = {
    kind.stored: kind for kind in (Z10(), PhiLambda(), Colors(), Planar())
}


def variant_kind(stored: object) -> VariantKind:
    """The kind of a ``variant`` column's value or a rule set's ``Variant``;
    ``InvalidRuleSet`` for any other value."""
    kind = _KINDS.get(stored) if isinstance(stored, str) else None
    if kind is None:
        raise InvalidRuleSet(f"unknown variant {stored!r} (known: {', '.join(_KINDS)})")
    return kind


def variant_kinds() -> tuple[VariantKind, ...]:
    """Every registered kind, Z10 first."""
    return tuple(_KINDS.values())


__all__ = [
    "EMPTY",
    "GROUP",
    "LAMBDA",
    "PHI",
    "VariantKind",
    "variant_kind",
    "variant_kinds",
]
