"""Shared tools for the engine tests.

* ``ScriptedRng``: a stand-in for the engine's generator that hands out
  scripted values and checks the range ``n`` of every draw, which pins the
  documented order of random draws.
* ``error_draws``: the scripted draws of one noise error.
* ``position``: a game set up in an exact position through ``Game.from_state``.
* ``EventChecker``: rebuilds the board from an event stream alone and checks
  every event against the rules: the order in which events may follow each
  other, every "before" field, the arithmetic and group bookkeeping of every
  noise error and move, the stop rule of a noise round, the clock, and that
  every group sums to 0 mod 10 after every error and every move.
* ``ReferenceGame``: a deliberately naive second implementation of the rules
  (whole-board scans, no incremental bookkeeping) that draws from the same
  generator in the documented order, to cross-check the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.engine import (
    ENGINE_VERSION,
    Event,
    Game,
    GroupMerge,
    JumpAhead,
    Loss,
    Move,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    Regenerated,
    RuleSet,
    SplitMix64,
)

# -- scripting the noise -------------------------------------------------------


class ScriptedRng:
    """Returns scripted values; each entry is ``(expected_n, value)``."""

    def __init__(self, draws: Iterable[tuple[int, int]]) -> None:
        self.draws = list(draws)
        self.position = 0
        self.state = 0  # read by Game.to_state

    def below(self, n: int) -> int:
        if self.position >= len(self.draws):
            raise AssertionError(f"unscripted draw below({n}) after {self.position} draws")
        expected_n, value = self.draws[self.position]
        if n != expected_n:
            raise AssertionError(
                f"draw {self.position}: the engine asked for below({n}), "
                f"the documented order says below({expected_n})"
            )
        if not 0 <= value < n:
            raise AssertionError(f"scripted value {value} is not below {n}")
        self.position += 1
        return value

    def outputs(self) -> Callable[[], int]:
        """Raw outputs for the engine's inlined draws (see ``SplitMix64.outputs``).

        The engine reduces a raw output ``r`` with ``r % n``, and a scripted
        value below ``n`` comes out unchanged, so the script's values serve
        as raw outputs. The range asked for is not known to a raw draw, so
        only ``expected_n`` cannot be checked; the value still must fit it.
        """
        return self._raw

    def _raw(self) -> int:
        if self.position >= len(self.draws):
            raise AssertionError(f"unscripted raw draw after {self.position} draws")
        expected_n, value = self.draws[self.position]
        if not 0 <= value < expected_n:
            raise AssertionError(f"scripted value {value} is not below {expected_n}")
        self.position += 1
        return value

    def redraw(self, limit: int) -> int:
        raise AssertionError("a scripted value is always below the rejection limit")

    @property
    def exhausted(self) -> bool:
        return self.position == len(self.draws)


def error_draws(
    size: int,
    cell1: tuple[int, int],
    cell2: tuple[int, int],
    a: int,
    *,
    phi_lambda: bool = False,
) -> list[tuple[int, int]]:
    """The draws that make one noise error add ``a`` to ``cell1`` and ``10 - a`` to ``cell2``.

    In Phi-Lambda, ``a == 5`` is produced by the 0.33 branch (``below(100)``
    returning 0) and any other ``a`` by the uniform branch.
    """
    (r1, c1), (r2, c2) = cell1, cell2
    assert abs(r1 - r2) + abs(c1 - c2) == 1, "the two cells must be neighbours"
    draws = [(size * size, r1 * size + c1)]
    if c1 == c2:  # along the rows: up or down
        draws.append((2, 0))
        if r1 not in (0, size - 1):
            draws.append((2, 1 if r2 == r1 + 1 else 0))
    else:
        draws.append((2, 1))
        if c1 not in (0, size - 1):
            draws.append((2, 1 if c2 == c1 + 1 else 0))
    if phi_lambda:
        if a == 5:
            draws.append((100, 0))
            return draws
        draws.append((100, 33))
    draws.append((9, a - 1))
    return draws


def script(game: Game, draws: Iterable[tuple[int, int]]) -> ScriptedRng:
    """Replace the game's generator by a scripted one."""
    rng = ScriptedRng(draws)
    game._rng = rng  # type: ignore[assignment]  # a scripted stand-in for the generator
    return rng


