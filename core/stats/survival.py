"""Survival analysis of game lifetimes.

A game's lifetime is how long it was held: its score t (moves) or the
number of the noise round in which it was lost. A game that ended without a
loss (abandoned, or stopped at a move cap) is *censored*: it is known to
have lasted at least its duration. ``observed`` says, game by game, whether
the loss was seen (True) or the game was censored (False); left out, every
loss is taken as seen.

- ``kaplan_meier``: the survival curve with Greenwood's variance and
  log(-log) ("exponential Greenwood") confidence bands.
- ``hazard_per_round``: the discrete hazard, the chance of losing in round k
  given the game reached round k, with Wilson intervals.
- ``hazard_plateau``: the late-round constant hazard, the game's loss rate
  per round (the game's spanning rule, not a logical error rate).
- ``lifetime_summary``: mean and median lifetime with bootstrap intervals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .intervals import Z95, bootstrap_many, wilson_interval, z_for

# A duration: a number of rounds (int) or any time (float).
Duration = TypeVar("Duration", int, float)


def check_lifetimes(durations: Sequence[float], observed: Sequence[bool] | None,
           *, integral: bool = False) -> list[tuple[float, bool]]:
    durations = list(durations)
    if observed is None:
        observed = [True] * len(durations)
    observed = list(observed)
    if len(observed) != len(durations):
        raise ValueError("durations and observed must have the same length")
    pairs = []
    for d, o in zip(durations, observed, strict=True):
        if isinstance(d, bool) or not isinstance(d, int | float) or not math.isfinite(d) or d < 0:
            raise ValueError(f"a duration must be a finite number >= 0, got {d!r}")
        if integral and d != int(d):
            raise ValueError(f"round numbers must be whole, got {d!r}")
        if o not in (0, 1):  # True, False, 0 and 1
            raise ValueError(f"observed must be a bool, got {o!r}")
        pairs.append((d, bool(o)))
    return pairs


# -- Kaplan-Meier ---------------------------------------------------------------


class KMRow(NamedTuple):
    time: float
    at_risk: int  # games with duration >= time
    events: int  # losses at time
    survival: float  # S(time), just after the losses at time
    lower95: float
    upper95: float
    censored: int  # games censored at time


def kaplan_meier(durations: Sequence[float], observed: Sequence[bool] | None = None,
                 *, level: float = 0.95) -> list[KMRow]:
    """The Kaplan-Meier estimate, one row per distinct duration (loss or censoring).

    S(t) = prod over loss times t_i <= t of (1 - d_i / n_i), with n_i the games
    at risk (duration >= t_i) and d_i the losses at t_i. A game censored at
    t_i counts as at risk at t_i.

    Greenwood: Var(S) = S^2 * sum d_i / (n_i (n_i - d_i)). The band is built on
    log(-log S), whose standard error is sqrt(sum d_i / (n_i (n_i - d_i))) / |log S|:
    lower = S ** exp(+z se), upper = S ** exp(-z se). It always stays in [0, 1].
    While no loss has happened (S = 1) the band is the point 1; once S = 0 it
    is the point 0. (The bounds are named for 95% but follow ``level``.)
    """
    counts = lifetime_histogram(check_lifetimes(durations, observed))
    return kaplan_meier_counts(counts, level=level)


def lifetime_histogram(
    pairs: Iterable[tuple[Duration, bool]],
) -> dict[Duration, tuple[int, int]]:
    """(duration, observed) pairs as a histogram: duration -> (losses, censored)."""
    counts: dict[Duration, tuple[int, int]] = {}
    for duration, observed in pairs:
        lost, censored = counts.get(duration, (0, 0))
        counts[duration] = (lost + 1, censored) if observed else (lost, censored + 1)
    return counts


def kaplan_meier_counts(counts: Mapping[Duration, tuple[int, int]], *,
                        level: float = 0.95) -> list[KMRow]:
    """``kaplan_meier`` of the games a histogram counts: duration -> (losses, censored).

    The dashboard keeps such histograms instead of lists of games; durations
    with neither a loss nor a censoring give no row.
    """
    z = z_for(level)
    at_risk = sum(lost + censored for lost, censored in counts.values())
    survival, greenwood = 1.0, 0.0
    rows = []
    for time in sorted(counts):
        events, censored = counts[time]
        if not events and not censored:
            continue
        if events:
            survival *= 1 - events / at_risk
            if at_risk > events:
                greenwood += events / (at_risk * (at_risk - events))
            else:
                greenwood = math.inf
        lower, upper = _loglog_band(survival, greenwood, z)
        rows.append(KMRow(time, at_risk, events, survival, lower, upper, censored))
        at_risk -= events + censored
    return rows


def _loglog_band(survival: float, greenwood: float, z: float) -> tuple[float, float]:
    if survival >= 1.0:
        return (1.0, 1.0)
    if survival <= 0.0:
        return (0.0, 0.0)
    log_s = math.log(survival)
    se = math.sqrt(greenwood) / abs(log_s)
    return (survival ** math.exp(z * se), survival ** math.exp(-z * se))


def km_mean_median(pairs: Sequence[tuple[float, bool]]) -> tuple[float, float | None]:
    """The restricted mean (area under S up to the longest duration) and the median.

    Without censoring the restricted mean is the plain mean. The median is
    the first time at which S drops to 0.5 or below (None when it never
    does), the convention of lifelines' ``median_survival_time_``.
    """
    ordered = sorted(pairs)
    at_risk = len(ordered)
    survival = 1.0
    area = 0.0
    previous = 0.0
    median = None
    i = 0
    while i < len(ordered):
        time = ordered[i][0]
        area += survival * (time - previous)
        previous = time
        events = removed = 0
        while i < len(ordered) and ordered[i][0] == time:
            events += ordered[i][1]
            removed += 1
            i += 1
        if events:
            survival *= 1 - events / at_risk
            if median is None and survival <= 0.5:
                median = time
        at_risk -= removed
    return area, median


# -- the hazard per round ---------------------------------------------------------


class HazardRow(NamedTuple):
    round: int
    at_risk: int  # games that reached this round (duration >= round)
    lost: int  # losses in this round
    hazard: float  # lost / at_risk (NaN when nobody is at risk)
    lower95: float  # Wilson interval
    upper95: float
    censored: int  # games censored after this round


def hazard_per_round(durations: Sequence[int], observed: Sequence[bool] | None = None,
                     *, z: float = Z95) -> list[HazardRow]:
    """The discrete hazard h(k) = lost(k) / at_risk(k) for each round k.

    ``durations`` are round numbers: the round in which the game was lost
    (1 = the first round), or for a censored game the last round it was seen
    to survive. A game is at risk in rounds 1 .. its duration. Rows run from
    round 1 (or 0 if some duration is 0) to the longest duration; the
    interval is Wilson's with ``lost`` successes in ``at_risk`` trials.
    """
    pairs = check_lifetimes(durations, observed, integral=True)
    return hazard_counts(lifetime_histogram((int(d), o) for d, o in pairs), z=z)


def hazard_counts(counts: Mapping[int, tuple[int, int]], *, z: float = Z95) -> list[HazardRow]:
    """``hazard_per_round`` of the games a histogram counts: round -> (losses, censored)."""
    present = [k for k, (lost, censored) in counts.items() if lost or censored]
    if not present:
        return []
    first, last = min(1, min(present)), max(present)
    at_risk = sum(lost + censored for k, (lost, censored) in counts.items() if k >= first)
    rows = []
    for k in range(first, last + 1):
        lost, censored = counts.get(k, (0, 0))
        hazard = lost / at_risk if at_risk else math.nan
        lower, upper = wilson_interval(lost, at_risk, z)
        rows.append(HazardRow(k, at_risk, lost, hazard, lower, upper, censored))
        at_risk -= lost + censored
    return rows


@dataclass(frozen=True, slots=True)
class HazardPlateau:
    start_round: int  # the first round of the plateau
    end_round: int  # the last round pooled
    lost: int  # losses in the pooled rounds
    exposure: int  # game-rounds at risk in the pooled rounds
    hazard: float  # lost / exposure: the loss probability per round
    lower95: float  # Wilson interval on lost / exposure
    upper95: float


def hazard_plateau(
    durations: Sequence[int],
    observed: Sequence[bool] | None = None,
    *,
    window: int = 3,
    min_at_risk: int = 20,
    min_at_risk_fraction: float = 0.05,
    z: float = Z95,
) -> HazardPlateau | None:
    """The constant late-round hazard: the game's loss rate per round.

    Early rounds are safer than late ones (a group needs time to grow across
    the board), then the hazard levels off. The rule:

    1. Usable rounds are those with at least ``max(min_at_risk,
       min_at_risk_fraction * games)`` games at risk: the thin tail of very
       long games is left out.
    2. The plateau starts at the first usable round k such that the pooled
       hazard of the ``window`` rounds k .. k+window-1 (losses over
       game-rounds at risk) has a Wilson interval that contains the pooled
       hazard of all later usable rounds: the hazard no longer changes
       measurably from there on.
    3. The plateau hazard pools every usable round from k on: losses over
       exposure, with its Wilson interval (each game-round at risk is a
       Bernoulli trial).

    None when fewer than ``window`` + 1 rounds are usable, or no start is found.
    """
    rows = hazard_per_round(durations, observed, z=z)
    return plateau_of_rows(
        rows, len(list(durations)), window=window, min_at_risk=min_at_risk,
        min_at_risk_fraction=min_at_risk_fraction, z=z,
    )


def plateau_of_rows(
    rows: Sequence[HazardRow],
    games: int,
    *,
    window: int = 3,
    min_at_risk: int = 20,
    min_at_risk_fraction: float = 0.05,
    z: float = Z95,
) -> HazardPlateau | None:
    """``hazard_plateau``'s rule applied to hazard rows already computed for ``games`` games."""
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError("window must be a positive integer")
    needed = max(1, min_at_risk, math.ceil(min_at_risk_fraction * games))
    usable = [r for r in rows if r.round >= 1 and r.at_risk >= needed]
    for start in range(len(usable) - window):
        head, tail = usable[start:start + window], usable[start + window:]
        head_lost, head_exposure = sum(r.lost for r in head), sum(r.at_risk for r in head)
        tail_hazard = sum(r.lost for r in tail) / sum(r.at_risk for r in tail)
        lower, upper = wilson_interval(head_lost, head_exposure, z)
        if lower <= tail_hazard <= upper:
            pooled = usable[start:]
            lost = sum(r.lost for r in pooled)
            exposure = sum(r.at_risk for r in pooled)
            lower, upper = wilson_interval(lost, exposure, z)
            return HazardPlateau(pooled[0].round, pooled[-1].round, lost, exposure,
                                 lost / exposure, lower, upper)
    return None


