"""What a rule family is: the ``FamilyKind`` every family's module defines, and the registry.

A rule set (``RuleSet``) names its family in ``family``: ``None`` for the
original game, a ``Family`` for a threshold family. ``kind_of(family)``
gives that family's kind, which holds all that differs between families:
which sizes it allows, how its rule sets are checked, written as a dict,
read back and named (``key``), how often noise comes, what a failed shot
means (``criterion``), how a sweep's shot seed is derived and how a shot is
played. Code outside this package asks the kind instead of comparing
families.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidRuleSet
from ..rulevalues import Family

if TYPE_CHECKING:
    from ..bots import LearnedWeights
    from ..game import Game
    from ..rules import RuleSet
    from ..shot import ShotOutcome

NO_FAMILY = ""
"""How the original game (no family) is stored: the ``family`` column of a game or sweep."""


@dataclass(frozen=True)
class ShotEngine:
    """The engine pieces a kind plays its shots with, handed to it by ``families.shots``.

    The games and the bots import the rules, which import the kinds: so the
    kinds may not import them back, and are given them instead.
    """

    game: Callable[..., Game]
    """``Game``: makes the grouped game of a rule set and seed."""
    get_bot: Callable[..., Any]
    """``bots.get_bot``: the bot named ``bot``, seeded."""
    play_planar_shot: Callable[..., ShotOutcome]
    """``planar.shots.play_planar_shot``: one planar shot decoded."""
    planar_outcomes: Callable[..., list[ShotOutcome]]
    """``planar.shots.planar_outcomes``: planar shots decoded together."""


class FamilyKind(ABC):
    """One rule family; ``family`` is ``None`` for the original game."""

    family: ClassVar[Family | None]
    max_size: ClassVar[int]
    criterion: ClassVar[str]
    """What a failed shot means: ``logical`` (a logical error of the planar code) or
    ``spanning`` (the game's loss rule: a group touched two opposite sides)."""
    threshold: ClassVar[bool] = True
    """Whether the family is a threshold family (noise per edge at a rate ``p``)."""
    single_round: ClassVar[bool] = False
    """Whether the game has one noise round only, and is won by cleaning the board."""
    grouped: ClassVar[bool] = True
    """Whether the game has groups (played by ``Game``; ``False``: by ``PlanarGame``).

    A game without groups has no score to compare either: it is judged by its
    logical outcome, and its noise (its events) stays hidden while it is played."""
    censored_in_trials: ClassVar[bool] = False
    """Whether a shot stopped by the move cap counts as a trial (a failed one) in a sweep
    point's failure rate; ``False``: it is left out of the trials."""

    @property
    def per_round(self) -> bool:
        """Whether a threshold family's shot lasts many noise rounds, so that its failure is
        measured per round (a plateau hazard) rather than per shot."""
        return self.threshold and not self.single_round

    @property
    def stored(self) -> str:
        """The ``family`` column's value for this family."""
        return NO_FAMILY if self.family is None else self.family.value

    @abstractmethod
    def check(self, rules: RuleSet) -> None:
        """Check (and normalise) the fields that belong to the family; ``InvalidRuleSet``."""

    @abstractmethod
    def to_dict(self, rules: RuleSet) -> dict[str, Any]:
        """The rule set as stored (``RuleSet.to_dict``)."""

    @abstractmethod
    def fields_from_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        """The ``RuleSet`` keyword arguments of a stored rule set; ``InvalidRuleSet``."""

    @abstractmethod
    def key(self, rules: RuleSet) -> str:
        """A short stable text naming the rule set (``RuleSet.key``)."""

    def columns(self, rules: RuleSet) -> dict[str, Any]:
        """The game columns (``games.rulesets.RULES_COLUMNS``, and ``rules_key``) that
        store ``rules``; ``InvalidRuleSet`` for a family whose games are not recorded."""
        raise InvalidRuleSet(
            f"rule family {self.family} games are not recorded (only sweeps play them); "
            "of the rule families only planar games are"
        )

    def fields_from_columns(self, row: Any) -> dict[str, Any]:
        """The ``RuleSet`` keyword arguments that a game's columns (``row``, whose
        ``family`` column is ``stored``) hold; ``InvalidRuleSet`` if they hold none."""
        raise InvalidRuleSet(f"the columns hold no rule set: family {self.stored!r}")

    @abstractmethod
    def round_moves(self, rules: RuleSet) -> int | None:
        """Moves between noise rounds; ``None`` when there is no second round."""

    def threshold_fields(self, *, size: int, rate: float, variant: str,
                         moves_per_cell: float, modulus: int | None) -> dict[str, Any]:
        """The ``RuleSet`` keyword arguments of a threshold study's point (``threshold_rules``)."""
        raise InvalidRuleSet("the original game is not a threshold family")

    def shot_seed(self, seed: int) -> int:
        """The seed a sweep's shot is played with, from its ``shot_seed``."""
        return seed

    @abstractmethod
    def play_shot(self, *, rules: RuleSet, bot: str, seed: int, max_rounds: int,
                  weights: LearnedWeights | None, engine: ShotEngine) -> ShotOutcome:
        """Play one shot of ``rules`` with the bot named ``bot`` (``families.play_shot``)."""

    def play_shots(self, *, rules: RuleSet, bot: str, seeds: Sequence[int], max_rounds: int,
                   weights: LearnedWeights | None, engine: ShotEngine,
                   play_one: Callable[..., ShotOutcome] | None = None) -> list[ShotOutcome]:
        """The shots ``seeds``, played one by one by ``play_one`` (default ``play_shot``,
        called with the same keywords but ``engine``); a kind may decode them all at once."""
        play = partial(self.play_shot, engine=engine) if play_one is None else play_one
        return [play(rules=rules, bot=bot, seed=seed, max_rounds=max_rounds, weights=weights)
                for seed in seeds]


_KINDS: dict[Family | None, FamilyKind] = {}


def register(kind: FamilyKind) -> FamilyKind:
    """Add ``kind`` to the registry (one per family)."""
    if kind.family in _KINDS:
        raise ValueError(f"the family {kind.family!r} is registered twice")
    _KINDS[kind.family] = kind
    return kind


def kind_of(family: Family | None) -> FamilyKind:
    """The kind of ``family`` (``None``: the original game)."""
    return _KINDS[family]


def kind_named(family: object) -> FamilyKind:
    """The kind of the family a rule set names in ``family``: ``None`` (the original
    game), a ``Family`` or its value; ``InvalidRuleSet`` for anything else."""
    if family is None:
        return kind_of(None)
    try:
        return kind_of(Family(family))  # type: ignore[arg-type]
    except ValueError:
        raise InvalidRuleSet(f"unknown rule family {family!r}") from None


def stored_kind(stored: object) -> FamilyKind:
    """The kind whose ``family`` column value (``FamilyKind.stored``) is ``stored``
    (``NO_FAMILY``: the original game); ``InvalidRuleSet`` if no kind's is."""
    for kind in _KINDS.values():
        if kind.stored == stored:
            return kind
    raise InvalidRuleSet(f"unknown rule family {stored!r}")


def kinds() -> tuple[FamilyKind, ...]:
    """Every registered kind, the original game first."""
    return tuple(_KINDS.values())


def parse_family(family: Family | str) -> Family:
    """``family`` as a ``Family`` (``one-shot`` accepted, as on the command line)."""
    if isinstance(family, Family):
        return family
    if isinstance(family, str):
        try:
            return Family(family.strip().replace("-", "_"))
        except ValueError:
            pass
    known = ", ".join(f.value for f in Family)
    raise InvalidRuleSet(f"unknown rule family {family!r} (known: {known})")


def number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRuleSet(f"{name} must be a number")
    result = float(value)
    if not math.isfinite(result):
        raise InvalidRuleSet(f"{name} must be finite")
    return result


def decimals(value: float, least: int) -> str:
    """``value`` with ``least`` decimals, or its shortest exact form when that loses digits."""
    text = f"{value:.{least}f}"
    return text if float(text) == value else repr(value)