# -- setting up positions --------------------------------------------------------


def parse_rows(rows: Sequence[str]) -> list[int]:
    return [int(ch) for row in rows for ch in row.replace(" ", "")]


def state_dict(
    rows: Sequence[str],
    labels: Sequence[Sequence[int]] | None = None,
    *,
    rules: RuleSet | None = None,
    t: int = 0,
    round_: int = 1,
    moves: int | None = None,
    next_label: int | None = None,
    loss: Loss | None = None,
) -> dict[str, Any]:
    """A ``to_state``-style dict. ``rows`` are digit strings, one per row.

    Without ``labels`` every number is in group 1.
    """
    values = parse_rows(rows)
    size = len(rows)
    if rules is None:
        rules = RuleSet(size=size)
    assert rules.size == size, "the rows do not match the rule set's size"
    if labels is None:
        flat = [1 if v else 0 for v in values]
    else:
        assert len(labels) == size
        flat = [label for row in labels for label in row]
    assert len(flat) == len(values) == size * size
    return {
        "engine_version": ENGINE_VERSION,
        "rules": rules.to_dict(),
        "seed": "0",
        "rng": "0",
        "t": t,
        "round": round_,
        "moves": t if moves is None else moves,
        "next_label": (max(flat) + 1) if next_label is None else next_label,
        "values": "".join(map(str, values)),
        "labels": flat,
        "loss": loss.to_dict() if loss is not None else None,
    }


def position(rows: Sequence[str], labels: Sequence[Sequence[int]] | None = None,
             **kwargs: Any) -> Game:
    """A game in an exact position (see ``state_dict``)."""
    return Game.from_state(state_dict(rows, labels, **kwargs))


def grid(game: Game) -> list[str]:
    """The values as digit strings, one per row (the inverse of ``parse_rows``)."""
    return ["".join(map(str, row)) for row in game.board().rows()]


# -- reading boards ------------------------------------------------------------------


def group_sums(values: Sequence[int], labels: Sequence[int]) -> dict[int, int]:
    sums: dict[int, int] = {}
    for value, label in zip(values, labels, strict=True):
        if label:
            sums[label] = (sums.get(label, 0) + value) % 10
    return sums


def check_board(values: Sequence[int], labels: Sequence[int]) -> None:
    """Values in Z10, value 0 exactly when group 0, every group summing to 0 mod 10."""
    for cell, (value, label) in enumerate(zip(values, labels, strict=True)):
        assert 0 <= value <= 9, f"cell {cell} holds {value}"
        assert label >= 0, f"cell {cell} has group {label}"
        assert (value == 0) == (label == 0), f"cell {cell}: value {value} with group {label}"
    bad = {label: s for label, s in group_sums(values, labels).items() if s}
    assert not bad, f"groups not summing to 0 mod 10: {bad}"


def spanning_scan(size: int, labels: Sequence[int]) -> dict[int, str]:
    """Every spanning group id and its axis, read straight from the rule's wording."""
    found: dict[int, str] = {}
    top = set(labels[:size])
    bottom = set(labels[size * (size - 1):])
    left = {labels[r * size] for r in range(size)}
    right = {labels[r * size + size - 1] for r in range(size)}
    for label in (top | left) - {0}:
        top_bottom = label in top and label in bottom
        left_right = label in left and label in right
        if top_bottom or left_right:
            found[label] = (
                "both" if top_bottom and left_right
                else "top_bottom" if top_bottom else "left_right"
            )
    return found


# -- checking event streams ------------------------------------------------------------


