"""Threshold studies: the rule families, seeds for shots and one shot played by a bot.

A *shot* is one game of a threshold family played by a bot without
recording events (``Game(record=False)``), reduced to what the statistics
need (``ShotOutcome``). The rules of the families are in ``docs/rules.md``
("Rule families for threshold studies").

Seeds. A sweep is given one seed ``S``. Shot ``k`` of the point (L, p) takes
``shot_seed(seed=S, size=L, rate=p, shot=k)``, a pure function of those four
numbers: the same shot is the same game whichever worker plays it and however
the shots are split into chunks. The family, the bot and ``m`` are not part
of it, so two bots (or the two families) at one point face the same first
boards (common random numbers make their comparison sharper). From a shot's
seed, the noise takes the seed itself and the bot ``bot_seed(seed)``.
"""

from __future__ import annotations

import struct
from typing import Any

from .bots import LearnedWeights, get_bot
from .errors import InvalidRuleSet
from .game import Game
from .planar.shots import play_planar_shot
from .rng import MASK64
from .rules import Family, RuleSet
from .shot import ShotOutcome

__all__ = [
    "Family",
    "ShotOutcome",
    "bot_seed",
    "decode",
    "family_shot_seed",
    "play_shot",
    "shot_seed",
    "threshold_rules",
]

_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    """SplitMix64's output function: a bijection of 64-bit integers."""
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


def _absorb(state: int, word: int) -> int:
    return _mix((state ^ word) + _GOLDEN_GAMMA & MASK64)


def _family(family: Family | str) -> Family:
    if isinstance(family, Family):
        return family
    if isinstance(family, str):
        try:
            return Family(family.strip().replace("-", "_"))
        except ValueError:
            pass
    known = ", ".join(f.value for f in Family)
    raise InvalidRuleSet(f"unknown rule family {family!r} (known: {known})")


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
    chosen = _family(family)
    if chosen is Family.PLANAR:
        return RuleSet(size=size, family=chosen, error_rate=rate,
                       modulus=10 if modulus is None else modulus)
    return RuleSet(
        size=size,
        variant=variant,  # type: ignore[arg-type]  # validated by RuleSet
        family=chosen,
        error_rate=rate,
        moves_per_cell=moves_per_cell if chosen is Family.SUSTAINED else None,
    )


def shot_seed(*, seed: int, size: int, rate: float, shot: int) -> int:
    """The seed of shot ``shot`` at the point (``size``, ``rate``) of a sweep seeded ``seed``.

    Each number is absorbed into a SplitMix64 state in turn (xor, then one
    step): seed, size, the IEEE-754 bits of ``rate``, shot.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise ValueError("seed must be an integer from 0 to 2**64 - 1")
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MASK64:
        raise ValueError("size must be a non-negative integer")
    if isinstance(shot, bool) or not isinstance(shot, int) or not 0 <= shot <= MASK64:
        raise ValueError("shot must be an integer from 0 to 2**64 - 1")
    if isinstance(rate, bool) or not isinstance(rate, int | float):
        raise ValueError("rate must be a number")
    (rate_bits,) = struct.unpack("<Q", struct.pack("<d", float(rate)))
    state = seed
    for word in (size, rate_bits, shot):
        state = _absorb(state, word)
    return state


def family_shot_seed(*, family: Family | str, seed: int, size: int, rate: float,
                     shot: int) -> int:
    """The seed of shot ``shot`` of a sweep of ``family``: ``shot_seed``, and for the planar
    family its top 63 bits, so that any planar shot can also be recorded as a game (a
    game's seed is a signed 64-bit column) and replay as that game."""
    value = shot_seed(seed=seed, size=size, rate=rate, shot=shot)
    return value >> 1 if _family(family) is Family.PLANAR else value


def bot_seed(seed: int) -> int:
    """The bot's seed (for its tie-breaks) in the shot whose noise seed is ``seed``."""
    return _absorb(seed, 0xB07)


def decode(game: Game, player: Any, *, max_moves: int) -> Game:
    """Let ``player`` decode a one_shot ``game`` until it is over (or ``max_moves`` moves).

    A bot with a ``plan()`` (the clustering bot's ``FusionPlan``) decides
    through it: the plan grows its clusters once and follows them move by
    move instead of growing them again on every board. Any other player
    plays ``choose``.

    With no noise after the first round, a bot that decides from the board
    alone and meets a board again would go round the same loop for ever (a
    number stepping back and forth between two clusters). So the k-th time
    the same values come back, the bot plays its k-th preferred move
    (``rank``; its last one when it has fewer), which ends every such loop
    (a plan is then told to ``forget`` and grows its clusters again). On a
    board met for the first time it plays the plan's move or ``choose``.
    """
    make_plan = getattr(player, "plan", None)
    plan = make_plan() if callable(make_plan) else None
    choose = plan.choose if plan is not None else player.choose
    visits: dict[tuple[int, ...], int] = {}
    while not game.over and game.moves_made < max_moves:
        board = game.values
        before = visits.get(board, 0)
        visits[board] = before + 1
        if before == 0:
            move = choose(game)
        else:
            ranked = player.rank(board, game.size, game.rules, k=before + 1)
            move = ranked[min(before, len(ranked) - 1)]
            if plan is not None:
                plan.forget()
        game.move(*move)
    return game


def play_shot(*, rules: RuleSet, bot: str, seed: int, max_rounds: int = 1000,
              weights: LearnedWeights | None = None) -> ShotOutcome:
    """Play one shot of ``rules`` (a threshold family) with the bot named ``bot``.

    ``weights``: those of a bot that plays with given weights (``learned``).
    The game is not recorded; ``Game(rules, seed)`` with the bot seeded by
    ``bot_seed(seed)`` replays it move for move (one_shot through ``decode``).
    A planar shot is decoded by the planar decoder ``bot`` (``PlanarGame``),
    stopped after ``max_rounds * L * L`` moves (censored, and failed).
    """
    if not isinstance(rules, RuleSet) or rules.family is None:
        raise InvalidRuleSet("play_shot needs a rule set of a threshold family")
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError("max_rounds must be a positive integer")
    if rules.family is Family.PLANAR:
        if weights is not None:
            raise ValueError("the planar decoders play without weights")
        return play_planar_shot(rules=rules, bot=bot, seed=seed,
                                max_moves=max_rounds * rules.size * rules.size)
    player: Any = get_bot(bot, seed=bot_seed(seed), weights=weights)
    game = Game(rules, seed, record=False)
    if rules.family is Family.ONE_SHOT:
        decode(game, player, max_moves=max_rounds * rules.size * rules.size)
        return ShotOutcome(game.loss is not None, 1, game.moves_made, not game.over)
    move, choose = game.move, player.choose
    while game.loss is None and game.round <= max_rounds:
        move(*choose(game))
    if game.loss is not None:
        return ShotOutcome(True, game.round, game.moves_made, False)
    return ShotOutcome(False, max_rounds, game.moves_made, True)

