"""Budget sweep seeds and sweep statistics, as pure functions (no database).

A sweep game is exactly replayable from (bot, bot version, rule set, seed,
engine version): the engine plays it as a shot (``games.engine.families.play_shot``,
which returns its ``ShotOutcome``), drawing its noise from the seed, and the
bot, seeded from the same seed, breaks its ties from it and the board alone.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from core.stats import (
    HazardPlateau,
    LifetimeSummary,
    hazard_per_round,
    hazard_plateau,
    kaplan_meier,
    lifetime_summary,
)

SEED_MASK = 2**63 - 1  # seeds are stored in a signed 64-bit column


def game_seed(*, sweep_seed: int, bot_name: str, size: int, noise_budget: float,
              index: int) -> int:
    """The seed of game ``index`` of one point: a hash of the sweep's seed and the point.

    Hashing (rather than seed + index) keeps the games of different points
    independent, and a point's games do not depend on the rest of the grid.
    """
    key = f"{sweep_seed}|{bot_name}|{size}|{float(noise_budget)!r}|{index}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") & SEED_MASK


@dataclass(frozen=True, slots=True)
class CurveRow:
    round: int
    at_risk: int
    events: int
    censored: int
    survival: float
    ci_low: float
    ci_high: float
    hazard: float | None
    hazard_ci_low: float
    hazard_ci_high: float


def curve(durations: Sequence[int], observed: Sequence[bool]) -> list[CurveRow]:
    """Kaplan-Meier survival and the hazard, one row per round from 1 to the longest game.

    Survival is S(k) just after round k's losses; rounds with no loss carry
    the previous value (and band) forward.
    """
    hazards = hazard_per_round(durations, observed)
    km = {row.time: row for row in kaplan_meier(durations, observed)}
    rows = []
    survival, low, high = 1.0, 1.0, 1.0
    for h in hazards:
        if h.round < 1:
            continue
        k = km.get(h.round)
        if k is not None:
            survival, low, high = k.survival, k.lower95, k.upper95
        rows.append(CurveRow(
            h.round, h.at_risk, h.lost, h.censored, survival, low, high,
            None if math.isnan(h.hazard) else h.hazard, h.lower95, h.upper95,
        ))
    return rows


@dataclass(frozen=True)
class PointStats:
    summary: LifetimeSummary
    plateau: HazardPlateau | None
    curve: list[CurveRow]


def point_stats(durations: Sequence[int], observed: Sequence[bool], *, seed: int = 0,
                n_resamples: int = 1000) -> PointStats:
    """Lifetime summary (bootstrap CIs), hazard plateau and curve of one sweep point."""
    return PointStats(
        lifetime_summary(durations, observed, n_resamples=n_resamples, seed=seed),
        hazard_plateau(durations, observed),
        curve(durations, observed),
    )