class EventChecker:
    """Rebuilds a game's board from its events and checks every event against the rules.

    Feed the events of a game from its start, in order; call ``finish`` at the
    end of the stream. ``board()`` is the rebuilt board at any point.
    """

    def __init__(self, rules: RuleSet, engine_version: int = ENGINE_VERSION) -> None:
        self.rules = rules
        self.engine_version = engine_version
        self.size = rules.size
        self.next_label = 1
        self.t = 0
        self.round = 0
        self.moves = 0
        self.loss: Loss | None = None
        self.errors_checked = 0
        self.rounds: list[NoiseRoundEnded] = []
        self.merges: list[GroupMerge] = []
        self.regenerations = 0
        self._clear()
        self._allowed: set[str] = {"round_start"}
        self._merge_due: tuple[str, int, int, int] | None = None
        self._after_merge = ""  # what to decide once an awaited merge arrived

    def _clear(self) -> None:
        n = self.size * self.size
        self.values = [0] * n
        self.labels = [0] * n
        if self.engine_version < 2:
            # Engine version 1 numbered a regenerated first board's groups from 1 again.
            self.next_label = 1
        self.round_weight = 0.0
        self.round_errors = 0

    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(self.values), tuple(self.labels)

    def feed_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.feed(event)

    def feed(self, event: Event) -> None:
        kind = event.kind
        assert kind in self._allowed, (
            f"a {kind} event where the rules allow only {sorted(self._allowed)}: {event}"
        )
        getattr(self, "_on_" + kind)(event)

    def finish(self) -> None:
        """The stream may end here: it is the player's turn, or the game is lost."""
        assert self.loss is not None or self._allowed == {"move"}, (
            f"the stream ends where the rules still owe {sorted(self._allowed)}"
        )

    # the game's phases ---------------------------------------------------------------

    def _count(self, label: int) -> int:
        return sum(1 for x in self.labels if x == label)

    def _expect_merge(self, cause: str, surviving: int, absorbed: int, then: str) -> None:
        self._merge_due = (cause, surviving, absorbed, self._count(surviving))
        self._allowed = {"merge"}
        self._after_merge = then

    def _on_merge(self, event: GroupMerge) -> None:
        assert self._merge_due is not None
        assert (event.t, event.round) == (self.t, self.round)
        assert (event.cause, event.surviving, event.absorbed, event.size) == self._merge_due, (
            f"{event} where the rules give (cause, surviving, absorbed, size) = "
            f"{self._merge_due}"
        )
        self.merges.append(event)
        self._merge_due = None
        if self._after_merge == "noise":
            self._after_error()
        else:
            self._after_move()

    def _on_regenerated(self, event: Regenerated) -> None:
        self.regenerations += 1
        assert (event.t, event.round, event.attempt) == (0, 0, self.regenerations)
        assert event.reason == self._regeneration_reason
        self._clear()
        self.round = 0
        self._allowed = {"round_start"}

    def _on_round_start(self, event: NoiseRoundStarted) -> None:
        self.round += 1
        assert (event.t, event.round) == (self.t, self.round)
        assert self.t % self.rules.moves_per_round == 0
        self.round_weight = 0.0
        self.round_errors = 0
        self._allowed = {"noise"}

    def _on_noise(self, event: NoiseError) -> None:
        n = self.size
        assert (event.t, event.round) == (self.t, self.round)
        assert all(0 <= x < n for x in (event.row1, event.col1, event.row2, event.col2))
        assert abs(event.row1 - event.row2) + abs(event.col1 - event.col2) == 1
        i1, i2 = event.row1 * n + event.col1, event.row2 * n + event.col2
        v1, v2 = self.values[i1], self.values[i2]
        g1, g2 = self.labels[i1], self.labels[i2]
        assert (event.value1_before, event.value2_before) == (v1, v2)
        assert (event.group1_before, event.group2_before) == (g1, g2)
        assert 1 <= event.a <= 9
        assert event.aa == (10 - event.a) % 10
        n1, n2 = (v1 + event.a) % 10, (v2 + event.aa) % 10
        assert (event.value1_after, event.value2_after) == (n1, n2)
        self.values[i1], self.values[i2] = n1, n2
        merge: tuple[int, int] | None = None
        if v1 == 0 and v2 == 0:
            assert (event.case, event.weight) == ("new_pair", 1.0)
            self.labels[i1] = self.labels[i2] = self.next_label
            self.next_label += 1
        elif v1 == 0 or v2 == 0:
            assert (event.case, event.weight) == ("one_new", 1.0)
            self.labels[i1] = self.labels[i2] = g2 if v1 == 0 else g1
        else:
            assert (event.case, event.weight) == ("both_occupied", 0.1)
            if g1 != g2:
                # Every cell of the second cell's group takes the first cell's id.
                self.labels = [g1 if x == g2 else x for x in self.labels]
                merge = (g1, g2)
        if n1 == 0:
            self.labels[i1] = 0
        if n2 == 0:
            self.labels[i2] = 0
        assert (event.group1_after, event.group2_after) == (self.labels[i1], self.labels[i2])
        self.round_errors += 1
        assert event.index == self.round_errors
        self._weight_before_last = self.round_weight
        self.round_weight += event.weight  # accumulated as a double, like the original
        assert event.round_weight == self.round_weight
        self.errors_checked += 1
        check_board(self.values, self.labels)
        if merge is not None:
            self._expect_merge("noise", merge[0], merge[1], "noise")
        else:
            self._after_error()

    def _after_error(self) -> None:
        # The round goes on exactly while its weight is below the budget.
        if self.round_weight < self.rules.noise_budget:
            self._allowed = {"noise"}
        else:
            self._allowed = {"round_end"}

    def _on_round_end(self, event: NoiseRoundEnded) -> None:
        assert (event.t, event.round) == (self.t, self.round)
        assert event.errors == self.round_errors >= 1
        assert event.weight == self.round_weight >= self.rules.noise_budget
        assert self._weight_before_last < self.rules.noise_budget
        assert event.numbers == sum(1 for v in self.values if v)
        self.rounds.append(event)
        spans = spanning_scan(self.size, self.labels)
        if self.moves == 0 and self.t == 0 and (spans or not any(self.values)):
            # The first board must neither span nor be empty: it is drawn again.
            self._regeneration_reason = "spanning" if spans else "empty"
            self._allowed = {"regenerated"}
        elif not any(self.values):
            self._allowed = {"jump"}
        else:
            # No loss check after noise: the player always gets a move.
            self._allowed = {"move"}

    def _on_move(self, event: Move) -> None:
        n = self.size
        coords = (event.from_row, event.from_col, event.to_row, event.to_col)
        assert all(0 <= x < n for x in coords)
        assert abs(event.from_row - event.to_row) + abs(event.from_col - event.to_col) == 1
        src = event.from_row * n + event.from_col
        dst = event.to_row * n + event.to_col
        moved, before = self.values[src], self.values[dst]
        src_label, dst_label = self.labels[src], self.labels[dst]
        assert moved != 0, "a move from an empty cell"
        self.moves += 1
        self.t += 1
        assert (event.index, event.t, event.round) == (self.moves, self.t, self.round)
        assert (event.value, event.to_value_before) == (moved, before)
        assert (event.from_group, event.to_group_before) == (src_label, dst_label)
        after = (moved + before) % 10
        assert event.to_value_after == after
        assert event.annihilated == (before != 0 and after == 0)
        self.values[src], self.labels[src] = 0, 0
        self.values[dst] = after
        merge: tuple[int, int] | None = None
        if before == 0:
            self.labels[dst] = src_label
        elif dst_label == src_label:
            self.labels[dst] = src_label if after else 0
        else:
            if self.rules.merge_label == "destination":
                surviving, absorbed = dst_label, src_label
            else:
                surviving, absorbed = src_label, dst_label
            self.labels = [surviving if x == absorbed else x for x in self.labels]
            self.labels[dst] = surviving if after else 0
            merge = (surviving, absorbed)
        assert event.to_group_after == self.labels[dst]
        check_board(self.values, self.labels)
        if merge is not None:
            self._expect_merge("move", merge[0], merge[1], "move")
        else:
            self._after_move()

    def _after_move(self) -> None:
        per_round = self.rules.moves_per_round
        if spanning_scan(self.size, self.labels):
            self._allowed = {"loss"}
        elif not any(self.values) and self.t % per_round:
            self._allowed = {"jump"}
        elif self.t % per_round == 0:
            self._allowed = {"round_start"}
        else:
            self._allowed = {"move"}

    def _on_jump(self, event: JumpAhead) -> None:
        per_round = self.rules.moves_per_round
        assert not any(self.values), "a jump ahead on a board that is not empty"
        assert (event.from_t, event.round) == (self.t, self.round)
        if self.t % per_round:
            assert event.reason == "empty_after_move"
            assert event.t == self.t + per_round - self.t % per_round
        else:
            assert event.reason == "empty_after_noise"
            assert event.t == self.t + per_round
        self.t = event.t
        self._allowed = {"round_start"}

    def _on_loss(self, event: Loss) -> None:
        spans = spanning_scan(self.size, self.labels)
        first = min(spans)
        assert (event.t, event.round) == (self.t, self.round)
        assert (event.group, event.axis, event.spanning_groups) == (
            first, spans[first], len(spans)
        )
        self.loss = event
        self._allowed = set()


