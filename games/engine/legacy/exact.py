"""Saves that name their engine, rule set and seed: the exact game behind them.

``game_to_save`` (and so ``manage.py simulate``) writes a header line naming
the engine version, the rule set's key and the seed. From those the whole
game can be replayed: the first board, every noise error, merge and round,
and the loss. ``exact_game`` finds the move behind every step by trying each
legal move from the replayed board and keeping those whose outcome (the
board after the move, and after the noise round or the clock's jump that
followed) is the file's next board. The result is the replayed game with
its events, or a ``LegacyFormatError`` naming the first step where the
file and the replay disagree.

When two moves give the same board (two numbers that annihilate: either
could have moved) the boards cannot tell them apart; the step is listed in
``ExactGame.ambiguous`` with how many moves fit. ``game_to_save`` also
names the move of every step beside its step number; such a named move is
the one kept (and listed in ``ExactGame.named``), and the file is refused if
it does not give the step's board. Without the names the first fitting move
is kept: then even the events may differ from the game played, where the
noise that followed an annihilation of two groups absorbed the merged group
at once (which id survived the move is not on any board).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import EngineError
from ..events import MoveTuple
from ..game import Board, Game
from ..rules import MergeLabel, RuleSet
from ..variants import variant_kind
from ..version import SUPPORTED_ENGINE_VERSIONS
from .errors import Deadline, LegacyFormatError, check_deadline
from .model import LegacySave, LegacyStep

_HEADER = re.compile(
    r",,,,Decodoku Lab engine (?P<version>\d+),(?P<key>[a-z0-9_]+-L\d+-b[0-9.e+]+-m\d+-[a-z]+),"
    r"seed (?P<seed>\d+),moves per round (?P<per_round>\d+),"
    r"merge keeps the (?P<label>[a-z]+) id"
)


@dataclass(frozen=True, slots=True)
class Declared:
    """What a header written by ``game_to_save`` names."""

    engine_version: int
    rules_key: str
    seed: int
    moves_per_round: int
    merge_label: str
    line: int | None


@dataclass(slots=True)
class ExactGame:
    """The replayed game behind a save, its moves, and the steps a move is not certain at."""

    game: Game
    rules: RuleSet
    seed: int
    engine_version: int
    moves: list[MoveTuple] = field(default_factory=list)
    # move index (1-based) -> how many moves give the same boards, when more than one
    ambiguous: dict[int, int] = field(default_factory=dict)
    # move indexes (1-based) whose move the file names beside the step
    named: set[int] = field(default_factory=set)
    # the board at every step of the replay (0: the first board), kept as it goes
    # so that storing the game needs no second replay
    boards: list[Board] = field(default_factory=list)


_MOVE_NOTE = re.compile(r"move: row (\d{1,3}) col (\d{1,3}) -> row (\d{1,3}) col (\d{1,3})")


def named_move_note(text: str) -> MoveTuple | None:
    """The move a note written by ``export.move_note`` names; None for any other text."""
    match = _MOVE_NOTE.fullmatch(text)
    if match is None:
        return None
    return (int(match[1]), int(match[2]), int(match[3]), int(match[4]))


def named_move(step: LegacyStep) -> MoveTuple | None:
    """The move a step's notes name, if they name exactly one."""
    found = {move for move in map(named_move_note, step.comments) if move is not None}
    return found.pop() if len(found) == 1 else None


def declared(save: LegacySave) -> Declared | None:
    """The engine version, rules key and seed named in the save's header, if any."""
    for raw in save.header:
        match = _HEADER.match(raw.text)
        if match:
            return Declared(
                int(match["version"]), match["key"], int(match["seed"]),
                int(match["per_round"]), match["label"], raw.line,
            )
    return None


