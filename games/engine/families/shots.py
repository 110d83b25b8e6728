"""One shot of any family played by a bot, and the rule sets of threshold studies.

A *shot* is one game of a sweep played by a bot without recording events
(``Game(record=False)``), reduced to what the statistics need
(``ShotOutcome``): for a threshold family one game of the family, for the
original game a budget game played until it is lost or has survived
``max_rounds`` rounds. The rules of the families are in ``docs/rules.md``
("Rule families for threshold studies"); seeds of threshold shots in
``seeds`` (a budget sweep's games are seeded by the sweep, ``game_seed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import LearnedWeights, get_bot
from ..errors import InvalidRuleSet
from ..game import Game
from ..planar.shots import planar_outcomes, play_planar_shot
from ..rules import RuleSet
from ..rulevalues import Family
from ..shot import ShotOutcome
from .base import ShotEngine, kind_of, parse_family
from .seeds import shot_seed

ENGINE = ShotEngine(game=Game, get_bot=get_bot, play_planar_shot=play_planar_shot,
                    planar_outcomes=planar_outcomes)
"""What the kinds play shots with (they cannot import it: it imports the rules)."""


def threshold_rules(
    *,
    family: Family | str,
    size: int,
    rate: float,
    variant: str = "z10",
    moves_per_cell: float = 1.0,
    modulus: int | None = None,
) -> RuleSet:
    """The validated rule set of a threshold family; ``InvalidRuleSet`` names what is wrong.

    ``family`` may be written ``one-shot`` as on the command line.
    ``moves_per_cell`` only matters for ``sustained`` and is ignored for
    ``one_shot``; ``modulus`` (d of Z_d, default 10) only for ``planar``.
    Sizes from 3 to 64.
    """
    kind = kind_of(parse_family(family))
    return RuleSet(**kind.threshold_fields(size=size, rate=rate, variant=variant,
                                           moves_per_cell=moves_per_cell, modulus=modulus))


def family_shot_seed(*, family: Family | str, seed: int, size: int, rate: float,
                     shot: int) -> int:
    """The seed of shot ``shot`` of a sweep of ``family``: ``shot_seed`` as the family's
    kind adapts it (for the planar family its top 63 bits, so that any planar shot can
    also be recorded as a game and replay as that game)."""
    value = shot_seed(seed=seed, size=size, rate=rate, shot=shot)
    return kind_of(parse_family(family)).shot_seed(value)


def _check(rules: RuleSet, max_rounds: int) -> None:
    if not isinstance(rules, RuleSet):
        raise InvalidRuleSet("play_shot needs a rule set")
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError("max_rounds must be a positive integer")


def play_shot(*, rules: RuleSet, bot: str, seed: int, max_rounds: int = 1000,
              weights: LearnedWeights | None = None) -> ShotOutcome:
    """Play one shot of ``rules`` with the bot named ``bot``.

    ``weights``: those of a bot that plays with given weights (``learned``).
    The game is not recorded; ``Game(rules, seed)`` with the bot seeded by
    ``bot_seed(seed)`` replays a threshold shot move for move (one_shot
    through ``decode``), with the bot seeded by ``seed`` itself a shot of the
    original game (a budget game, stopped alive after ``max_rounds`` rounds).
    A planar shot is decoded by the planar decoder ``bot`` (``PlanarGame``),
    stopped after ``max_rounds * L * L`` moves (censored, and failed).
    """
    _check(rules, max_rounds)
    return rules.kind.play_shot(rules=rules, bot=bot, seed=seed, max_rounds=max_rounds,
                                weights=weights, engine=ENGINE)


def play_shots(*, rules: RuleSet, bot: str, seeds: Sequence[int], max_rounds: int = 1000,
               weights: LearnedWeights | None = None,
               play_one: Callable[..., ShotOutcome] | None = None) -> list[ShotOutcome]:
    """The shots ``seeds`` of ``rules``, each as ``play_shot`` plays it (the planar
    matching decoder decodes them in one call). ``play_one``: what plays one shot, with
    ``play_shot``'s keywords, where the kind plays them one by one."""
    _check(rules, max_rounds)
    return rules.kind.play_shots(rules=rules, bot=bot, seeds=seeds, max_rounds=max_rounds,
                                 weights=weights, engine=ENGINE, play_one=play_one)
