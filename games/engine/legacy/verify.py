"""Checking a legacy save against the rules of Decodoku."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..variants import variant_kind
from .analysis import InferredMove, Violation, analyse
from .errors import Deadline
from .model import LegacySave


@dataclass(frozen=True, slots=True)
class SaveVerification:
    """What ``verify_save`` found.

    ``ok`` means no rule was found broken. ``partially_observed`` means the
    record cannot be checked in full: a Phi-Lambda save (values are hidden),
    or a save with steps missing. ``violation`` is the first rule broken (its
    step, file line, reason code and message). ``score`` is the last step
    number. ``gaps`` lists every (a, b) where step b follows step a with steps
    in between; (-1, b) when the record starts at step b > 0. ``merge_label``
    is the merge convention the file showed (``"moved"``, ``"destination"``,
    or ``None`` if no merge revealed it).
    """

    ok: bool
    score: int
    partially_observed: bool
    violation: Violation | None
    moves: list[InferredMove]
    steps_read: int
    gaps: list[tuple[int, int]]
    variant: str = ""
    size: int = 0
    hard: bool = False
    merge_label: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ambiguous_moves(self) -> int:
        return sum(1 for m in self.moves if m.ambiguous)

    def summary(self) -> str:
        """One line, e.g. ``ok, Z10, L=7, score 475 (476 steps)``."""
        return describe(self)


def verify_save(
    save: LegacySave,
    *,
    moves_per_round: int | None = None,
    noise_budget: float | None = None,
    stop_at_first: bool = False,
    deadline: float | Deadline | None = None,
) -> SaveVerification:
    """Check every step of ``save``; see ``games.engine.legacy.analysis`` for the rules checked.

    ``moves_per_round`` and ``noise_budget``: the rule set's round length and
    noise weight (default: those declared by a header that ``game_to_save``
    wrote, else 5 and 6 as in the original apps). ``stop_at_first``: stop at
    the first violation instead of inferring the moves of the whole record.
    """
    analysis = analyse(save, moves_per_round=moves_per_round, noise_budget=noise_budget,
                       stop_at_first=stop_at_first, deadline=deadline)
    missing = any(m.kind == "gap" for m in analysis.moves) or (
        bool(save.steps) and save.steps[0].t != 0
    )
    gaps = sorted(set(analysis.gaps))
    return SaveVerification(
        ok=analysis.violation is None,
        score=save.score,
        partially_observed=not variant_kind(save.variant).shows_values or missing,
        violation=analysis.violation,
        moves=analysis.moves,
        steps_read=len(save.steps),
        gaps=gaps,
        variant=save.variant,
        size=save.size,
        hard=save.hard,
        merge_label=str(analysis.merge_label) if analysis.merge_label else None,
        notes=list(analysis.notes),
    )


def describe(result: SaveVerification) -> str:
    """The one-line verdict used by ``check_save``.

    ``ok, Z10, L=7, score 475 (476 steps)``, ``partially observed Phi-Lambda
    record, L=7, score 219 (220 steps, hard mode)`` or ``INVALID at step 4
    (line 39): noise_off_schedule: ...``.
    """
    if result.violation is not None:
        v = result.violation
        where = f"step {v.t}" + (f" (line {v.line})" if v.line is not None else "")
        return f"INVALID at {where}: {v.reason}: {v.message}"
    details = [f"{result.steps_read} step{'s' if result.steps_read != 1 else ''}"]
    unexplained = {m.t for m in result.moves if m.kind == "gap"}
    for a, b in result.gaps:
        if a < 0 or b in unexplained:
            first, last = max(a + 1, 0), b - 1
            details.append(f"step {first} missing" if first == last
                           else f"steps {first}-{last} missing")
    if result.hard:
        details.append("hard mode")
    tail = f"score {result.score} ({', '.join(details)})"
    kind = variant_kind(result.variant)
    if not kind.shows_values:
        return f"{kind.verdict}, L={result.size}, {tail}"
    head = "ok, partially observed" if result.partially_observed else "ok"
    return f"{head}, {kind.verdict}, L={result.size}, {tail}"
