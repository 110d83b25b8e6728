"""Shots of the planar family: one board decoded by a bot, reduced to its outcome.

``play_planar_shot`` plays the decoder's moves through ``PlanarGame``.
``planar_outcomes`` gives the same outcomes for many shots; for the matching
decoder it decodes all their boards in one PyMatching call and reads the
outcome from the predicted crossing instead of playing the moves (a test
checks that both agree shot by shot).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..errors import InvalidRuleSet
from ..rules import RuleSet
from ..shot import ShotOutcome
from .decoders import MatchingDecoder, get_decoder, matching_graph, play
from .game import PlanarGame
from .lattice import draw_noise, lattice


def _check(rules: RuleSet) -> tuple[int, int]:
    if not isinstance(rules, RuleSet) or rules.kind.grouped:
        raise InvalidRuleSet("a planar shot needs a rule set of the planar family")
    if rules.modulus is None:  # pragma: no cover - validated by RuleSet
        raise InvalidRuleSet("a planar rule set needs its modulus")
    return rules.size, rules.modulus


def play_planar_shot(*, rules: RuleSet, bot: str, seed: int, max_moves: int) -> ShotOutcome:
    """Decode one board with the decoder ``bot``; stopped after ``max_moves`` moves."""
    _check(rules)
    game = PlanarGame(rules, seed, record=False)
    finished = play(game, get_decoder(bot), max_moves=max_moves)
    moves = game.moves_made
    if not finished or not game.over:
        return ShotOutcome(seed=seed, failed=True, rounds=1, moves=moves, score=moves,
                           censored=True)
    return ShotOutcome(seed=seed, failed=bool(game.failed), rounds=1, moves=moves, score=moves,
                       censored=False)


def planar_outcomes(*, rules: RuleSet, bot: str, seeds: Sequence[int],
                    max_moves: int) -> list[ShotOutcome]:
    """The outcomes of the shots ``seeds``: the same as ``play_planar_shot`` one by one."""
    size, modulus = _check(rules)
    decoder = get_decoder(bot)
    if not isinstance(decoder, MatchingDecoder) or not seeds:
        return [play_planar_shot(rules=rules, bot=bot, seed=seed, max_moves=max_moves)
                for seed in seeds]
    if modulus not in decoder.moduli:
        decoder.plan((), size=size, modulus=modulus)  # raises, naming what it decodes
    geometry = lattice(size)
    rate = rules.error_rate if rules.error_rate is not None else 0.0
    syndromes = np.zeros((len(seeds), size * size), dtype=np.uint8)
    crossed = np.zeros(len(seeds), dtype=np.uint8)
    first, second, cut = geometry.first, geometry.second, geometry.cut
    for row, seed in enumerate(seeds):
        syndrome = syndromes[row]
        for edge, _ in draw_noise(size=size, modulus=2, rate=rate, seed=seed):
            a, b = first[edge], second[edge]
            if a >= 0:
                syndrome[a] ^= 1
            if b >= 0:
                syndrome[b] ^= 1
            if cut[edge] == 0:
                crossed[row] ^= 1
    predicted, weights = matching_graph(size).decode_batch(syndromes, return_weights=True)
    outcomes = []
    for row, seed in enumerate(seeds):
        moves = round(float(weights[row]))  # every edge weighs 1: one move per edge
        if moves > max_moves:
            outcomes.append(ShotOutcome(seed=seed, failed=True, rounds=1, moves=max_moves,
                                        score=max_moves, censored=True))
        else:
            failed = bool((int(crossed[row]) + int(predicted[row, 0])) & 1)
            outcomes.append(ShotOutcome(seed=seed, failed=failed, rounds=1, moves=moves,
                                        score=moves, censored=False))
    return outcomes


def hashing_bound(modulus: int) -> float:
    """The hashing bound of this noise for Z_d: p with H(p) + p log2(d - 1) = log2(d) / 2.

    Each edge is an error with probability p, of a value uniform over the
    d - 1 others; the rate of a code whose two stabiliser kinds each see
    this noise is positive below it (for d = 2: 0.1100).
    """
    if isinstance(modulus, bool) or not isinstance(modulus, int) or modulus < 2:
        raise ValueError("the modulus must be an integer of at least 2")
    target = math.log2(modulus) / 2

    def entropy(p: float) -> float:
        return -p * math.log2(p) - (1 - p) * math.log2(1 - p) + p * math.log2(modulus - 1)

    low, high = 1e-12, (modulus - 1) / modulus  # the entropy rises on this interval
    for _ in range(200):
        mid = (low + high) / 2
        if entropy(mid) < target:
            low = mid
        else:
            high = mid
    return (low + high) / 2
