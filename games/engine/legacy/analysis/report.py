"""What the analysis of a save reports: its reason codes, violations and inferred moves."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...events import MoveTuple
from ...rules import MergeLabel

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
    """Everything the analysis found in one save: a move per step, the violations, the gaps."""

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

