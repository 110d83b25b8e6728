"""The analysis of one game, computed from its record without touching the database.

Two kinds of record:

- A game played on the platform (it has a seed): it is replayed through the
  engine from its rule set, seed and moves, which gives every noise error,
  every board and the true group ids. Everything is measured.
- An uploaded save file (no seed): only the boards of the file and the moves
  they reveal are stored. Survival, the boards after each noise round and
  the moves are measured; the noise itself is not in the record, so its
  counts stay unknown (None). In a Phi-Lambda file the boards show Phi and
  Lambda only: classes and bot agreement use what the player saw, and a move
  whose class depends on a Phi's value is left ``unclassified``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import (
    EngineError,
    NoiseError,
    NoiseRoundEnded,
    Regenerated,
    RuleSet,
)
from games.engine import Game as EngineGame
from games.engine.bots import BOTS, UNKNOWN, same_effect

from .moves import MoveTuple, board_shape, classify_move

ANALYSIS_VERSION = 1
"""Bump when any stored measure would change: the periodic sweep then redoes older analyses."""

REFERENCE_BOTS = ("greedy", "clustering", "player", "random")
"""Bots whose choices each move is compared with; ``random`` gives the chance level."""

COVERAGE_FULL = "full"
COVERAGE_BOARDS = "boards"
COVERAGE_PARTIAL = "partial"
COVERAGE_NONE = "none"


@dataclass(frozen=True, slots=True)
class Agreement:
    bot_name: str
    bot_version: int
    top1: bool
    top3: bool


@dataclass(frozen=True, slots=True)
class MoveReport:
    index: int
    round: int
    move_class: str
    agreements: tuple[Agreement, ...]


@dataclass(frozen=True, slots=True)
class RoundReport:
    round: int
    t: int
    errors: int | None
    new_numbers: int | None
    light_errors: int | None
    numbers: int
    largest_group_size: int
    largest_group_row_extent: int
    largest_group_col_extent: int
    max_group_extent: int


@dataclass(frozen=True)
class GameReport:
    coverage: str
    note: str
    lost: bool
    survived_rounds: int
    survived_moves: int
    score: int
    noise_errors: int | None = None
    new_numbers: int | None = None
    light_errors: int | None = None
    effective_error_rate: float | None = None
    moves: list[MoveReport] = field(default_factory=list)
    rounds: list[RoundReport] = field(default_factory=list)


def lattice_edges(size: int) -> int:
    """Edges of an open L x L lattice: the places a noise error can strike."""
    return 2 * size * (size - 1)


def error_rate(errors: int, rounds: int, size: int) -> float | None:
    """Errors per lattice edge per round: the physical error rate the noise realized."""
    if rounds <= 0:
        return None
    return errors / (rounds * lattice_edges(size))


def bot_agreements(
    values: Sequence[int],
    size: int,
    rules: RuleSet,
    move: MoveTuple,
    *,
    bots: Iterable[str] = REFERENCE_BOTS,
) -> tuple[Agreement, ...]:
    """For each bot: is ``move`` its first choice, or among its three best, on this board?

    Moves with the same effect (an annihilation either way round) match.
    Bots see the board as the player saw it (``values`` may be true values).
    """
    found = []
    for name in bots:
        bot = BOTS[name](0)
        choices = bot.rank(values, size, rules, 3)
        hits = [same_effect(values, size, rules, move, choice) for choice in choices]
        found.append(Agreement(name, int(bot.version), bool(hits[:1] and hits[0]), any(hits)))
    return tuple(found)


# -- games with a seed: a full replay -------------------------------------------------


class _RoundCounter:
    """Noise counts per round from engine events, forgetting regenerated first boards."""

    def __init__(self) -> None:
        self.counts: dict[int, list[int]] = {}  # round -> [errors, new numbers, light]
        self.ended: list[NoiseRoundEnded] = []

    def feed(self, events: Iterable[object]) -> list[NoiseRoundEnded]:
        ended: list[NoiseRoundEnded] = []
        for event in events:
            if isinstance(event, Regenerated):
                self.counts.clear()
                self.ended.clear()
                ended.clear()
            elif isinstance(event, NoiseError):
                counts = self.counts.setdefault(event.round, [0, 0, 0])
                counts[0] += 1
                if event.case == "new_pair":
                    counts[1] += 2
                elif event.case == "one_new":
                    counts[1] += 1
                else:
                    counts[2] += 1
            elif isinstance(event, NoiseRoundEnded):
                ended.append(event)
                self.ended.append(event)
        return ended


def _round_report(end: NoiseRoundEnded, counts: list[int], values: Sequence[int],
                  labels: Sequence[int], size: int) -> RoundReport:
    shape = board_shape(values, labels, size)
    return RoundReport(
        end.round, end.t, counts[0], counts[1], counts[2], shape.numbers,
        shape.largest_group_size, shape.largest_group_row_extent,
        shape.largest_group_col_extent, shape.max_group_extent,
    )


def analyse_seeded(
    *,
    rules: RuleSet,
    seed: int,
    engine_version: int,
    moves: Sequence[MoveTuple],
    lost: bool,
    bots: Iterable[str] = REFERENCE_BOTS,
) -> GameReport:
    """Replay a game and measure everything (see the module notes)."""
    bots = tuple(bots)
    try:
        game = EngineGame(rules, seed, record=True, engine_version=engine_version)
    except EngineError as exc:
        return _unanalysable(f"cannot replay: {exc}", lost=lost, moves=len(moves))
    size = rules.size
    counter = _RoundCounter()
    rounds: list[RoundReport] = []
    for end in counter.feed(game.events):
        board = game.board()
        rounds.append(_round_report(end, counter.counts.get(end.round, [0, 0, 0]),
                                    board.values, board.labels, size))
    reports: list[MoveReport] = []
    for index, move in enumerate(moves, start=1):
        board = game.board()
        round_before = game.round
        try:
            move_class = classify_move(board.values, board.labels, size, move,
                                       annihilated=_annihilates(board.values, size, move))
            agreements = bot_agreements(board.values, size, rules, move, bots=bots)
            events = game.move(*move)
        except (EngineError, ValueError) as exc:
            return _unanalysable(f"move {index} cannot be replayed: {exc}", lost=lost,
                                 moves=len(moves))
        reports.append(MoveReport(index, round_before, move_class, agreements))
        ended = counter.feed(events)
        after = game.board()
        for position, end in enumerate(ended):
            counts = counter.counts.get(end.round, [0, 0, 0])
            if position == len(ended) - 1:
                rounds.append(_round_report(end, counts, after.values, after.labels, size))
            else:
                # Another round followed at once: this one left the board empty.
                errors, new_numbers, light_errors = counts
                rounds.append(
                    RoundReport(end.round, end.t, errors, new_numbers, light_errors, 0, 0, 0, 0, 0)
                )
    errors = sum(c[0] for c in counter.counts.values())
    return GameReport(
        coverage=COVERAGE_FULL,
        note="",
        lost=lost,
        survived_rounds=game.round,
        survived_moves=game.moves_made,
        score=game.t,
        noise_errors=errors,
        new_numbers=sum(c[1] for c in counter.counts.values()),
        light_errors=sum(c[2] for c in counter.counts.values()),
        effective_error_rate=error_rate(errors, game.round, size),
        moves=reports,
        rounds=rounds,
    )


def _annihilates(values: Sequence[int], size: int, move: MoveTuple) -> bool:
    fr, fc, tr, tc = move
    moved, target = values[fr * size + fc], values[tr * size + tc]
    return bool(target) and (moved + target) % 10 == 0


def _unanalysable(note: str, *, lost: bool, moves: int) -> GameReport:
    return GameReport(COVERAGE_NONE, note[:300], lost, 0, moves, 0)


# -- uploaded save files: the stored boards ---------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredBoard:
    """A stored board: its step (the clock t), values as stored (``0``-``9``, ``P``, ``L``)."""

    step: int
    values: str
    labels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StoredMove:
    index: int
    t: int
    round: int
    move: MoveTuple
    annihilated: bool | None


def seen_values(text: str) -> tuple[int, ...]:
    """Stored board characters as values: a Phi (``P``) is ``UNKNOWN``, a Lambda (``L``) is 5."""
    out = []
    for char in text:
        if char in "PG":
            out.append(UNKNOWN)
        elif char == "L":
            out.append(5)
        else:
            out.append(int(char))
    return tuple(out)


def analyse_boards(
    *,
    rules: RuleSet,
    boards: Sequence[StoredBoard],
    moves: Sequence[StoredMove],
    lost: bool,
    rounds: int,
    moves_count: int,
    score: int,
    bots: Iterable[str] = REFERENCE_BOTS,
) -> GameReport:
    """Measure what the boards of a save file allow (see the module notes)."""
    bots = tuple(bots)
    size, per_round = rules.size, rules.moves_per_round
    if not boards:
        return _unanalysable("the record holds no board", lost=lost, moves=moves_count)
    partial = any(char in "PLG" for board in boards for char in board.values)
    by_step = {board.step: board for board in boards}
    steps = sorted(by_step)

    round_reports = []
    for step in steps:
        # Noise runs at t = 0 and after the moves that bring t to a multiple of
        # the round length, except after the losing move (the loss comes first).
        if step % per_round or (lost and step == score and step != 0):
            continue
        board = by_step[step]
        values = seen_values(board.values)
        shape = board_shape(values, board.labels, size)
        round_reports.append(RoundReport(
            step // per_round + 1, step, None, None, None, shape.numbers,
            shape.largest_group_size, shape.largest_group_row_extent,
            shape.largest_group_col_extent, shape.max_group_extent,
        ))

    move_reports = []
    for stored in moves:
        position = bisect_left(steps, stored.t)  # the last board before the move
        if position == 0:
            continue
        before = by_step[steps[position - 1]]
        values = seen_values(before.values)
        annihilated = stored.annihilated
        if annihilated is None:
            annihilated = _annihilated_from_after(by_step.get(stored.t), stored, size, per_round)
        try:
            move_class = classify_move(values, before.labels, size, stored.move,
                                       annihilated=annihilated)
            agreements = bot_agreements(values, size, rules, stored.move, bots=bots)
        except ValueError:
            continue
        move_reports.append(MoveReport(stored.index, stored.round, move_class, agreements))

    notes = ["save file: the noise is not recorded"]
    if partial:
        notes.append("Phi-Lambda boards: a Phi's value is unknown, such moves are unclassified")
    missing = moves_count - len(move_reports)
    if missing > 0:
        notes.append(f"{missing} of {moves_count} moves not revealed by the boards")
    return GameReport(
        coverage=COVERAGE_PARTIAL if partial else COVERAGE_BOARDS,
        note="; ".join(notes)[:300],
        lost=lost,
        survived_rounds=rounds,
        survived_moves=moves_count,
        score=score,
        moves=move_reports,
        rounds=round_reports,
    )


def _annihilated_from_after(after: StoredBoard | None, stored: StoredMove, size: int,
                            per_round: int) -> bool | None:
    """Whether the board after the move shows the destination emptied (None: cannot tell).

    Only boards with no noise after the move say so: noise may refill the cell.
    """
    if after is None or stored.t % per_round == 0:
        return None
    _, _, tr, tc = stored.move
    return after.values[tr * size + tc] == "0"
