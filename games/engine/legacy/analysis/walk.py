"""The walk through a save's steps: each change between two steps told apart and recorded.

``Analyser.run`` goes through the steps in order. Each pair of steps is one
move, one move and a noise round (at multiples of the round length), the
clock jumping after the board emptied, or steps missing from the record;
the last step must end the game. Each gets an ``InferredMove``, and each
broken rule a ``Violation`` (see the package's doc for the rules).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import check_deadline
from .boards import BoardView, Outcome
from .inference import MoveInference
from .report import Analysis, InferredMove


class Analyser(MoveInference):
    """One analysis of one save: ``run`` it once."""

    def run(self) -> Analysis:
        steps = self.save.steps
        result = self.result
        per_round = self.per_round
        first = BoardView(steps[0], self.size)
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
            view = BoardView(steps[k], self.size)
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

    def record(self, view: BoardView, outcomes: list[Outcome], *, noise: bool, kind: str,
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

    def transition(self, prev: BoardView, view: BoardView, *, final: bool) -> None:
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

    def single_move(self, prev: BoardView, view: BoardView, *, final: bool) -> None:
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

    def move_and_noise(self, prev: BoardView, view: BoardView) -> None:
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

    def gap(self, prev: BoardView, view: BoardView, *, final: bool) -> None:
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
                outcomes: list[Outcome] = []
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
