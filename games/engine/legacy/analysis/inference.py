"""Which move turned one board of a save into the next.

Between two boards without noise between them, exactly one legal move must
explain the change, group ids included (``pure_move``); the merges it shows
fix the file's merge-label convention (``settle_convention``). Before a noise
round, the move is the one that leaves the fewest cells for the noise to
have changed, among the moves the next board allows (``move_then_noise``).
``emptying_moves`` are the moves that leave the board empty (then the clock
jumps).
"""

from __future__ import annotations

from ..model import EMPTY
from .boards import BoardView, Outcome, move_outcomes, neighbours
from .checks import BoardChecks


class MoveInference(BoardChecks):
    """The moves that explain the change between two boards, given what was seen before."""

    # -- one move, no noise

    def pure_move(self, prev: BoardView, view: BoardView) -> tuple[list[Outcome], str, str]:
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
        tried: list[tuple[int, int, Outcome]] = []
        for s in sources:
            for d in neighbours(s, size):
                if any(i != s and i != d for i in changed):
                    continue
                if cs[d] not in self.kind.merge_results(ps[s], ps[d]):
                    continue
                played = move_outcomes(self.variant, size, prev, s, d, cs[d])
                tried.extend((s, d, o) for o in played)
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

    def settle_convention(self, view: BoardView, outcomes: list[Outcome]) -> str | None:
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

    def move_then_noise(self, prev: BoardView, view: BoardView) -> tuple[list[Outcome], bool]:
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
            for d in neighbours(s, size):
                options = self.kind.merge_results(ps[s], ps[d])
                result = cs[d] if cs[d] in options else options[0]
                cost = total - base[s] - base[d] + (cs[s] != EMPTY) + (cs[d] != result)
                ranked.append((cost, s, d, result))
        ranked.sort()
        labels = view.label_set
        best: list[Outcome] = []
        best_cost = None
        for cost, s, d, result in ranked:
            if best_cost is not None and cost > best_cost and len({o.move for o in best}) == 1:
                # One best move: is any other move possible with more noise?
                others = any(
                    self.fits(o, labels)
                    for o in move_outcomes(self.variant, size, prev, s, d, result, self.conventions)
                )
                if others:
                    return best, True
                continue
            if best_cost is not None and cost > best_cost:
                return best, True
            for o in move_outcomes(self.variant, size, prev, s, d, result, self.conventions):
                if self.fits(o, labels):
                    best.append(o)
                    best_cost = cost
        return best, False

    def fits(self, outcome: Outcome, labels: set[int]) -> bool:
        """Can noise turn the board after this move into a board with these group ids?"""
        if outcome.spans:
            return False  # the game would have ended on this move, before any noise
        if self.reuses_ids:
            return True
        after = set(outcome.labels)
        # an id that the move removed, or that disappeared earlier, never comes back
        return not any(x not in after and x <= self.max_seen for x in labels)

    # -- a move that empties the board

    def emptying_moves(self, prev: BoardView) -> list[Outcome]:
        if prev.numbers != 2:
            return []
        found = []
        for s in range(self.size * self.size):
            if prev.symbols[s] == EMPTY:
                continue
            for d in neighbours(s, self.size):
                if prev.symbols[d] != EMPTY and EMPTY in self.kind.merge_results(
                    prev.symbols[s], prev.symbols[d]
                ):
                    found.extend(
                        move_outcomes(self.variant, self.size, prev, s, d, EMPTY, self.conventions)
                    )
        return found
