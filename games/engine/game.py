"""The Decodoku game: noise, moves, groups, the clock and the loss check.

The board is kept incrementally so that the work per event does not grow
with the board: each group is an object holding its cells and how many of
them lie on each edge, cells point at their group object, and the set of
groups that currently touch two opposite edges is updated whenever a group
changes. A merge moves the smaller group's cells into the larger one and then
gives the result the label the rules say survives, so it costs the size of
the smaller group instead of a scan of the board; the loss check is a look
at the set of spanning groups instead of a scan of the edges.

Order of random draws for one noise error (part of the engine version):
  1. the first cell, ``below(L*L)``, row-major;
  2. the axis, ``below(2)``: 0 moves along the rows (up/down), 1 along the
     columns (left/right);
  3. only when the first cell is not on the boundary of that axis, the
     direction, ``below(2)``: 1 is +1, 0 is -1 (on the boundary the step is
     forced inward and nothing is drawn);
  4. Phi-Lambda only: ``below(100) < 33`` makes the pair (5, 5);
  5. otherwise ``a = 1 + below(9)`` and ``aa = 10 - a``.

The threshold families (``RuleSet.family``) draw a noise round per edge
instead (part of the engine version too): the 2L(L-1) edges are visited in
a fixed order, for each cell row-major first the edge to its right neighbour
(if any), then the edge to the cell below (if any). For each edge:
  1. one raw 64-bit output ``r``; the edge gets an error when
     ``r < floor(p * 2**64)`` (``p`` the rule set's ``error_rate``);
  2. only for an edge with an error, the pair exactly as steps 4-5 above;
     ``a`` goes to the upper or left cell, ``aa`` to the other.
The error is then applied exactly as a budget round's error (same cases,
weights and group bookkeeping); the round has no budget and ends after the
last edge. ``one_shot`` draws one such round and no other; ``sustained``
draws one at t = 0 and then every ``ceil(m * L * L)`` moves.

Group ids are numbered 1, 2, 3, ... in the order the groups are made. A first
board that spans or is empty is drawn again (``Regenerated``); since engine
version 2 the next board's groups continue the numbering, so one id names
one group in the whole game (version 1 started again at 1, see version.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import EngineError, IllegalMove, InvalidRuleSet, InvalidState, UnknownEngineVersion
from .events import (
    Event,
    GroupMerge,
    JumpAhead,
    Loss,
    Move,
    MoveTuple,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    Regenerated,
)
from .rng import MASK64, SplitMix64, rejection_limit
from .rules import DEFAULT_RULES, MergeLabel, RuleSet
from .variants import variant_kind
from .version import ENGINE_VERSION, SUPPORTED_ENGINE_VERSIONS, UNIQUE_GROUP_IDS_SINCE

# A rule set whose first board nearly always spans (a tiny grid with a huge
# budget) would otherwise regenerate forever.
MAX_REGENERATIONS = 10_000

_TOP, _BOTTOM, _LEFT, _RIGHT = 1, 2, 4, 8

Cell = tuple[int, int]


_EDGE_MASKS: dict[int, tuple[int, ...]] = {}
_EDGE_LISTS: dict[int, tuple[tuple[int, int], ...]] = {}

# A one_shot game never reaches a second noise round: its clock never meets this.
_NEVER = 1 << 62


def edge_list(size: int) -> tuple[tuple[int, int], ...]:
    """The board's 2L(L-1) edges in the order a per-edge noise round visits them.

    For each cell, row-major: the edge to its right neighbour, then the edge
    to the cell below; each edge as (upper or left cell, the other cell).
    """
    edges = _EDGE_LISTS.get(size)
    if edges is None:
        found = []
        for i in range(size * size):
            row, col = divmod(i, size)
            if col < size - 1:
                found.append((i, i + 1))
            if row < size - 1:
                found.append((i, i + size))
        edges = _EDGE_LISTS[size] = tuple(found)
    return edges


def _edge_masks(size: int) -> tuple[int, ...]:
    """For each cell, row-major, the edges it lies on (shared by every game of this size)."""
    edges = _EDGE_MASKS.get(size)
    if edges is None:
        masks = []
        for i in range(size * size):
            row, col = divmod(i, size)
            mask = 0
            if row == 0:
                mask |= _TOP
            if row == size - 1:
                mask |= _BOTTOM
            if col == 0:
                mask |= _LEFT
            if col == size - 1:
                mask |= _RIGHT
            masks.append(mask)
        edges = _EDGE_MASKS[size] = tuple(masks)
    return edges


class _Group:
    __slots__ = ("bottom", "cells", "label", "left", "right", "top")

    def __init__(self, label: int) -> None:
        self.label = label
        self.cells: set[int] = set()
        self.top = self.bottom = self.left = self.right = 0


@dataclass(frozen=True, slots=True)
class Board:
    """A snapshot: values and group ids, row-major, ``size * size`` of each."""

    size: int
    values: tuple[int, ...]
    labels: tuple[int, ...]

    def value(self, row: int, col: int) -> int:
        return self.values[row * self.size + col]

    def label(self, row: int, col: int) -> int:
        return self.labels[row * self.size + col]

    def rows(self) -> list[list[int]]:
        n = self.size
        return [list(self.values[r * n : (r + 1) * n]) for r in range(n)]

    def label_rows(self) -> list[list[int]]:
        n = self.size
        return [list(self.labels[r * n : (r + 1) * n]) for r in range(n)]

    @property
    def numbers(self) -> int:
        return sum(1 for v in self.values if v)

    def spanning(self) -> list[tuple[int, str]]:
        """Every (group id, axis) that touches two opposite edges, by a plain scan."""
        n = self.size
        top = {self.labels[c] for c in range(n)} - {0}
        bottom = {self.labels[(n - 1) * n + c] for c in range(n)} - {0}
        left = {self.labels[r * n] for r in range(n)} - {0}
        right = {self.labels[r * n + n - 1] for r in range(n)} - {0}
        found = []
        for label in sorted((top & bottom) | (left & right)):
            found.append((label, _axis(label in top and label in bottom,
                                       label in left and label in right)))
        return found


def _axis(top_bottom: bool, left_right: bool) -> str:
    if top_bottom and left_right:
        return "both"
    return "top_bottom" if top_bottom else "left_right"


class Game:
    """One game, from its first noise round to its loss.

    ``record=False`` skips building event objects; bots sweeping millions of
    rounds use it. Everything else behaves identically.

    ``engine_version`` plays a game as that version of the engine did (see
    ``version.py``); new games use ``ENGINE_VERSION``, replays of stored games
    the version they were recorded with.
    """

    def __init__(
        self,
        rules: RuleSet = DEFAULT_RULES,
        seed: int = 0,
        *,
        record: bool = True,
        engine_version: int = ENGINE_VERSION,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError("rules must be a RuleSet")
        if not rules.kind.grouped:
            raise InvalidRuleSet("a planar rule set is played by games.engine.planar.PlanarGame")
        self.rules = rules
        self.seed = seed
        self._set_engine_version(engine_version)
        self._rng = SplitMix64(seed)
        self._record = record
        self.events: list[Event] = []
        self._setup_geometry()
        self._clear_board()
        self.t = 0
        self.round = 0
        self.moves_made = 0
        self.loss: Loss | None = None
        self._start()

    # -- set-up ---------------------------------------------------------------

    def _set_engine_version(self, version: int) -> None:
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or version not in SUPPORTED_ENGINE_VERSIONS
        ):
            raise UnknownEngineVersion(f"no engine can play version {version!r}")
        self.engine_version = version
        # Version 1 numbered the groups of a regenerated first board from 1 again.
        self._restart_labels = version < UNIQUE_GROUP_IDS_SINCE

    def _setup_geometry(self) -> None:
        size = self.rules.size
        self._size = size
        self._ncells = size * size
        self._edges = _edge_masks(size)
        kind = self.rules.kind
        self._threshold = kind.threshold
        self._one_shot = kind.single_round
        per_round = self.rules.round_moves
        self._per_round = per_round if per_round is not None else _NEVER
        if kind.threshold:
            rate = self.rules.error_rate or 0.0
            # p * 2**64 is exact in binary floating point; int() takes its floor.
            self._edge_limit = int(rate * 18446744073709551616.0)

    def _clear_board(self) -> None:
        self._values = [0] * self._ncells
        self._groups: list[_Group | None] = [None] * self._ncells
        self._spanning: set[_Group] = set()
        self._numbers = 0
        self._next_label = 1

    def _start(self) -> None:
        if self._threshold:
            self._start_family()
            return
        attempt = 0
        while True:
            self._noise_round()
            if self._numbers and not self._spanning:
                return
            attempt += 1
            if attempt > MAX_REGENERATIONS:
                raise EngineError(
                    f"the first board spanned {MAX_REGENERATIONS} times in a row: "
                    "this rule set is not playable",
                    code="unplayable_rule_set",
                )
            reason = "spanning" if self._spanning else "empty"
            next_label = self._next_label
            self._clear_board()
            if not self._restart_labels:
                self._next_label = next_label
            self.round = 0
            if self._record:
                self.events.append(Regenerated(0, 0, attempt, reason))

    def _start_family(self) -> None:
        """The threshold families never regenerate a first board (it would bias them).

        one_shot: a first board that spans is a failure at once (t = 0); an
        empty one is already clean. sustained: the first board is the first
        round's; an empty one skips to the next round as any empty round does.
        """
        self._noise_round()
        if self._one_shot:
            if self._spanning:
                self._declare_loss()
            return
        while self._numbers == 0:
            self._jump(self.t + self._per_round, "empty_after_noise")
            self._noise_round()

    # -- group bookkeeping ----------------------------------------------------

    def _touch(self, group: _Group) -> None:
        if (group.top and group.bottom) or (group.left and group.right):
            self._spanning.add(group)
        else:
            self._spanning.discard(group)

    def _join(self, group: _Group, cell: int) -> None:
        group.cells.add(cell)
        self._groups[cell] = group
        mask = self._edges[cell]
        if mask:
            if mask & _TOP:
                group.top += 1
            if mask & _BOTTOM:
                group.bottom += 1
            if mask & _LEFT:
                group.left += 1
            if mask & _RIGHT:
                group.right += 1
            self._touch(group)

    def _leave(self, group: _Group, cell: int) -> None:
        group.cells.discard(cell)
        self._groups[cell] = None
        mask = self._edges[cell]
        if mask:
            if mask & _TOP:
                group.top -= 1
            if mask & _BOTTOM:
                group.bottom -= 1
            if mask & _LEFT:
                group.left -= 1
            if mask & _RIGHT:
                group.right -= 1
            self._touch(group)

    def _shift(self, group: _Group, src: int, dst: int) -> None:
        """``_leave(group, src)`` then ``_join(group, dst)``, in one step: most moves do this."""
        cells = group.cells
        cells.discard(src)
        cells.add(dst)
        groups = self._groups
        groups[src] = None
        groups[dst] = group
        edges = self._edges
        out_mask, in_mask = edges[src], edges[dst]
        if out_mask != in_mask:
            for bit, sign in ((out_mask, -1), (in_mask, 1)):
                if bit & _TOP:
                    group.top += sign
                if bit & _BOTTOM:
                    group.bottom += sign
                if bit & _LEFT:
                    group.left += sign
                if bit & _RIGHT:
                    group.right += sign
            self._touch(group)

    def _merge(self, surviving: _Group, absorbed: _Group) -> _Group:
        """Merge two distinct groups; the result carries ``surviving.label``.

        The caller records the ``GroupMerge`` event right after the event of
        the noise error or move that caused the merge, once that error or move
        is complete, so that the event stream stays in causal order.
        """
        label = surviving.label
        if len(surviving.cells) >= len(absorbed.cells):
            big, small = surviving, absorbed
        else:
            big, small = absorbed, surviving
        groups = self._groups
        for cell in small.cells:
            groups[cell] = big
        big.cells |= small.cells
        big.top += small.top
        big.bottom += small.bottom
        big.left += small.left
        big.right += small.right
        big.label = label
        self._spanning.discard(small)
        self._touch(big)
        return big

    # -- noise ----------------------------------------------------------------

    def _noise_round(self) -> None:
        if self._threshold:
            self._edge_noise_round()
            return
        self.round += 1
        t, rnd, record = self.t, self.round, self._record
        events = self.events
        if record:
            events.append(NoiseRoundStarted(t, rnd))
        # The draws are below(L*L), below(2), below(100) and below(9) written
        # out (see SplitMix64.outputs): a power of two never rejects an output.
        rng = self._rng
        draw = rng.outputs()
        size, ncells = self._size, self._ncells
        cells_limit, nine_limit = rejection_limit(ncells), rejection_limit(9)
        hundred_limit = rejection_limit(100)
        last = size - 1
        values, groups = self._values, self._groups
        lambda_pairs = variant_kind(self.rules.variant).lambda_pairs
        budget = self.rules.noise_budget
        weight = 0.0
        errors = 0
        while weight < budget:
            r = draw()
            if r >= cells_limit:
                r = rng.redraw(cells_limit)
            i1 = r % ncells
            row, col = divmod(i1, size)
            if draw() & 1 == 0:
                if row == 0:
                    i2 = i1 + size
                elif row == last:
                    i2 = i1 - size
                else:
                    i2 = i1 + size if draw() & 1 else i1 - size
            elif col == 0:
                i2 = i1 + 1
            elif col == last:
                i2 = i1 - 1
            else:
                i2 = i1 + 1 if draw() & 1 else i1 - 1
            if lambda_pairs:
                r = draw()
                if r >= hundred_limit:
                    r = rng.redraw(hundred_limit)
                lambda_pair = r % 100 < 33
            else:
                lambda_pair = False
            if lambda_pair:
                a = 5
            else:
                r = draw()
                if r >= nine_limit:
                    r = rng.redraw(nine_limit)
                a = 1 + r % 9
            aa = 10 - a
            v1, v2 = values[i1], values[i2]
            g1, g2 = groups[i1], groups[i2]
            if record:
                label1 = g1.label if g1 is not None else 0
                label2 = g2.label if g2 is not None else 0
            n1, n2 = (v1 + a) % 10, (v2 + aa) % 10
            values[i1], values[i2] = n1, n2
            if v1 == 0 and v2 == 0:
                case, w = "new_pair", 1.0
                group = _Group(self._next_label)
                self._next_label += 1
                self._join(group, i1)
                self._join(group, i2)
                self._numbers += 2
            elif v1 == 0 or v2 == 0:
                case, w = "one_new", 1.0
                if v1 == 0:
                    self._join(g2, i1)  # type: ignore[arg-type]  # a number always has a group
                    if n2 == 0:
                        self._leave(g2, i2)  # type: ignore[arg-type]  # a number always has a group
                    else:
                        self._numbers += 1
                else:
                    self._join(g1, i2)  # type: ignore[arg-type]  # a number always has a group
                    if n1 == 0:
                        self._leave(g1, i1)  # type: ignore[arg-type]  # a number always has a group
                    else:
                        self._numbers += 1
            else:
                case, w = "both_occupied", 0.1
                group = g1 if g1 is g2 else self._merge(g1, g2)  # type: ignore[assignment, arg-type]  # a number always has a group
                if n1 == 0:
                    self._leave(group, i1)
                    self._numbers -= 1
                if n2 == 0:
                    self._leave(group, i2)
                    self._numbers -= 1
            weight += w
            errors += 1
            if record:
                after1, after2 = groups[i1], groups[i2]
                events.append(
                    NoiseError(
                        t, rnd, errors, row, col, *divmod(i2, size), a, aa, case, w, weight,
                        v1, v2, n1, n2, label1, label2,
                        after1.label if after1 is not None else 0,
                        after2.label if after2 is not None else 0,
                    )
                )
                if g1 is not g2 and case == "both_occupied":
                    events.append(
                        GroupMerge(t, rnd, "noise", label1, label2, len(group.cells))
                    )
        if record:
            events.append(NoiseRoundEnded(t, rnd, errors, weight, self._numbers))

    def _edge_noise_round(self) -> None:
        """A noise round of the threshold families: each edge independently (see the notes)."""
        self.round += 1
        t, rnd, record = self.t, self.round, self._record
        events = self.events
        if record:
            events.append(NoiseRoundStarted(t, rnd))
        rng = self._rng
        draw = rng.outputs()
        limit = self._edge_limit
        nine_limit, hundred_limit = rejection_limit(9), rejection_limit(100)
        lambda_pairs = variant_kind(self.rules.variant).lambda_pairs
        weight = 0.0
        errors = 0
        for i1, i2 in edge_list(self._size):
            if draw() >= limit:
                continue
            if lambda_pairs:
                r = draw()
                if r >= hundred_limit:
                    r = rng.redraw(hundred_limit)
                if r % 100 < 33:
                    errors += 1
                    weight = self._apply_error(i1, i2, 5, 5, errors, weight)
                    continue
            r = draw()
            if r >= nine_limit:
                r = rng.redraw(nine_limit)
            a = 1 + r % 9
            errors += 1
            weight = self._apply_error(i1, i2, a, 10 - a, errors, weight)
        if record:
            events.append(NoiseRoundEnded(t, rnd, errors, weight, self._numbers))

    def _apply_error(
        self, i1: int, i2: int, a: int, aa: int, index: int, weight: float
    ) -> float:
        """Add ``a`` to cell ``i1`` and ``aa`` to ``i2`` as one noise error; the new weight."""
        values, groups = self._values, self._groups
        v1, v2 = values[i1], values[i2]
        g1, g2 = groups[i1], groups[i2]
        n1, n2 = (v1 + a) % 10, (v2 + aa) % 10
        values[i1], values[i2] = n1, n2
        group: _Group | None = None
        if v1 == 0 and v2 == 0:
            case, w = "new_pair", 1.0
            group = _Group(self._next_label)
            self._next_label += 1
            self._join(group, i1)
            self._join(group, i2)
            self._numbers += 2
        elif v1 == 0 or v2 == 0:
            case, w = "one_new", 1.0
            if v1 == 0:
                if g2 is None:
                    raise InvalidState(f"cell {i2} holds {v2} but belongs to no group")
                self._join(g2, i1)
                if n2 == 0:
                    self._leave(g2, i2)
                else:
                    self._numbers += 1
            else:
                if g1 is None:
                    raise InvalidState(f"cell {i1} holds {v1} but belongs to no group")
                self._join(g1, i2)
                if n1 == 0:
                    self._leave(g1, i1)
                else:
                    self._numbers += 1
        else:
            case, w = "both_occupied", 0.1
            if g1 is None or g2 is None:
                raise InvalidState(f"cells {i1} and {i2} hold numbers without a group")
            group = g1 if g1 is g2 else self._merge(g1, g2)
            if n1 == 0:
                self._leave(group, i1)
                self._numbers -= 1
            if n2 == 0:
                self._leave(group, i2)
                self._numbers -= 1
        weight += w
        if self._record:
            size = self._size
            label1 = g1.label if g1 is not None else 0
            label2 = g2.label if g2 is not None else 0
            after1, after2 = groups[i1], groups[i2]
            self.events.append(
                NoiseError(
                    self.t, self.round, index, *divmod(i1, size), *divmod(i2, size), a, aa,
                    case, w, weight, v1, v2, n1, n2, label1, label2,
                    after1.label if after1 is not None else 0,
                    after2.label if after2 is not None else 0,
                )
            )
            if g1 is not g2 and case == "both_occupied" and group is not None:
                self.events.append(
                    GroupMerge(self.t, self.round, "noise", label1, label2, len(group.cells))
                )
        return weight

    # -- moves ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Lost; or, in the one_shot family, the board is clean (the decoder succeeded)."""
        return self.loss is not None or (self._one_shot and self._numbers == 0)

    @property
    def cleared(self) -> bool:
        """A one_shot game whose board was cleaned without a span."""
        return self._one_shot and self.loss is None and self._numbers == 0

    def check_move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> None:
        """Raise ``IllegalMove`` unless the move is legal now."""
        if self.over:
            raise IllegalMove("the game is over", code="game_over")
        size = self._size
        # Plain ints on the grid pass at once; anything else gets the full checks below.
        if not (
            type(from_row) is type(from_col) is type(to_row) is type(to_col) is int
            and 0 <= from_row < size and 0 <= from_col < size
            and 0 <= to_row < size and 0 <= to_col < size
        ):
            for name, coord in (
                ("from_row", from_row), ("from_col", from_col),
                ("to_row", to_row), ("to_col", to_col),
            ):
                if isinstance(coord, bool) or not isinstance(coord, int):
                    raise IllegalMove(f"{name} must be an integer", code="off_grid")
                if not 0 <= coord < size:
                    raise IllegalMove(
                        f"{name} = {coord} is off the {size}x{size} grid", code="off_grid"
                    )
        if abs(from_row - to_row) + abs(from_col - to_col) != 1:
            raise IllegalMove(
                "a number moves to one of its four neighbours", code="not_adjacent"
            )
        if self._values[from_row * size + from_col] == 0:
            raise IllegalMove(
                f"there is no number at row {from_row}, column {from_col}", code="empty_source"
            )

    def move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> list[Event]:
        """Play one move; return the events it caused (empty when not recording)."""
        size = self._size
        # The common legal move passes these tests at once; anything else goes
        # through check_move, which names what is wrong.
        if not (
            self.loss is None
            and type(from_row) is type(from_col) is type(to_row) is type(to_col) is int
            and 0 <= from_row < size and 0 <= from_col < size
            and 0 <= to_row < size and 0 <= to_col < size
            and abs(from_row - to_row) + abs(from_col - to_col) == 1
            and self._values[from_row * size + from_col]
        ):
            self.check_move(from_row, from_col, to_row, to_col)
        src, dst = from_row * size + from_col, to_row * size + to_col
        events = self.events
        first = len(events)
        values, groups = self._values, self._groups
        moved, before = values[src], values[dst]
        src_group, dst_group = groups[src], groups[dst]
        if src_group is None:  # check_move guarantees a number, and numbers have groups
            raise InvalidState(f"cell {src} holds {moved} but belongs to no group")
        src_label = src_group.label
        dst_label = dst_group.label if dst_group is not None else 0
        self.t += 1
        self.moves_made += 1
        values[src] = 0
        merged: _Group | None = None
        if before == 0:
            after = moved
            values[dst] = moved
            self._shift(src_group, src, dst)
        else:
            self._leave(src_group, src)
            after = (moved + before) % 10
            if dst_group is src_group:
                target = src_group
            else:
                if dst_group is None:
                    raise InvalidState(f"cell {dst} holds {before} but belongs to no group")
                if self.rules.merge_label is MergeLabel.DESTINATION:
                    target = self._merge(dst_group, src_group)
                    absorbed = src_label
                else:
                    target = self._merge(src_group, dst_group)
                    absorbed = dst_label
                merged = target
            values[dst] = after
            if after == 0:
                self._leave(target, dst)
                self._numbers -= 2
            else:
                self._numbers -= 1
        if self._record:
            result = groups[dst]
            events.append(
                Move(
                    self.t, self.round, self.moves_made, from_row, from_col, to_row, to_col,
                    moved, before, after, src_label, dst_label,
                    result.label if result is not None else 0,
                    before != 0 and after == 0,
                )
            )
            if merged is not None:
                events.append(
                    GroupMerge(
                        self.t, self.round, "move", merged.label, absorbed, len(merged.cells)
                    )
                )
        if self._spanning or not self._numbers or self.t % self._per_round == 0:
            self._after_move()
        return events[first:] if self._record else []

    def _after_move(self) -> None:
        """The loss check, the jump on an empty board and the noise round, in that order.

        one_shot: only the loss check; an empty board ends the game (``over``).
        """
        if self._spanning:
            self._declare_loss()
            return
        if self._one_shot:
            return
        per_round = self._per_round
        if self._numbers == 0 and self.t % per_round:
            self._jump(self.t + per_round - self.t % per_round, "empty_after_move")
        if self.t % per_round == 0:
            self._noise_round()
            while self._numbers == 0:
                # Only possible when the round's last 0.1-weight error annihilated the
                # last pair: with nothing to move, the player's moves are skipped.
                self._jump(self.t + per_round, "empty_after_noise")
                self._noise_round()

    def _jump(self, to_t: int, reason: str) -> None:
        from_t, self.t = self.t, to_t
        if self._record:
            self.events.append(JumpAhead(to_t, self.round, from_t, reason))

    def _declare_loss(self) -> None:
        spanning = sorted(self._spanning, key=lambda g: g.label)
        group = spanning[0]
        axis = _axis(bool(group.top and group.bottom), bool(group.left and group.right))
        self.loss = Loss(self.t, self.round, group.label, axis, len(spanning))
        if self._record:
            self.events.append(self.loss)

    # -- reading the board ----------------------------------------------------

    @property
    def size(self) -> int:
        return self._size

    @property
    def numbers(self) -> int:
        return self._numbers

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(self._values)

    def value(self, row: int, col: int) -> int:
        return self._values[row * self._size + col]

    def label(self, row: int, col: int) -> int:
        group = self._groups[row * self._size + col]
        return group.label if group is not None else 0

    def labels(self) -> tuple[int, ...]:
        return tuple(g.label if g is not None else 0 for g in self._groups)

    def board(self) -> Board:
        return Board(self._size, tuple(self._values), self.labels())

    def spanning_labels(self) -> list[int]:
        return sorted(g.label for g in self._spanning)

    def occupied(self) -> list[Cell]:
        size = self._size
        return [divmod(i, size) for i, v in enumerate(self._values) if v]

    def legal_moves(self) -> Iterator[MoveTuple]:
        if self.over:
            return
        size = self._size
        for i, v in enumerate(self._values):
            if not v:
                continue
            row, col = divmod(i, size)
            if row > 0:
                yield (row, col, row - 1, col)
            if row < size - 1:
                yield (row, col, row + 1, col)
            if col > 0:
                yield (row, col, row, col - 1)
            if col < size - 1:
                yield (row, col, row, col + 1)

    # -- storing and restoring ------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """A compact, JSON-safe snapshot from which play can continue exactly."""
        return {
            "engine_version": self.engine_version,
            "rules": self.rules.to_dict(),
            "seed": str(self.seed),
            "rng": str(self._rng.state),
            "t": self.t,
            "round": self.round,
            "moves": self.moves_made,
            "next_label": self._next_label,
            "values": "".join(map(str, self._values)),
            "labels": list(self.labels()),
            "loss": self.loss.to_dict() if self.loss is not None else None,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], *, record: bool = True) -> Game:
        try:
            return cls._from_state(state, record=record)
        except (KeyError, TypeError, ValueError, AttributeError, InvalidRuleSet) as exc:
            raise InvalidState(f"the stored game state is unreadable: {exc}") from exc

    @classmethod
    def _from_state(cls, state: dict[str, Any], *, record: bool) -> Game:
        game = cls.__new__(cls)
        try:
            # A game started by an older engine goes on as that engine played it.
            game._set_engine_version(state["engine_version"])
        except UnknownEngineVersion as exc:
            raise InvalidState(f"state from engine version {state['engine_version']!r}") from exc
        game.rules = RuleSet.from_dict(state["rules"])
        game.seed = int(state["seed"])
        if not 0 <= game.seed <= MASK64:
            raise InvalidState("seed out of range")
        rng_state = int(state["rng"])
        if not 0 <= rng_state <= MASK64:
            raise InvalidState("random generator state out of range")
        game._rng = SplitMix64(rng_state)
        game._record = record
        game.events = []
        game._setup_geometry()
        game._clear_board()
        game.t = int(state["t"])
        game.round = int(state["round"])
        game.moves_made = int(state["moves"])
        game._next_label = int(state["next_label"])
        if game.t < 0 or game.round < 0 or not 0 <= game.moves_made <= game.t:
            raise InvalidState("the clock, round or move count is out of range")
        if game._next_label < 1:
            raise InvalidState("the next group id must be at least 1")
        values_text, labels = state["values"], list(state["labels"])
        if len(values_text) != game._ncells or len(labels) != game._ncells:
            raise InvalidState("board size does not match the rule set")
        by_label: dict[int, _Group] = {}
        for cell, (char, label) in enumerate(zip(values_text, labels, strict=True)):
            value = int(char)
            label = int(label)
            if (
                not 0 <= value <= 9
                or (value == 0) != (label == 0)
                or not 0 <= label < game._next_label
            ):
                raise InvalidState(f"cell {cell} has value {value} and group {label}")
            game._values[cell] = value
            if value:
                group = by_label.get(label)
                if group is None:
                    group = by_label[label] = _Group(label)
                game._join(group, cell)
                game._numbers += 1
        loss = state.get("loss")
        game.loss = Loss(**{k: v for k, v in loss.items() if k != "kind"}) if loss else None
        if game._spanning and game.loss is None and (
            game._one_shot or game.t % game._per_round
        ):
            raise InvalidState("a group spans but the game is not over")
        if game._one_shot and game.round != 1:
            raise InvalidState("a one_shot game has exactly one noise round")
        return game
