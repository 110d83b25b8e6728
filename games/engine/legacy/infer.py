"""Inferring the moves of a legacy save from its consecutive boards."""

from __future__ import annotations

from .analysis import InferredMove, analyse
from .model import LegacySave


def infer_moves(
    save: LegacySave, *, moves_per_round: int | None = None, noise_budget: float | None = None
) -> list[InferredMove]:
    """One ``InferredMove`` per step after the first, in order.

    A step the rules cannot explain still gets an entry (``kind`` is
    ``"unexplained"``, ``move`` is ``None``, ``notes`` say why);
    ``verify_save`` reports the first such place as a violation.
    ``moves_per_round`` and ``noise_budget`` are as for ``verify_save``.
    """
    return analyse(save, moves_per_round=moves_per_round, noise_budget=noise_budget).moves
