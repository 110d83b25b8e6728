"""Decoder bots: policies that play Decodoku from the values alone.

Every bot implements the engine's ``Policy`` protocol (``name``, an integer
``version``, ``choose(game)``) and can rank its preferred moves on any board
of values with ``rank(values, size, rules, k)``. Games are stored with the
bot's name and version: bump a bot's ``version`` whenever its moves change.

- ``random``: a uniformly random number moved in a random direction.
- ``greedy``: annihilate neighbouring complements, else step toward the
  nearest complement.
- ``clustering`` (``RenormalisationBot``): grow clusters until they are neutral,
  then fuse the ones nearest to spanning (a renormalisation-group decoder).
- ``player``: scores each move by the features players use.
- ``learned``: scores each move by the same features with the weights of a
  fitted model of what people do (``LearnedWeights``; its version is the
  fit's id).

``BOTS`` holds the bots made from a seed alone; ``WEIGHTED_BOTS`` the ones
that also need weights from outside the engine (``get_bot(..., weights=)``).
``BOT_NAMES`` lists both.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import MoveTuple
from ..rules import RuleSet
from .base import Bot
from .board import UNKNOWN, observe, same_effect
from .clustering import Cluster, RenormalisationBot, clusters_of, grow_clusters
from .greedy import GreedyBot
from .learned import LearnedBot, LearnedWeights, LearnedWeightsError, learned_bot
from .player import PlayerBot
from .random_bot import RandomBot

# RandomBot is the engine's RandomPolicy with a ranking, not a Bot subclass.
AnyBot = Bot | RandomBot

BOTS: dict[str, type[AnyBot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    RenormalisationBot.name: RenormalisationBot,
    PlayerBot.name: PlayerBot,
}
"""The bots made from a seed alone."""

WEIGHTED_BOTS: dict[str, type[LearnedBot]] = {
    LearnedBot.name: LearnedBot,
}
"""The bots that play with weights given to them (``get_bot(name, seed=, weights=)``)."""

BOT_NAMES: tuple[str, ...] = tuple(sorted((*BOTS, *WEIGHTED_BOTS)))
"""Every bot's name."""


def get_bot(name: str, *, seed: int = 0, weights: LearnedWeights | None = None) -> AnyBot:
    """A new bot by name, seeded for its tie-breaking.

    A bot of ``WEIGHTED_BOTS`` needs ``weights``; the others take none.
    """
    if name in WEIGHTED_BOTS:
        if weights is None:
            raise LearnedWeightsError(f"the {name} bot needs the weights of a stored fit")
        return learned_bot(weights)(seed)
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}") from None
    if weights is not None:
        raise ValueError(f"the {name} bot plays without weights")
    return cls(seed)


def bot_choices(values: Sequence[int], size: int, rules: RuleSet, *, bot: str | AnyBot,
                k: int = 3, seed: int = 0) -> list[MoveTuple]:
    """A bot's ``k`` preferred moves on a board of values, best first.

    ``bot`` is a name from ``BOTS`` (made with ``seed``) or a bot instance.
    Moves with the same effect count once; compare a player's move with
    ``same_effect`` so that annihilating a pair either way round matches.
    """
    instance = get_bot(bot, seed=seed) if isinstance(bot, str) else bot
    return instance.rank(values, size, rules, k)


__all__ = [
    "BOTS",
    "BOT_NAMES",
    "UNKNOWN",
    "WEIGHTED_BOTS",
    "Bot",
    "Cluster",
    "GreedyBot",
    "LearnedBot",
    "LearnedWeights",
    "LearnedWeightsError",
    "MoveTuple",
    "PlayerBot",
    "RandomBot",
    "RenormalisationBot",
    "bot_choices",
    "clusters_of",
    "get_bot",
    "grow_clusters",
    "learned_bot",
    "observe",
    "same_effect",
]