# -- summaries -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LifetimeSummary:
    n: int
    losses: int
    censored: int
    mean: float  # restricted mean: area under the Kaplan-Meier curve (plain mean if uncensored)
    mean_lower: float  # percentile bootstrap over games
    mean_upper: float
    median: float | None  # Kaplan-Meier median (None if S never reaches 0.5)
    median_lower: float
    median_upper: float
    level: float


def lifetime_summary(
    durations: Sequence[float],
    observed: Sequence[bool] | None = None,
    *,
    level: float = 0.95,
    n_resamples: int = 2000,
    seed: int = 0,
) -> LifetimeSummary:
    """Mean and median lifetime with percentile-bootstrap intervals (games resampled).

    With censored games the mean is the restricted mean, the area under the
    Kaplan-Meier curve up to the longest duration: a lower bound on the true
    mean, and equal to the plain mean when nothing is censored.
    """
    pairs = check_lifetimes(durations, observed)
    if not pairs:
        raise ValueError("no games")
    mean_ci, median_ci = bootstrap_many(
        pairs,
        km_mean_median,
        n_resamples=n_resamples,
        seed=seed,
        level=level,
    )
    mean, median = km_mean_median(pairs)
    losses = sum(o for _, o in pairs)
    return LifetimeSummary(
        len(pairs), losses, len(pairs) - losses, mean, mean_ci.lower, mean_ci.upper,
        median, median_ci.lower, median_ci.upper, level,
    )
