"""What each kind of sweep is: one specification per family, in one registry.

A sweep plays a grid of (bot, L, x) points, N seeded games each. What
changes with the family is declared here once (``SWEEP_SPECS``, keyed by the
``Sweep.family`` value): what ``x`` is (a noise budget or an error rate), who
plays (the game's bots or the planar decoders), the sizes allowed, the
defaults, the parameters the family takes, how a rule set is built from a
point and how its games are seeded. Creating and validating a sweep
(``results.services.sweeps.create``) and playing its chunks (``run``) read
nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from games.engine import InvalidRuleSet, RuleSet
from games.engine.bots import BOTS, WEIGHTED_BOTS
from games.engine.families import (
    NO_FAMILY,
    Family,
    FamilyKind,
    family_shot_seed,
    kind_of,
    threshold_rules,
)
from games.engine.planar import DECODERS as PLANAR_DECODERS
from games.engine.rules import MAX_BUDGET, MAX_FAMILY_SIZE, MAX_SIZE
from results.analysis.sweeps import game_seed

DEFAULT_CHUNK_SIZE = 25
DEFAULT_MAX_ROUNDS = 300
DEFAULT_SHOT_MAX_ROUNDS = 1000  # sustained: rounds before a shot is censored
# one-shot: the safety stop after max_rounds * L^2 moves. A decoder that needs more
# than 3 moves per cell to clean a board is going round in circles: the shot is stopped
# and counted as censored.
DEFAULT_ONE_SHOT_MAX_ROUNDS = 3
DEFAULT_SHOT_CHUNK_SIZE = 10  # shots of big boards near threshold take seconds each
# Planar shots take milliseconds (the matching decoder decodes a chunk in one call):
# chunks this size keep a task's overhead small and still spread over the workers.
DEFAULT_PLANAR_CHUNK_SIZE = 500
DEFAULT_MOVES_PER_CELL = 1.0  # sustained
DEFAULT_MOVES_PER_ROUND = 5  # budget sweeps


class SweepError(ValueError):
    """A sweep that cannot be made or run; the message says why."""


class Versioned(Protocol):
    """A bot (a game's bot or a planar decoder): what a sweep point records of it."""

    @property
    def version(self) -> int: ...


GAME_BOTS: dict[str, Versioned] = {**BOTS, **WEIGHTED_BOTS}
"""Who plays the original game and its one-shot and sustained families: every bot.

A bot of ``WEIGHTED_BOTS`` (``learned``) is recorded with the version of the
weights it plays with (the fit's id), not its class's."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PointRules:
    """What, besides the point (L, x), makes the rule set a sweep's games are played by."""

    moves_per_round: int = DEFAULT_MOVES_PER_ROUND
    moves_per_cell: float | None = None
    modulus: int | None = None


def _budget_rules(*, size: int, value: float, params: PointRules) -> RuleSet:
    return RuleSet(size=size, noise_budget=value, moves_per_round=params.moves_per_round)


def _family_rules(family: Family) -> Callable[..., RuleSet]:
    def rules(*, size: int, value: float, params: PointRules) -> RuleSet:
        moves_per_cell = params.moves_per_cell
        return threshold_rules(
            family=family,
            size=size,
            rate=value,
            moves_per_cell=DEFAULT_MOVES_PER_CELL if moves_per_cell is None else moves_per_cell,
            modulus=params.modulus,
        )

    return rules


def _budget_seed(*, sweep_seed: int, bot_name: str, size: int, value: float, index: int) -> int:
    return game_seed(sweep_seed=sweep_seed, bot_name=bot_name, size=size, noise_budget=value,
                     index=index)


def _family_seed(family: Family) -> Callable[..., int]:
    def seed(*, sweep_seed: int, bot_name: str, size: int, value: float, index: int) -> int:
        # Not the bot: two bots at one point face the same boards (``families.seeds``).
        return family_shot_seed(family=family, seed=sweep_seed, size=size, rate=value,
                                shot=index)

    return seed


def _check_budget(value: object) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not 0 < value <= MAX_BUDGET
    ):
        raise SweepError(
            f"budgets must be numbers above 0 and at most {MAX_BUDGET:g}, got {value!r}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepSpec:
    """One kind of sweep. ``family`` is the ``Sweep.family`` value."""

    family: str
    what: str  # "sweep" or "threshold sweep", in messages
    axis: str  # the point's x: "budget" (SweepPoint.noise_budget) or "rate" (SweepPoint.rate)
    value_column: str  # the SweepPoint column that holds x
    count: str  # what is played per point: "games" or "shots"
    bots: Mapping[str, Versioned]
    bot_kind: str  # "bot" or "planar decoder", in messages
    max_size: int
    default_chunk_size: int
    default_max_rounds: int
    takes_moves_per_cell: bool = False
    takes_modulus: bool = False
    records_shots: bool = False
    rules: Callable[..., RuleSet]
    seed: Callable[..., int]
    """The seed of game ``index`` of a point (keywords ``sweep_seed``, ``bot_name``,
    ``size``, ``value``, ``index``): stored sweeps resume and replay with it."""
    check_value: Callable[[object], None] | None = None

    @property
    def engine_family(self) -> Family | None:
        """The engine's rule family, None for a budget sweep of the original game."""
        return Family(self.family) if self.family else None

    @property
    def kind(self) -> FamilyKind:
        """The engine's kind of the family (``games.engine.families``)."""
        return kind_of(self.engine_family)

    def point_rules(self, *, size: int, value: float, params: PointRules) -> RuleSet:
        """The rule set of the games at (``size``, ``value``); ``InvalidRuleSet`` if none."""
        return self.rules(size=size, value=value, params=params)

    def game_seeds(self, *, sweep_seed: int, bot_name: str, size: int, value: float,
                   first: int, last: int) -> list[int]:
        """The seeds of games ``first`` .. ``last - 1`` of the point (``bot_name``, ``size``,
        ``value``) of a sweep seeded ``sweep_seed``."""
        return [self.seed(sweep_seed=sweep_seed, bot_name=bot_name, size=size, value=value,
                          index=index) for index in range(first, last)]


SWEEP_SPECS: dict[str, SweepSpec] = {
    # A budget sweep of the original game: no family (``NO_FAMILY``).
    NO_FAMILY: SweepSpec(
        family=NO_FAMILY,
        what="sweep",
        axis="budget",
        value_column="noise_budget",
        count="games",
        bots=GAME_BOTS,
        bot_kind="bot",
        max_size=MAX_SIZE,
        default_chunk_size=DEFAULT_CHUNK_SIZE,
        default_max_rounds=DEFAULT_MAX_ROUNDS,
        rules=_budget_rules,
        seed=_budget_seed,
        check_value=_check_budget,
    ),
    Family.ONE_SHOT.value: SweepSpec(
        family=Family.ONE_SHOT.value,
        what="threshold sweep",
        axis="rate",
        value_column="rate",
        count="shots",
        bots=GAME_BOTS,
        bot_kind="bot",
        max_size=MAX_FAMILY_SIZE,
        default_chunk_size=DEFAULT_SHOT_CHUNK_SIZE,
        default_max_rounds=DEFAULT_ONE_SHOT_MAX_ROUNDS,
        rules=_family_rules(Family.ONE_SHOT),
        seed=_family_seed(Family.ONE_SHOT),
    ),
    Family.SUSTAINED.value: SweepSpec(
        family=Family.SUSTAINED.value,
        what="threshold sweep",
        axis="rate",
        value_column="rate",
        count="shots",
        bots=GAME_BOTS,
        bot_kind="bot",
        max_size=MAX_FAMILY_SIZE,
        default_chunk_size=DEFAULT_SHOT_CHUNK_SIZE,
        default_max_rounds=DEFAULT_SHOT_MAX_ROUNDS,
        takes_moves_per_cell=True,
        rules=_family_rules(Family.SUSTAINED),
        seed=_family_seed(Family.SUSTAINED),
    ),
    Family.PLANAR.value: SweepSpec(
        family=Family.PLANAR.value,
        what="threshold sweep",
        axis="rate",
        value_column="rate",
        count="shots",
        bots=PLANAR_DECODERS,
        bot_kind="planar decoder",
        max_size=MAX_FAMILY_SIZE,
        default_chunk_size=DEFAULT_PLANAR_CHUNK_SIZE,
        default_max_rounds=DEFAULT_ONE_SHOT_MAX_ROUNDS,
        takes_modulus=True,
        records_shots=True,
        rules=_family_rules(Family.PLANAR),
        seed=_family_seed(Family.PLANAR),
    ),
}


def family_spec(family: Family | str) -> SweepSpec:
    """The specification of a rule family's threshold sweep (``one-shot`` accepted).

    ``SweepError`` names the known families when ``family`` is none of them.
    """
    if isinstance(family, str) and not isinstance(family, Family):
        family = family.strip().replace("-", "_")
    spec = SWEEP_SPECS.get(str(family))
    if spec is None or not spec.kind.threshold:
        known = ", ".join(f.value for f in Family)
        raise SweepError(f"unknown rule family {family!r} (known: {known})")
    return spec


def sweep_spec(family: str) -> SweepSpec:
    """The specification of a stored sweep (its ``Sweep.family``)."""
    try:
        return SWEEP_SPECS[family]
    except KeyError:
        raise SweepError(f"unknown sweep family {family!r}") from None


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_MAX_ROUNDS",
    "DEFAULT_MOVES_PER_CELL",
    "DEFAULT_MOVES_PER_ROUND",
    "DEFAULT_ONE_SHOT_MAX_ROUNDS",
    "DEFAULT_PLANAR_CHUNK_SIZE",
    "DEFAULT_SHOT_CHUNK_SIZE",
    "DEFAULT_SHOT_MAX_ROUNDS",
    "GAME_BOTS",
    "SWEEP_SPECS",
    "InvalidRuleSet",
    "PointRules",
    "SweepError",
    "SweepSpec",
    "family_spec",
    "sweep_spec",
]
