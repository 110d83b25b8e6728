"""Reading a game out of a legacy save: the moves between boards, and every rule check."""

from .walk import (
    MOVES_PER_ROUND,
    NOISE_BUDGET,
    PHI_LAMBDA,
    REASONS,
    Z10,
    Analysis,
    InferredMove,
    Violation,
    analyse,
    declared_rules,
)

__all__ = [
    "MOVES_PER_ROUND",
    "NOISE_BUDGET",
    "PHI_LAMBDA",
    "REASONS",
    "Z10",
    "Analysis",
    "InferredMove",
    "Violation",
    "analyse",
    "declared_rules",
]