# -- a second, naive implementation of the rules -----------------------------------------


class ReferenceGame:
    """The rules written as plainly as possible, for cross-checking the engine.

    Groups are a plain list of ids per cell, merges relabel the whole board and
    the loss check scans the edges. It draws from a SplitMix64 stream in the
    order that ``games.engine.game`` documents.
    """

    def __init__(self, rules: RuleSet, seed: int, engine_version: int = ENGINE_VERSION) -> None:
        self.rules = rules
        self.size = rules.size
        self.rng = SplitMix64(seed)
        self.t = 0
        self.lost_at: int | None = None
        self.lost_group = 0
        self.regenerations = 0
        self.next_label = 1
        while True:
            n = self.size * self.size
            self.values, self.labels = [0] * n, [0] * n
            if engine_version < 2:  # version 1 numbered each first board drawn from 1
                self.next_label = 1
            self.noise_round()
            if any(self.values) and not spanning_scan(self.size, self.labels):
                break
            self.regenerations += 1

    def noise_round(self) -> None:
        size, below = self.size, self.rng.below
        weight = 0.0
        while weight < self.rules.noise_budget:
            cell = below(size * size)
            r1, c1 = divmod(cell, size)
            r2, c2 = r1, c1
            if below(2) == 0:
                if r1 == 0:
                    r2 = 1
                elif r1 == size - 1:
                    r2 = size - 2
                else:
                    r2 = r1 + 1 if below(2) == 1 else r1 - 1
            elif c1 == 0:
                c2 = 1
            elif c1 == size - 1:
                c2 = size - 2
            else:
                c2 = c1 + 1 if below(2) == 1 else c1 - 1
            if self.rules.variant == "phi_lambda" and below(100) < 33:
                a = aa = 5
            else:
                a = 1 + below(9)
                aa = (10 - a) % 10
            i1, i2 = r1 * size + c1, r2 * size + c2
            v1, v2 = self.values[i1], self.values[i2]
            g1, g2 = self.labels[i1], self.labels[i2]
            self.values[i1] = (v1 + a) % 10
            self.values[i2] = (v2 + aa) % 10
            if v1 == 0 and v2 == 0:
                self.labels[i1] = self.labels[i2] = self.next_label
                self.next_label += 1
                weight += 1
            elif v1 == 0 or v2 == 0:
                self.labels[i1] = self.labels[i2] = g1 or g2
                weight += 1
            else:
                if g1 != g2:
                    self.labels = [g1 if x == g2 else x for x in self.labels]
                weight += 0.1
            for i in (i1, i2):
                if self.values[i] == 0:
                    self.labels[i] = 0

    def move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> None:
        size = self.size
        src, dst = from_row * size + from_col, to_row * size + to_col
        moved, before = self.values[src], self.values[dst]
        g_src, g_dst = self.labels[src], self.labels[dst]
        self.values[src], self.labels[src] = 0, 0
        self.values[dst] = (moved + before) % 10
        if before == 0:
            self.labels[dst] = g_src
        elif g_src != g_dst:
            keep, drop = (
                (g_dst, g_src) if self.rules.merge_label == "destination" else (g_src, g_dst)
            )
            self.labels = [keep if x == drop else x for x in self.labels]
        if self.values[dst] == 0:
            self.labels[dst] = 0
        self.t += 1
        spans = spanning_scan(size, self.labels)
        if spans:
            self.lost_at, self.lost_group = self.t, min(spans)
            return
        per_round = self.rules.moves_per_round
        if not any(self.values) and self.t % per_round:
            self.t += per_round - self.t % per_round
        if self.t % per_round == 0:
            self.noise_round()
            while not any(self.values):
                self.t += per_round
                self.noise_round()
