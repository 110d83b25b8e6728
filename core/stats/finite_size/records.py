"""The points the threshold is estimated from, and the records of its estimates."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..intervals import wilson_interval


@dataclass(frozen=True, slots=True)
class RatePoint:
    """One (L, p) point: ``failures`` out of ``trials``; ``censored`` games counted in neither."""

    size: int
    rate: float
    failures: int
    trials: int
    censored: int = 0

    def __post_init__(self) -> None:
        for name in ("size", "failures", "trials", "censored"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if self.size < 1:
            raise ValueError("size must be positive")
        if self.failures > self.trials:
            raise ValueError("failures cannot exceed trials")
        if (isinstance(self.rate, bool) or not isinstance(self.rate, int | float)
                or not math.isfinite(self.rate)):
            raise ValueError(f"rate must be a finite number, got {self.rate!r}")

    @property
    def probability(self) -> float | None:
        return self.failures / self.trials if self.trials else None

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        return wilson_interval(self.failures, self.trials, z)

    @property
    def exclusion(self) -> str:
        """Why the point says nothing about the trend ("" when it is usable)."""
        if self.trials == 0:
            return "every game was censored" if self.censored else "no games"
        if self.failures == self.trials:
            return "every game failed"
        return ""


@dataclass(frozen=True, slots=True)
class ExcludedPoint:
    size: int
    rate: float
    reason: str

    def __str__(self) -> str:
        return f"L={self.size} p={self.rate:g} ({self.reason})"


@dataclass(frozen=True, slots=True)
class PairCrossing:
    """Where the curves of two neighbouring sizes cross (None: they do not)."""

    sizes: tuple[int, int]
    value: float | None
    lower: float | None
    upper: float | None
    fraction: float  # share of resamples in which this pair crossed
    sign_changes: int
    edge: bool


@dataclass(frozen=True)
class CrossingEstimate:
    value: float | None
    lower: float | None
    upper: float | None
    level: float
    fraction: float  # share of resamples in which every crossing pair crossed again
    edge: bool
    pairs: tuple[PairCrossing, ...]
    message: str


@dataclass(frozen=True)
class ScalingFit:
    p_th: float | None
    lower: float | None
    upper: float | None
    nu: float | None
    nu_lower: float | None
    nu_upper: float | None
    coefficients: tuple[float, float, float] | None  # a, b, c of f
    chi2: float | None
    dof: int
    points: int
    edge: bool  # the best fit sits at the edge of the searched p or nu range
    message: str
    correction: float | None = None  # d of the term d L^-omega in logit P; None: not fitted
    omega: float | None = None  # the fixed exponent of that term; None: not fitted
    drift: bool = False  # the correction term is significant (finite-size drift)

    @property
    def chi2_dof(self) -> float | None:
        if self.chi2 is None or self.dof < 1:
            return None
        return self.chi2 / self.dof


@dataclass(frozen=True, slots=True)
class Headline:
    """The estimate a summary quotes first (see ``report._headline``).

    ``method``: "scaling" (the fit with its correction term, four sizes or more)
    or "crossing". ``finite_size``: a finite-size estimate, whose interval does
    not allow for drift of the crossing with L: quoted as such, not as the
    threshold.
    """

    method: str
    value: float
    lower: float
    upper: float
    finite_size: bool

    @property
    def label(self) -> str:
        return "finite-size estimate" if self.finite_size else "threshold"


@dataclass(frozen=True)
class ThresholdReport:
    crossing: CrossingEstimate
    scaling: ScalingFit
    excluded: tuple[ExcludedPoint, ...]
    direction: str  # "crossing", "below" (everywhere), "above" (everywhere), "unclear"
    rate_range: tuple[float, float] | None
    agree: bool | None  # the two intervals overlap; None when either is missing
    level: float
    message: str
    sizes: tuple[int, ...] = field(default=())
    drift: bool = False  # finite-size drift is seen (``report._drift_note``); the message says so
    headline: Headline | None = None  # the estimate to quote first; None: no crossing
