"""The checks on one board of a save, and what the walk has seen so far.

``BoardChecks`` holds the state of one analysis (the save, its rules, the
result so far, every group id seen) and checks a board on its own (each
number has a group id, each group sums to 0 mod 10, or for Phi-Lambda what
the symbols show of that) and the ids that appear on it (new ids come only
with noise, in order, never an id seen before, at most ceil(budget) per
round). The move inference and the walk build on it.
"""

from __future__ import annotations

import math

from ...rules import MergeLabel
from ...variants import variant_kind
from ..errors import Deadline
from ..model import EMPTY, GROUP, LAMBDA, PHI, LegacySave
from .boards import BoardView, Outcome
from .report import Analysis, Violation


class BoardChecks:
    """The state of one analysis, the checks on one board and on the ids that appear on it."""

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
        self.pending: list[tuple[int, list[Outcome], bool]] = []

    # -- reporting

    def violate(self, view: BoardView, reason: str, message: str, line: int | None = None) -> None:
        self.result.violations.append(
            Violation(view.t, line if line is not None else view.line, reason, message)
        )

    @property
    def conventions(self) -> tuple[MergeLabel, ...]:
        known = self.result.merge_label
        return (known,) if known else (MergeLabel.MOVED, MergeLabel.DESTINATION)

    # -- per board checks

    def check_board(self, view: BoardView) -> bool:
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

    def first_line_of(self, view: BoardView, label: int) -> int | None:
        for i, other in enumerate(view.labels):
            if other == label:
                return view.line_of(i)
        return view.line

    def check_new_labels(
        self, prev: BoardView | None, view: BoardView, noise: bool, *, one_round: bool = False
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

    def remember(self, view: BoardView) -> None:
        labels = view.label_set
        self.seen |= labels
        if labels:
            self.max_seen = max(self.max_seen, max(labels))
