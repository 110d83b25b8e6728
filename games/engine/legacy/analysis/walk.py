"""Reading a game out of a legacy save: the moves between boards, and every rule check.

A save holds only boards. Between two consecutive steps ``t-1`` and ``t``:

* when ``t`` is not a multiple of the round length (5), exactly one legal move
  must turn the first board into the second, group ids included;
* when it is, the move was followed by a noise round, which is not recorded:
  the move is inferred as the legal move that leaves the fewest cells for the
  noise to have changed, among the moves whose outcome is consistent with the
  next board (the board after the move must not span, since the loss check
  runs before the noise, and no group id it removed may come back). That is
  a best guess, reported as ambiguous whenever another move would also fit;
* the last step is the end of the game: one move whose board spans;
* a gap in ``t`` is either the clock jumping to the next round after the
  board emptied (checked: the board before could be emptied by one move, or
  by the noise of a round, and every group after is new), or steps missing
  from the record (reported; the record is then only partially observed).

Moves are replayed with the engine itself (``Game.from_state`` + ``move``),
so group bookkeeping, merges and the loss check are the engine's. Only the
clock is left to this module, because the save says what followed the move.

Group ids are checked as far as a board sequence allows: every group sums
to 0 mod 10 (for Phi-Lambda, what can be seen of that: a group cannot hold a
single Phi and otherwise only Lambdas, nor an odd number of Lambdas alone),
a move never creates an id, an id that has disappeared never comes back,
ids made by noise are larger than every id seen before, and the ids one
round makes lie within ceil(budget) consecutive numbers (only an error of
weight 1 on two empty cells makes a group).

Which id survives a merge by a move is only a label (the iOS app kept the
destination's, the later apps the moved number's). The first merge that
shows it fixes the convention of the file; every later merge must agree.

Phi-Lambda saves hide the values (Phi is any number but 5, Lambda is 5), so
they are checked as far as symbols allow and reported as partially observed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ...errors import EngineError
from ...events import MoveTuple
from ...game import Board, Game
from ...rules import MergeLabel
from ...variants import variant_kind
from ...version import ENGINE_VERSION
from ..errors import Deadline, check_deadline
from ..model import EMPTY, GROUP, LAMBDA, PHI, PHI_LAMBDA, Z10, LegacySave, LegacyStep

MOVES_PER_ROUND = 5
NOISE_BUDGET = 6.0

# Reason codes of a violation, with what they mean.
REASONS: dict[str, str] = {
    "step_order": "step numbers must increase",
    "bad_group": "a number without a group id, or an empty cell with one",
    "group_sum": "a group whose numbers do not sum to 0 mod 10",
    "empty_first_board": "the first board holds no number",
    "first_board_spans": "the first board spans (the game would have been regenerated)",
    "not_one_move": "the change between two steps is not exactly one legal move",
    "noise_off_schedule": "noise between two steps where no noise round comes",
    "noise_too_heavy": "more new groups than one noise round can make",
    "merge_label_inconsistent": "a merge by a move keeps the id that earlier merges did not",
    "label_reused": "a group id that had disappeared comes back",
    "label_order": "a new group id that is not larger than every id seen before",
    "noise_unexplained": "no legal move followed by noise can give the next board",
    "span_not_broken": "noise made a group span and the next move left it, yet the game goes on",
    "span_mid_game": "a group spans after a move, yet the game goes on",
    "no_jump": "the board became empty but the clock did not jump to the next noise round",
    "no_final_span": "the record ends on a board where the game was not lost",
}


@dataclass(frozen=True, slots=True)
class Violation:
    """The first place where a save breaks the rules."""

    t: int
    line: int | None
    reason: str
    message: str

    def __str__(self) -> str:
        where = f"step {self.t}" + (f" (line {self.line})" if self.line is not None else "")
        return f"{where}: {self.reason}: {self.message}"


@dataclass(frozen=True, slots=True)
class InferredMove:
    """What happened between the previous step and step ``t``.

    ``move`` is (from_row, from_col, to_row, to_col), counted from 0, or
    ``None`` when no move can be named (a gap in the record, a board that no
    move explains, a move wholly hidden by the noise that followed). ``noise``
    is true when a noise round followed the move. ``candidates`` are the moves
    that explain the change best (at a noise step: those that leave the fewest
    cells for the noise to have changed); ``move`` is the first of them.
    ``ambiguous`` is true when the boards do not single the move out: several
    candidates (two numbers that annihilate: either could have moved), or, at
    a noise step, other moves that would also fit if followed by more noise.
    So a noise step's move is a best guess unless ``ambiguous`` is false.
    ``kind`` is ``"move"``, ``"move_noise"``, ``"jump"`` (the board
    emptied and the clock jumped to the next round), ``"gap"`` (steps missing
    from the record) or ``"unexplained"``. ``merge_label`` is set when this
    move showed which id survives a merge (``"moved"`` or ``"destination"``).
    """

    t: int
    line: int | None
    move: MoveTuple | None
    noise: bool
    ambiguous: bool
    candidates: tuple[MoveTuple, ...] = ()
    kind: str = "move"
    merge_label: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class Analysis:
    variant: str
    size: int
    moves: list[InferredMove] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    merge_label: MergeLabel | None = None
    merge_label_step: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def violation(self) -> Violation | None:
        return self.violations[0] if self.violations else None


# -- boards ----------------------------------------------------------------------


class _View:
    """One step's board as flat tuples, with the derived facts the checks need."""

    __slots__ = ("labels", "line", "numbers", "size", "spans", "step", "symbols", "t")

    def __init__(self, step: LegacyStep, size: int) -> None:
        self.step = step
        self.t = step.t
        self.line = step.line
        self.size = size
        self.symbols = step.symbols
        self.labels = step.labels
        self.numbers = sum(1 for s in self.symbols if s != EMPTY)
        self.spans = Board(size, (0,) * (size * size), self.labels).spanning()

    def where(self, index: int) -> str:
        row, col = divmod(index, self.size)
        return f"row {row + 1}, column {col + 1}"

    def cells_text(self, indices: list[int], limit: int = 6) -> str:
        """``(1,3), (1,4)``: cells as (row, column), counted from 1."""
        shown = [f"({i // self.size + 1},{i % self.size + 1})" for i in indices[:limit]]
        return ", ".join(shown) + (", ..." if len(indices) > limit else "")

    def line_of(self, index: int) -> int | None:
        return self.step.rows[index // self.size].line

    @property
    def label_set(self) -> set[int]:
        return set(self.labels) - {0}


@lru_cache(maxsize=32)
def _neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for index in range(size * size):
        row, col = divmod(index, size)
        found = []
        if row > 0:
            found.append(index - size)
        if row < size - 1:
            found.append(index + size)
        if col > 0:
            found.append(index - 1)
        if col < size - 1:
            found.append(index + 1)
        table.append(tuple(found))
    return tuple(table)


def _neighbours(index: int, size: int) -> tuple[int, ...]:
    """The cells next to ``index``: up, down, left, right (the engine's order)."""
    return _neighbour_table(size)[index]


class _OneMove(Game):
    """A game restored from a board of the save that plays one move and stops there.

    The loss check, the jump on an empty board and the noise round that may
    follow a move are left out: the save itself tells what followed, and
    the analysis checks it against the clock.
    """

    def _after_move(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class _Outcome:
    move: MoveTuple
    convention: MergeLabel | None  # None: the convention does not matter for this move
    labels: tuple[int, ...]
    spans: bool


@lru_cache(maxsize=16384)
def _probe(
    variant: str, size: int, symbols: tuple[str, ...], labels: tuple[int, ...],
    s: int, d: int, result: str, convention: MergeLabel,
) -> tuple[tuple[int, ...], bool] | None:
    """Play one move with the engine on a board of the save: (group ids after, spans).

    A pure function of its arguments, cached: checking the same save again
    (or a copy of it changed in one place) replays only what changed.
    """
    kind = variant_kind(variant)
    values = kind.stand_in_values(symbols, s, d, result)
    state = {
        "engine_version": ENGINE_VERSION,
        # A board whose values the save hides is played with stand-in values, by the
        # rules of its variant (Colors boards by the Z10 rules: the moves are the same).
        "rules": {"size": size, "variant": str(kind.plays_as),
                  "merge_label": str(convention)},
        "seed": "0",
        "rng": "0",
        "t": 0,
        "round": 0,
        "moves": 0,
        "next_label": max(labels, default=0) + 1,
        "values": "".join(map(str, values)),
        "labels": list(labels),
        "loss": None,
    }
    try:
        game = _OneMove.from_state(state, record=False)
        game.move(*divmod(s, size), *divmod(d, size))
    except EngineError:
        return None
    return game.labels(), bool(game.spanning_labels())


def _play(
    variant: str, size: int, prev: _View, s: int, d: int, result: str, convention: MergeLabel
) -> _Outcome | None:
    played = _probe(variant, size, prev.symbols, prev.labels, s, d, result, convention)
    if played is None:
        return None
    labels, spans = played
    ls, ld = prev.labels[s], prev.labels[d]
    merge = bool(ld) and ld != ls
    move = (*divmod(s, size), *divmod(d, size))
    return _Outcome(move, convention if merge else None, labels, spans)


_BOTH = (MergeLabel.MOVED, MergeLabel.DESTINATION)


def _outcomes(
    variant: str, size: int, prev: _View, s: int, d: int, result: str,
    conventions: tuple[MergeLabel, ...] = _BOTH,
) -> list[_Outcome]:
    """The move's outcome under each convention (one outcome when no merge happens)."""
    ls, ld = prev.labels[s], prev.labels[d]
    if not ld or ld == ls:
        conventions = conventions[:1]
    found = []
    for convention in conventions:
        outcome = _play(variant, size, prev, s, d, result, convention)
        if outcome:
            found.append(outcome)
    return found


# -- the analyser ------------------------------------------------------------------


class _Analyser:
    def __init__(
        self, save: LegacySave, moves_per_round: int, budget: float, stop_at_first: bool,
        deadline: float | Deadline | None = None,
    ) -> None:
        self.save = save
        self.deadline = deadline
        # A round stops once its weight reaches the budget, so it holds at most
        # ceil(budget) errors of weight 1, and only those make a new group.
        self.max_new_groups = math.ceil(budget)
        self.stop_at_first = stop_at_first
        self.size = save.size
        self.variant = save.variant
        self.kind = variant_kind(save.variant)
        # Colors saves name each group by a colour number, used again once free.
        self.reuses_ids = self.kind.reuses_ids
        self.per_round = moves_per_round
        self.result = Analysis(save.variant, save.size)
        self.seen: set[int] = set()
        self.max_seen = 0
        # ambiguous moves that the merge convention, once known, may settle
        self.pending: list[tuple[int, list[_Outcome], bool]] = []

    # -- reporting

    def violate(self, view: _View, reason: str, message: str, line: int | None = None) -> None:
        self.result.violations.append(
            Violation(view.t, line if line is not None else view.line, reason, message)
        )

    @property
    def conventions(self) -> tuple[MergeLabel, ...]:
        known = self.result.merge_label
        return (known,) if known else (MergeLabel.MOVED, MergeLabel.DESTINATION)

    # -- per board checks

    def check_board(self, view: _View) -> bool:
        sums: dict[int, int] = {}
        phis: dict[int, int] = {}
        lambdas: dict[int, int] = {}
        cells: dict[int, int] = {}
        for i, (symbol, label) in enumerate(zip(view.symbols, view.labels, strict=True)):
            if (symbol == EMPTY) != (label == 0):
                what = "an empty cell with group id" if label else "a number without a group id"
                self.violate(
                    view, "bad_group",
                    f"{what} {label} at {view.where(i)} (groups are numbered from 1 and only "
                    "numbers have one)",
                    view.line_of(i),
                )
                return False
            if symbol == EMPTY:
                continue
            if symbol == GROUP:
                cells[label] = cells.get(label, 0) + 1
            elif symbol == PHI:
                phis[label] = phis.get(label, 0) + 1
            elif symbol == LAMBDA:
                lambdas[label] = lambdas.get(label, 0) + 1
            else:
                sums[label] = sums.get(label, 0) + int(symbol)
        for label in sorted(sums):
            if sums[label] % 10:
                self.violate(
                    view, "group_sum",
                    f"group {label} sums to {sums[label]} ({sums[label] % 10} mod 10); every "
                    "group sums to 0 mod 10",
                    self.first_line_of(view, label),
                )
                return False
        for label in sorted(cells):
            if cells[label] == 1:
                self.violate(
                    view, "group_sum",
                    f"group {label} holds one number only: a lone number (1 to 9) cannot sum "
                    "to 0 mod 10",
                    self.first_line_of(view, label),
                )
                return False
        for label in sorted(set(phis) | set(lambdas)):
            p, lam = phis.get(label, 0), lambdas.get(label, 0)
            if p == 1 or (p == 0 and lam % 2):
                what = "one Phi and otherwise only Lambdas" if p else f"{lam} Lambdas and no Phi"
                self.violate(
                    view, "group_sum",
                    f"group {label} holds {what}: it cannot sum to 0 mod 10 (Lambda is 5, "
                    "Phi is any other number)",
                    self.first_line_of(view, label),
                )
                return False
        return True

    def first_line_of(self, view: _View, label: int) -> int | None:
        for i, other in enumerate(view.labels):
            if other == label:
                return view.line_of(i)
        return view.line

    def check_new_labels(
        self, prev: _View | None, view: _View, noise: bool, *, one_round: bool = False
    ) -> bool:
        """Ids on this board that the previous one did not have.

        ``one_round``: exactly one noise round ran in between (not several, as
        around a jump), so the new ids come from one block of at most
        ceil(budget) consecutive ids.
        """
        before = prev.label_set if prev is not None else set()
        new = sorted(view.label_set - before)
        for label in new:
            if self.reuses_ids:
                # Colors saves number groups by colour: a freed colour is used again,
                # so only when new groups may appear can be checked.
                if not noise:
                    self.violate(
                        view, "noise_off_schedule",
                        f"a new group {label} appears at step {view.t}, but noise only comes "
                        f"at multiples of {self.per_round}",
                        self.first_line_of(view, label),
                    )
                    return False
                continue
            if label in self.seen:
                self.violate(
                    view, "label_reused",
                    f"group id {label} comes back after it disappeared (ids are never reused)",
                    self.first_line_of(view, label),
                )
                return False
            if not noise:
                self.violate(
                    view, "noise_off_schedule",
                    f"a new group {label} appears at step {view.t}, but noise only comes at "
                    f"multiples of {self.per_round}",
                    self.first_line_of(view, label),
                )
                return False
            if label <= self.max_seen:
                self.violate(
                    view, "label_order",
                    f"new group id {label} is not larger than {self.max_seen}, an id already "
                    "seen (ids are handed out in order)",
                    self.first_line_of(view, label),
                )
                return False
        if one_round and new and not self.reuses_ids and new[-1] - new[0] >= self.max_new_groups:
            self.violate(
                view, "noise_too_heavy",
                f"new groups {new[0]} to {new[-1]} appeared in one noise round, which makes at "
                f"most {self.max_new_groups} groups (one per error of weight 1)",
                self.first_line_of(view, new[-1]),
            )
            return False
        return True

    def remember(self, view: _View) -> None:
        labels = view.label_set
        self.seen |= labels
        if labels:
            self.max_seen = max(self.max_seen, max(labels))

    # -- one move, no noise

    def pure_move(self, prev: _View, view: _View) -> tuple[list[_Outcome], str, str]:
        """Every (move, convention) that turns ``prev`` into ``view`` exactly.

        On failure returns no outcome, and the reason code and message.
        """
        size = self.size
        ps, cs = prev.symbols, view.symbols
        changed = [i for i in range(size * size) if ps[i] != cs[i]]
        if not changed:
            return [], "not_one_move", (
                f"the board of step {view.t} is the same as step {prev.t}'s: expected one move"
            )
        sources = [i for i in changed if ps[i] != EMPTY and cs[i] == EMPTY]
        tried: list[tuple[int, int, _Outcome]] = []
        for s in sources:
            for d in _neighbours(s, size):
                if any(i != s and i != d for i in changed):
                    continue
                if cs[d] not in self.kind.merge_results(ps[s], ps[d]):
                    continue
                tried.extend((s, d, o) for o in _outcomes(self.variant, size, prev, s, d, cs[d]))
        matching = [o for _, _, o in tried if o.labels == view.labels]
        known = self.result.merge_label
        found = [o for o in matching if o.convention in (None, known)] if known else matching
        if found:
            return found, "", ""
        if matching:
            other = matching[0].convention
            return [], "merge_label_inconsistent", (
                f"the merge of move {view.t} keeps the {other} number's group id, but since "
                f"step {self.result.merge_label_step} this save keeps the {known} number's id"
            )
        if tried:
            usable = [x for x in tried if x[2].convention in (None, known)] if known else tried
            s, d, o = (usable or tried)[0]
            i = next(i for i, (a, b) in enumerate(zip(o.labels, view.labels, strict=True))
                     if a != b)
            return [], "not_one_move", (
                f"the values fit moving {prev.where(s)} to {prev.where(d)}, but then "
                f"{view.where(i)} would be in group {o.labels[i] or 'none'}, found "
                f"{view.labels[i] or 'none'}"
            )
        new = view.label_set - prev.label_set
        cells = "row,column: " + view.cells_text(changed)
        if new:
            return [], "noise_off_schedule", (
                f"{len(changed)} cells changed ({cells}) and new group {min(new)} appeared: "
                f"noise only comes at multiples of {self.per_round}"
            )
        if len(changed) > 2:
            return [], "not_one_move", (
                f"{len(changed)} cells changed ({cells}); one move changes two neighbouring cells"
            )
        if not sources:
            return [], "not_one_move", (
                f"no number left its cell ({cells} changed); a move empties its source cell"
            )
        return [], "not_one_move", (
            f"the change ({cells}) is not a legal move: the destination must be a neighbour of "
            "the emptied cell and end up holding the sum of both numbers mod 10"
        )

    def settle_convention(self, view: _View, outcomes: list[_Outcome]) -> str | None:
        """Use a move's outcomes as evidence for the merge-label convention."""
        kinds = {o.convention for o in outcomes}
        convention = kinds.pop()
        if kinds or convention is None:
            return None  # no merge, or the move is ambiguous between the conventions
        if self.result.merge_label is None:
            self.result.merge_label = convention
            self.result.merge_label_step = view.t
        return str(convention)

    # -- the move before a noise round

    def move_then_noise(self, prev: _View, view: _View) -> tuple[list[_Outcome], bool]:
        """The moves that, followed by noise, explain ``view`` with the fewest changed cells.

        Also tells whether some other move fits as well, with more noise.
        """
        size = self.size
        ps, cs = prev.symbols, view.symbols
        base = [ps[i] != cs[i] for i in range(size * size)]
        total = sum(base)
        ranked = []
        for s in range(size * size):
            if ps[s] == EMPTY:
                continue
            for d in _neighbours(s, size):
                options = self.kind.merge_results(ps[s], ps[d])
                result = cs[d] if cs[d] in options else options[0]
                cost = total - base[s] - base[d] + (cs[s] != EMPTY) + (cs[d] != result)
                ranked.append((cost, s, d, result))
        ranked.sort()
        labels = view.label_set
        best: list[_Outcome] = []
        best_cost = None
        for cost, s, d, result in ranked:
            if best_cost is not None and cost > best_cost and len({o.move for o in best}) == 1:
                # One best move: is any other move possible with more noise?
                others = any(
                    self.fits(o, labels)
                    for o in _outcomes(self.variant, size, prev, s, d, result, self.conventions)
                )
                if others:
                    return best, True
                continue
            if best_cost is not None and cost > best_cost:
                return best, True
            for o in _outcomes(self.variant, size, prev, s, d, result, self.conventions):
                if self.fits(o, labels):
                    best.append(o)
                    best_cost = cost
        return best, False

    def fits(self, outcome: _Outcome, labels: set[int]) -> bool:
        """Can noise turn the board after this move into a board with these group ids?"""
        if outcome.spans:
            return False  # the game would have ended on this move, before any noise
        if self.reuses_ids:
            return True
        after = set(outcome.labels)
        # an id that the move removed, or that disappeared earlier, never comes back
        return not any(x not in after and x <= self.max_seen for x in labels)

    # -- the walk

    def run(self) -> Analysis:
        steps = self.save.steps
        result = self.result
        per_round = self.per_round
        first = _View(steps[0], self.size)
        if first.t != 0:
            result.gaps.append((-1, first.t))
            result.notes.append(f"the record starts at step {first.t}, not at 0")
        if self.check_board(first) and self.check_new_labels(None, first, True,
                                                             one_round=first.t == 0):
            if first.t == 0 and not first.numbers:
                self.violate(first, "empty_first_board", "the first board holds no number")
            elif first.t == 0 and first.spans:
                label = first.spans[0][0]
                self.violate(
                    first, "first_board_spans",
                    f"group {label} spans the first board; such a board is drawn again",
                )
        self.remember(first)
        prev = first
        last = len(steps) - 1
        for k in range(1, len(steps)):
            if self.stop_at_first and result.violations:
                break
            check_deadline(self.deadline, line=steps[k].line, step=steps[k].t)
            view = _View(steps[k], self.size)
            known_moves = len(result.moves)
            known_violations = len(result.violations)
            if view.t <= prev.t:
                self.violate(
                    view, "step_order",
                    f"step {view.t} follows step {prev.t}; expected a larger step number",
                )
            else:
                self.check_board(view)
                self.transition(prev, view, final=k == last)
            if len(result.moves) == known_moves:
                notes = tuple(v.message for v in result.violations[known_violations:])
                result.moves.append(
                    InferredMove(view.t, view.line, None, view.t % per_round == 0, False, (),
                                 "unexplained", None, notes)
                )
            self.remember(view)
            prev = view
        # Moves seen before the convention was known: resolve them now.
        self.resolve_pending()
        return result

    def record(self, view: _View, outcomes: list[_Outcome], *, noise: bool, kind: str,
               notes: Iterable[str] = (), merge: str | None = None,
               others: bool = False) -> None:
        moves = tuple(dict.fromkeys(o.move for o in outcomes))
        self.result.moves.append(
            InferredMove(
                view.t, view.line, moves[0] if moves else None, noise,
                len(moves) > 1 or others, moves, kind, merge, tuple(notes),
            )
        )
        if len(moves) > 1 and self.result.merge_label is None:
            self.pending.append((len(self.result.moves) - 1, outcomes, others))

    def resolve_pending(self) -> None:
        convention = self.result.merge_label
        if convention is None:
            return
        for index, outcomes, others in self.pending:
            keep = [o for o in outcomes if o.convention in (None, convention)]
            moves = tuple(dict.fromkeys(o.move for o in keep))
            old = self.result.moves[index]
            if moves and len(moves) < len(old.candidates):
                notes = old.notes
                if len(moves) == 1 and old.kind == "move":
                    notes = (f"the merge convention of this save ({convention} id kept) "
                             "tells which number moved",)
                self.result.moves[index] = InferredMove(
                    old.t, old.line, moves[0], old.noise, len(moves) > 1 or others, moves,
                    old.kind, old.merge_label, notes,
                )

    def transition(self, prev: _View, view: _View, *, final: bool) -> None:
        per_round = self.per_round
        if view.t > prev.t + 1:
            self.result.gaps.append((prev.t, view.t))
            self.gap(prev, view, final=final)
            return
        if prev.numbers == 0:
            self.violate(
                view, "no_jump",
                f"the board was empty after step {prev.t}, so the clock jumps to the next "
                f"noise round (step {self.next_round(prev.t)}); found step {view.t}",
            )
            return
        if final or view.t % per_round:
            self.single_move(prev, view, final=final)
        else:
            self.move_and_noise(prev, view)

    def single_move(self, prev: _View, view: _View, *, final: bool) -> None:
        per_round = self.per_round
        outcomes, reason, message = self.pure_move(prev, view)
        if not outcomes:
            if final and view.t % per_round == 0 and reason != "merge_label_inconsistent":
                # Not a lone move: the record stops after a noise round.
                if self.check_new_labels(prev, view, True):
                    self.violate(
                        view, "no_final_span",
                        f"the record ends at step {view.t} after a noise round; a game ends "
                        "only on a move that makes a group span",
                    )
                return
            self.violate(view, reason, message)
            return
        merge = self.settle_convention(view, outcomes)
        notes = []
        if len({o.move for o in outcomes}) > 1:
            notes.append("both numbers annihilated: either could have moved")
        self.record(view, outcomes, noise=False, kind="move", notes=notes, merge=merge)
        if final:
            if not view.spans:
                self.violate(
                    view, "no_final_span",
                    f"the record ends at step {view.t} but no group spans: the game was not "
                    "lost there",
                )
            return
        if view.spans:
            label, axis = view.spans[0]
            axis_text = axis.replace("_", "-")
            if prev.spans and prev.t % per_round == 0:
                self.violate(
                    view, "span_not_broken",
                    f"group {label} still spans ({axis_text}) after the move that follows the "
                    f"noise of step {prev.t}: the game ends here, yet the record goes on",
                )
            else:
                self.violate(
                    view, "span_mid_game",
                    f"group {label} spans ({axis_text}) after move {view.t}: the game ends "
                    "here, yet the record goes on",
                )

    def move_and_noise(self, prev: _View, view: _View) -> None:
        if not self.check_new_labels(prev, view, True, one_round=True):
            return
        outcomes, others = self.move_then_noise(prev, view)
        if not outcomes:
            self.violate(
                view, "noise_unexplained",
                f"no legal move from step {prev.t}'s board followed by noise gives this board "
                "(every move either ends the game or removes a group id that is still here)",
            )
            return
        notes = ["the move that leaves the fewest cells to the noise that followed"]
        if len({o.move for o in outcomes}) > 1:
            notes.append("several moves leave as few: the noise hides which one was made")
        if others:
            notes.append("other moves also fit, followed by more noise")
        self.record(view, outcomes, noise=True, kind="move_noise", notes=notes, others=others)

    def next_round(self, t: int) -> int:
        per_round = self.per_round
        return t + per_round - t % per_round

    def emptying_moves(self, prev: _View) -> list[_Outcome]:
        if prev.numbers != 2:
            return []
        found = []
        for s in range(self.size * self.size):
            if prev.symbols[s] == EMPTY:
                continue
            for d in _neighbours(s, self.size):
                if prev.symbols[d] != EMPTY and EMPTY in self.kind.merge_results(
                    prev.symbols[s], prev.symbols[d]
                ):
                    found.extend(
                        _outcomes(self.variant, self.size, prev, s, d, EMPTY, self.conventions)
                    )
        return found

    def gap(self, prev: _View, view: _View, *, final: bool) -> None:
        """Steps ``a+1 .. b-1`` are not in the record: a jump, or missing steps."""
        per_round = self.per_round
        a, b = prev.t, view.t
        emptying = self.emptying_moves(prev) if b % per_round == 0 else []
        noise_emptied = (a + 1) % per_round == 0
        if b % per_round == 0 and not final and (prev.numbers == 0 or emptying or noise_emptied):
            # The board emptied, the clock jumped, noise filled a fresh board.
            stale = view.label_set & prev.label_set
            if stale and (prev.numbers == 0 or emptying) and not self.reuses_ids:
                self.violate(
                    view, "label_reused",
                    f"group id {min(stale)} comes back after the board emptied",
                    self.first_line_of(view, min(stale)),
                )
                return
            if not self.check_new_labels(prev, view, True):
                return
            unknown = False
            if prev.numbers == 0:
                note = f"the board was empty at step {a}: the clock jumped to step {b}"
                outcomes: list[_Outcome] = []
            elif emptying:
                note = f"move {a + 1} emptied the board: the clock jumped to step {b}"
                outcomes = emptying
            else:
                note = (f"the noise after move {a + 1} emptied the board: the clock jumped to "
                        f"step {b}; the move itself cannot be told")
                outcomes = []
                unknown = True
            self.record(view, outcomes, noise=True, kind="jump", notes=[note], others=unknown)
            return
        self.result.notes.append(f"steps {a + 1} to {b - 1} are missing")
        noise_between = b // per_round > a // per_round  # a multiple in a+1..b
        if not self.check_new_labels(prev, view, noise_between):
            return
        self.record(view, [], noise=noise_between, kind="gap",
                    notes=[f"steps {a + 1} to {b - 1} are missing from the record"])
        if final and not view.spans:
            self.violate(
                view, "no_final_span",
                f"the record ends at step {b} but no group spans: the game was not lost there",
            )
        elif not final and view.spans and b % per_round:
            label = view.spans[0][0]
            self.violate(
                view, "span_mid_game",
                f"group {label} spans after move {b}: the game ends here, yet the record goes on",
            )


def declared_rules(save: LegacySave) -> tuple[int | None, float | None]:
    """(moves per round, noise budget) named in the header ``game_to_save`` writes, if any."""
    for raw in save.header:
        match = _DECLARED.match(raw.text)
        if match:
            return int(match.group(2)), float(match.group(1))
    return None, None


_DECLARED = re.compile(
    r",,,,Decodoku Lab engine \d+,[a-z0-9_]+-L\d+-b([0-9.e+]+)-m\d+-[a-z]+,"
    r"seed \d+,moves per round (\d+),"
)


def analyse(
    save: LegacySave,
    *,
    moves_per_round: int | None = None,
    noise_budget: float | None = None,
    stop_at_first: bool = False,
    deadline: float | Deadline | None = None,
) -> Analysis:
    """Infer the moves of a save and check it against the rules (see the module doc).

    ``moves_per_round`` and ``noise_budget`` default to those declared in a
    header written by ``game_to_save``, else to the original game's 5 and 6.
    With ``stop_at_first`` the walk ends at the first violation (``moves``
    then stops there too); otherwise every step gets an inferred move.
    ``deadline`` (a ``Deadline``, or a ``time.monotonic()`` value): past it,
    ``LegacyTimeout``.
    """
    declared_moves, declared_budget = declared_rules(save)
    if moves_per_round is None:
        moves_per_round = declared_moves or MOVES_PER_ROUND
    if noise_budget is None:
        noise_budget = declared_budget or NOISE_BUDGET
    if not save.steps:
        raise EngineError("the save holds no step", code="legacy_empty")
    if moves_per_round < 1:
        raise EngineError("moves_per_round must be at least 1", code="invalid_rule_set")
    if not noise_budget > 0:
        raise EngineError("noise_budget must be positive", code="invalid_rule_set")
    return _Analyser(save, moves_per_round, noise_budget, stop_at_first, deadline).run()


__all__ = [
    "MOVES_PER_ROUND",
    "PHI_LAMBDA",
    "REASONS",
    "Z10",
    "Analysis",
    "InferredMove",
    "Violation",
    "analyse",
    "declared_rules",
]