def _rules(save: LegacySave, found: Declared) -> RuleSet:
    budget = re.search(r"-b([0-9.e+]+)-", found.rules_key)
    try:
        rules = RuleSet(
            size=save.size,
            variant=variant_kind(save.variant).plays_as,
            noise_budget=float(budget.group(1)) if budget else 6.0,
            moves_per_round=found.moves_per_round,
            merge_label=MergeLabel(found.merge_label),
        )
    except (EngineError, ValueError) as exc:
        raise LegacyFormatError(f"the header names rules this engine cannot play: {exc}",
                                code="bad_header", line=found.line) from exc
    if rules.key != found.rules_key:
        raise LegacyFormatError(
            f"the header names the rule set {found.rules_key!r} but the file's boards are "
            f"{rules.key!r}", code="bad_header", line=found.line,
        )
    return rules


def _symbols(game: Game) -> tuple[str, ...]:
    """The replay's board as a save of its rules' variant writes it (a Colors save's
    replay is a Z10 game, written with its values)."""
    symbol = variant_kind(game.rules.variant).symbol
    return tuple(symbol(value) for value in game.values)


def _matches(game: Game, step: LegacyStep) -> bool:
    return (game.t == step.t and game.labels() == step.labels
            and _symbols(game) == step.symbols)


def _mismatch(step: LegacyStep, message: str) -> LegacyFormatError:
    return LegacyFormatError(message, code="replay_mismatch", line=step.line, step=step.t)


def exact_game(save: LegacySave, deadline: float | Deadline | None = None) -> ExactGame | None:
    """The game a save names by engine, rules and seed, replayed and checked; None if unnamed.

    Raises ``LegacyFormatError`` (code ``replay_mismatch`` or ``bad_header``)
    if the file's boards are not the replay's.
    """
    found = declared(save)
    if found is None:
        return None
    if found.engine_version not in SUPPORTED_ENGINE_VERSIONS:
        raise LegacyFormatError(
            f"the header names engine version {found.engine_version}, which this platform "
            "cannot replay", code="bad_header", line=found.line,
        )
    rules = _rules(save, found)
    game = Game(rules, found.seed, record=True, engine_version=found.engine_version)
    steps = save.steps
    if not _matches(game, steps[0]):
        raise _mismatch(steps[0], f"the first board is not the one seed {found.seed} deals")
    result = ExactGame(game, rules, found.seed, found.engine_version, boards=[game.board()])
    for step in steps[1:]:
        check_deadline(deadline, line=step.line, step=step.t)
        if game.over:
            raise _mismatch(step, "the replay's game is already lost before this step")
        state = game.to_state()
        fitting: list[MoveTuple] = []
        size = rules.size
        before = _symbols(game)
        changed = {i for i, (x, y) in enumerate(zip(before, step.symbols, strict=True))
                   if x != y}
        # Without noise or a jump in between, only the move's two cells change.
        quiet = step.t == game.t + 1 and step.t % rules.moves_per_round != 0
        for move in list(game.legal_moves()):
            source, dest = move[0] * size + move[1], move[2] * size + move[3]
            if quiet and (source not in changed or not changed <= {source, dest}):
                continue
            trial = Game.from_state(state, record=False)
            trial.move(*move)
            if _matches(trial, step):
                fitting.append(move)
        if not fitting:
            raise _mismatch(
                step, f"no move from the replay's board at t={game.t} gives this board "
                f"(seed {found.seed}): the file and its declared game disagree",
            )
        chosen = fitting[0]
        named = named_move(step)
        if named is not None:
            if named not in fitting:
                raise _mismatch(
                    step, f"the file names the move {named} for this step, but that move "
                    f"does not give this board (seed {found.seed})",
                )
            chosen = named
            result.named.add(len(result.moves) + 1)
        game.move(*chosen)
        result.moves.append(chosen)
        result.boards.append(game.board())
        if len(fitting) > 1:
            result.ambiguous[len(result.moves)] = len(fitting)
    if not game.over:
        raise _mismatch(steps[-1], "the replay is not lost at the file's last step")
    return result
