"""Writing engine games in the legacy save format.

One step per value of the clock that a player could see: the first board
at ``t = 0``, then the board after each move (after the noise round too when
the move ended a round). When a move empties the board the clock jumps to
the next round, so those steps are simply absent: the file has a gap in
``t`` there, as the legacy format allows. Phi-Lambda games are written with
``P`` and ``L`` (the values are not in the file, exactly as in the apps).

A header line before step 0 names the engine version, the rule set and the
seed, and the line of every later step's number names the move that gave
that board (``move: row 2 col 3 -> row 2 col 4``, in column E), so the file
says how to replay it exactly, even where two moves give the same boards;
readers treat both as notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ..errors import EngineError
from ..events import MoveTuple
from ..game import Board, Game
from ..replay import moves_of
from ..rules import RuleSet, Variant
from ..variants import variant_kind
from ..version import ENGINE_VERSION
from .model import (
    LegacyCell,
    LegacyRow,
    LegacySave,
    LegacyStep,
    RawLine,
)
from .writer import write_save


def _cell(variant: Variant, value: int, label: int) -> LegacyCell:
    return LegacyCell(variant_kind(variant).symbol(value), label if value else 0)


def move_note(move: MoveTuple) -> str:
    """The note naming the move that gave a step's board (``exact.named_move`` reads it)."""
    return "move: row {} col {} -> row {} col {}".format(*move)


def _step(t: int, board: Board, variant: Variant, move: MoveTuple | None = None) -> LegacyStep:
    n = board.size
    rows = [
        LegacyRow([_cell(variant, board.values[r * n + c], board.labels[r * n + c])
                   for c in range(n)])
        for r in range(n)
    ]
    head = "" if move is None else ",,,," + move_note(move)
    return LegacyStep(t=t, rows=rows, head=head, trailer=[RawLine(""), RawLine("")])


def game_steps(
    rules: RuleSet,
    seed: int,
    moves: Sequence[MoveTuple],
    *,
    engine_version: int = ENGINE_VERSION,
) -> tuple[list[tuple[int, Board]], Game]:
    """(t, board) for the first board and after every move, and the replayed game."""
    game = Game(rules, seed, record=False, engine_version=engine_version)
    steps = [(game.t, game.board())]
    for move in moves:
        game.move(*move)
        steps.append((game.t, game.board()))
    return steps, game


def game_to_legacy(
    game: Game | None = None,
    *,
    rules: RuleSet | None = None,
    seed: int | None = None,
    moves: Sequence[MoveTuple] | None = None,
    name: str = "<game>",
    newline: str = "\n",
    header: bool = True,
    engine_version: int | None = None,
) -> LegacySave:
    """The ``LegacySave`` of an engine game (see ``game_to_save``)."""
    if game is not None:
        if rules is not None or seed is not None or moves is not None:
            raise TypeError("give either a game or rules, seed and moves, not both")
        if engine_version is not None and engine_version != game.engine_version:
            raise TypeError("engine_version is the game's own")
        engine_version = game.engine_version
        if game.moves_made and not game.events:
            raise EngineError(
                "the game was played with record=False: its moves are unknown",
                code="not_recorded",
            )
        rules, seed, moves = game.rules, game.seed, moves_of(game.events)
    elif rules is None or seed is None or moves is None:
        raise TypeError("give a game, or rules, seed and moves")
    if engine_version is None:
        engine_version = ENGINE_VERSION
    # Any sequence of four numbers is a move; game_steps refuses bad ones.
    moves = [cast(MoveTuple, tuple(m)) for m in moves]
    try:
        steps, replayed = game_steps(rules, seed, moves, engine_version=engine_version)
    except EngineError:
        if game is None:
            raise
        replayed = None
    if game is not None and (
        replayed is None or replayed.t != game.t or replayed.board() != game.board()
    ):
        raise EngineError(
            "replaying the game's seed and recorded moves does not give its board: was it "
            "restored from a stored state part-way?",
            code="incomplete_record",
        )
    variant = rules.variant
    lines = []
    if header:
        lines.append(
            RawLine(
                f",,,,Decodoku Lab engine {engine_version},{rules.key},seed {seed},"
                f"moves per round {rules.moves_per_round},merge keeps the {rules.merge_label} id"
            )
        )
    return LegacySave(
        name=name,
        size=rules.size,
        variant=variant_kind(variant).saved_as,
        hard=False,
        steps=[
            _step(t, board, variant, moves[k - 1] if header and k else None)
            for k, (t, board) in enumerate(steps)
        ],
        newline=newline,
        header=lines,
    )


def game_to_save(
    game: Game | None = None,
    *,
    rules: RuleSet | None = None,
    seed: int | None = None,
    moves: Sequence[MoveTuple] | None = None,
    name: str = "<game>",
    newline: str = "\n",
    header: bool = True,
    engine_version: int | None = None,
) -> str:
    """An engine game as the text of a legacy save file.

    Pass a ``Game`` played with ``record=True`` (its moves are taken from its
    events and replayed from its seed), or ``rules``, ``seed`` and ``moves``
    (and the ``engine_version`` that played them; the current one if not given).
    """
    return write_save(
        game_to_legacy(game, rules=rules, seed=seed, moves=moves, name=name,
                       newline=newline, header=header, engine_version=engine_version)
    )
