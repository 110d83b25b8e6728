"""The moves the strategy model learns from, taken from one game's record (no database).

Each move becomes a ``ChoiceBoard``: the board the player saw before it, the
features of every legal move (``games.engine.strategy``), which of them are
the move made, and what each reference bot thought of every legal move.

- A game played here (it has a seed) is replayed through the engine: every
  board and every move is known, so each move has one explanation.
- An imported save file holds boards and the moves they reveal. A move the
  boards single out (``move_certain``) has one explanation; an annihilation
  has two (either number moved onto the other: the boards after are the
  same), and both count as chosen. Left out: a move hidden by the noise that
  followed it (the boards fit several moves of different effects, and which
  one was made is a guess; keeping only the fitting ones would select moves
  by what the noise left), and a move whose board before is not stored.
- Colors records (groups shown, values hidden) and planar games are not
  taken: the features need the values as the player saw them.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from games.engine import EngineError
from games.engine import Game as EngineGame
from games.engine.bots import GreedyBot, RenormalisationBot
from games.engine.bots.board import Geometry, effect, geometry, observe, tie_breaker
from games.engine.bots.player import player_score
from games.engine.events import MoveTuple
from games.engine.rules import RuleSet
from games.engine.strategy import move_features

from .games import seen_values

REFERENCE_BOTS = ("random", "greedy", "clustering", "player")

K = TypeVar("K", bound=Hashable)

SKILL_TERTILES = ("low", "middle", "high")
"""The skill cohorts: the score tertiles of the players within a rule group."""


@dataclass(frozen=True)
class ChoiceBoard:
    """One move made: the legal moves of the board before it and which were chosen."""

    moves: tuple[MoveTuple, ...]
    rows: tuple[tuple[float, ...], ...]
    chosen: tuple[int, ...]
    bot_scores: dict[str, tuple[float, ...]]  # per bot: its score of every legal move
    # The position of the move in the sequence it was read from, so that the
    # caller can tell which stored event it is (moves may be left out).
    move_index: int = -1


def _key_scores(scored: Sequence[tuple[tuple[object, ...], int, MoveTuple]],
                moves: Sequence[MoveTuple]) -> tuple[float, ...]:
    """A bot's ranking keys as scores: minus the dense rank of each move's key.

    Greedy and clustering rank moves by tuples, not numbers; moves with equal
    keys get equal scores, and the softmax of ``cross_validate`` fits how
    sharply the bot prefers one rank over the next.
    """
    keys = {move: key for key, _, move in scored}
    ranks = {key: rank for rank, key in enumerate(sorted(set(keys.values())))}
    worst = len(ranks)
    return tuple(-float(ranks[keys[m]]) if m in keys else -float(worst) for m in moves)


def bot_scores(seen: tuple[int, ...], geo: Geometry, moves: Sequence[MoveTuple],
               rows: Sequence[tuple[float, ...]]) -> dict[str, tuple[float, ...]]:
    """Every reference bot's score of every legal move (higher is better).

    The random bot picks a number, then a direction, uniformly: its score is
    the log of that probability up to the board's constant, minus the log of
    the moved number's neighbour count.
    """
    neighbours = geo.neighbours
    size = geo.size
    rng = tie_breaker(0, seen)
    greedy = GreedyBot(0).score(seen, geo, rng)
    clustering = RenormalisationBot(0).score(seen, geo, tie_breaker(0, seen))
    return {
        "random": tuple(-math.log(len(neighbours[m[0] * size + m[1]])) for m in moves),
        "greedy": _key_scores(greedy, moves),
        "clustering": _key_scores(clustering, moves),
        "player": tuple(player_score(row) for row in rows),
    }


def _board(seen: tuple[int, ...], size: int, chosen_effect: frozenset[tuple[int, int]] | None,
           move: MoveTuple, move_index: int) -> ChoiceBoard | None:
    geo = geometry(size)
    found = move_features(seen, geo)
    if len(found.moves) < 2:
        return None  # one legal move says nothing about what the player weighed
    if chosen_effect is None:
        chosen = tuple(k for k, m in enumerate(found.moves) if m == move)
    else:
        chosen = tuple(k for k, m in enumerate(found.moves)
                       if effect(seen, size, m) == chosen_effect)
    if not chosen:
        return None
    return ChoiceBoard(found.moves, found.rows, chosen,
                       bot_scores(seen, geo, found.moves, found.rows), move_index)


def seeded_choices(*, rules: RuleSet, seed: int, engine_version: int,
                   moves: Sequence[MoveTuple]) -> list[ChoiceBoard]:
    """The moves of a game played here, replayed; empty if it cannot be replayed."""
    try:
        game = EngineGame(rules, seed, record=False, engine_version=engine_version)
    except EngineError:
        return []
    boards = []
    for index, move in enumerate(moves):
        seen = observe(game.values, rules.size, rules)
        board = _board(seen, rules.size, None, move, index)
        if board is not None:
            boards.append(board)
        try:
            game.move(*move)
        except (EngineError, ValueError):
            break
    return boards


@dataclass(frozen=True)
class ImportedMove:
    t: int  # the clock after the move
    move: MoveTuple
    certain: bool
    explanations: int


def imported_choices(*, size: int, boards: dict[int, str],
                     moves: Sequence[ImportedMove]) -> list[ChoiceBoard]:
    """The moves of an imported save file that its boards fix (see the module notes).

    ``boards`` maps a step to the stored board after that many moves.
    """
    out = []
    for index, stored in enumerate(moves):
        before = boards.get(stored.t - 1)
        if before is None or "G" in before:
            continue
        seen = seen_values(before)
        if len(seen) != size * size:
            continue
        fr, fc, tr, tc = stored.move
        if not (min(stored.move) >= 0 and max(stored.move) < size and seen[fr * size + fc]):
            continue
        change = effect(seen, size, stored.move)
        annihilation = dict(change).get(tr * size + tc) == 0 and bool(seen[tr * size + tc])
        if not stored.certain and not (annihilation and stored.explanations == 2):
            continue
        board = _board(seen, size, change, stored.move, index)
        if board is not None:
            out.append(board)
    return out


def skill_tertiles(scores: Mapping[K, tuple[Hashable, float]]) -> dict[K, str]:
    """The skill tertile (``SKILL_TERTILES``) of every player, within their rule group.

    ``scores[key]`` is ``(rule group, score)``: the key is a player in one rule
    group (a player of two rule groups has a key in each). Within a group the
    players are ranked by score; a player whose mid-rank (ties share the mean
    of their ranks, 0 for the lowest) is ``r`` of ``n`` falls in tertile
    ``floor(3 r / n)``. Equal scores share a tertile; with 3m players, m fall
    in each.
    """
    groups: dict[Hashable, list[float]] = {}
    for group, score in scores.values():
        groups.setdefault(group, []).append(score)
    for members in groups.values():
        members.sort()
    found: dict[K, str] = {}
    for key, (group, score) in scores.items():
        members = groups[group]
        below = bisect.bisect_left(members, score)
        tied = bisect.bisect_right(members, score) - below
        rank = below + (tied - 1) / 2
        found[key] = SKILL_TERTILES[min(2, math.floor(3 * rank / len(members)))]
    return found
