"""Coverage of the threshold intervals on synthetic curves shaped like the planar runs.

A 95% interval should hold the true threshold in 95% of repeats. This
benchmark draws sweeps from a known failure model, runs the estimator of
``core.stats.threshold_from_rates`` on each (the statistics of the
``threshold`` command) and counts how often each interval holds the truth.

The model (``PLANAR_LIKE``) is shaped like the d = 2 matching runs of
docs/threshold.md: ``logit P = a + b x + c x^2 + drift / L`` with
``x = (p - p_c) L^(1/nu)``, p_c = 0.10, nu = 1.5, a = -2, b = 12, c = 20
(at L = 8 and p = 0.10 a failure rate of 0.12, against 0.13 measured for
matching), seven rates 0.07 to 0.13, 2,000 shots a point, binomial draws.
The ``drift / L`` term is a correction to scaling: with drift 1.2 the curves
of small sizes cross above p_c (0.1032 for L = 8, 12, 0.1018 for 12, 16,
0.1010 for 16, 24), as small planar boards cross off the infinite-size value.

Four cases: sizes 8, 12, 16 and 8, 12, 16, 24, each without and with the
drift. For each, every estimate's coverage of p_c over the repeats (split
over several seeds, each seed's count printed), with a Wilson interval for
the coverage itself, the median width and the mean error:

- ``crossing``: the pairs' combined crossing (a local parabola per pair);
- ``crossing, line``: the same with the local line of earlier versions, on
  the same data: the baseline, measured in the same run;
- ``scaling``: the finite-size-scaling fit (a correction term with four
  sizes or more);
- ``headline``: the estimate the command and the dashboard quote first
  (``ThresholdReport.headline``): the corrected fit with four sizes or more,
  else the crossing labelled a finite-size estimate.

Run from the repository root::

    python -m bench.coverage [--repeats 300] [--seeds 1,2,3] [--resamples 1000]
                             [--shots 2000] [--check]

``--check`` exits non-zero when the headline of four sizes covers p_c in
fewer than 93% of the repeats, with or without drift.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.stats import RatePoint, ThresholdReport, threshold_from_rates, wilson_interval

LEVEL = 0.95
TARGET = 0.93
DRIFT = 1.2
SHORT_SIZES = (8, 12, 16)
LONG_SIZES = (8, 12, 16, 24)
RATES = tuple(round(0.07 + 0.01 * k, 4) for k in range(7))


@dataclass(frozen=True, slots=True)
class Curve:
    """``logit P = a + b x + c x^2 + drift / L``, ``x = (p - p_c) L^(1/nu)``."""

    p_c: float = 0.10
    nu: float = 1.5
    a: float = -2.0
    b: float = 12.0
    c: float = 20.0

    def failure(self, size: int, rate: float, drift: float = 0.0) -> float:
        x = (rate - self.p_c) * size ** (1 / self.nu)
        logit = self.a + self.b * x + self.c * x * x + drift / size
        return 1 / (1 + math.exp(-logit))

    def pair_crossing(self, small: int, large: int, drift: float = 0.0) -> float:
        """Where the noiseless curves of two sizes cross within 0.03 of p_c (bisection)."""
        def gap(rate: float) -> float:
            return self.failure(large, rate, drift) - self.failure(small, rate, drift)

        low, high = self.p_c - 0.03, self.p_c + 0.03
        if not gap(low) < 0 < gap(high):
            raise ValueError("the curves do not cross within 0.03 of p_c")
        while high - low > 1e-12:
            middle = (low + high) / 2
            low, high = (middle, high) if gap(middle) < 0 else (low, middle)
        return (low + high) / 2


PLANAR_LIKE = Curve()


def synthetic_sweep(rng: np.random.Generator | None, *, sizes: Sequence[int],
                    rates: Sequence[float] = RATES, shots: int = 2000, drift: float = 0.0,
                    curve: Curve = PLANAR_LIKE) -> list[RatePoint]:
    """One sweep: failures ~ Binomial(shots, P(L, p)) at every (L, p), drawn from ``rng``.

    Without ``rng`` the sweep is noiseless: failures = shots P(L, p), rounded.
    """
    def failures(size: int, rate: float) -> int:
        probability = curve.failure(size, rate, drift)
        if rng is None:
            return round(shots * probability)
        return int(rng.binomial(shots, probability))

    return [RatePoint(size, rate, failures(size, rate), shots) for size in sizes for rate in rates]


Interval = tuple[float | None, float | None, float | None]  # value, lower, upper


@dataclass
class Coverage:
    """How often intervals held the truth; an interval that is missing counts as a miss."""

    truth: float
    hits: int = 0
    repeats: int = 0
    missing: int = 0
    widths: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    by_seed: dict[int, list[int]] = field(default_factory=dict)  # seed -> [hits, repeats]

    def add(self, interval: Interval, seed: int = 0) -> bool:
        value, lower, upper = interval
        held = lower is not None and upper is not None and lower <= self.truth <= upper
        self.repeats += 1
        self.hits += held
        tally = self.by_seed.setdefault(seed, [0, 0])
        tally[0] += held
        tally[1] += 1
        if value is None or lower is None or upper is None:
            self.missing += 1
        else:
            self.widths.append(upper - lower)
            self.errors.append(value - self.truth)
        return held

    @property
    def share(self) -> float:
        return self.hits / self.repeats if self.repeats else math.nan

    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the coverage itself."""
        return wilson_interval(self.hits, self.repeats)


@dataclass(frozen=True, slots=True)
class Estimate:
    """One interval to check: the options of the call that makes it and how to read it."""

    name: str
    read: Callable[[ThresholdReport], Interval]
    local_fit: str = "quadratic"
    scaling_fit: bool = True  # False: the call leaves the fit out (the crossings alone)


def _crossing(report: ThresholdReport) -> Interval:
    c = report.crossing
    return c.value, c.lower, c.upper


def _scaling(report: ThresholdReport) -> Interval:
    s = report.scaling
    if s.edge:
        return None, None, None
    return s.p_th, s.lower, s.upper


def _headline(report: ThresholdReport) -> Interval:
    h = report.headline
    if h is None:
        return None, None, None
    return h.value, h.lower, h.upper


ESTIMATES = (
    Estimate("crossing", _crossing),
    Estimate("crossing, line (before)", _crossing, "line", scaling_fit=False),
    Estimate("scaling", _scaling),
    Estimate("headline", _headline),
)


def measure(*, sizes: Sequence[int], drift: float, seeds: Sequence[int], repeats: int,
            resamples: int = 1000, shots: int = 2000, curve: Curve = PLANAR_LIKE,
            estimates: Sequence[Estimate] = ESTIMATES) -> dict[str, Coverage]:
    """Coverage of p_c by each estimate over ``repeats`` sweeps, split evenly over ``seeds``.

    Sweep i of seed s is drawn from ``default_rng([s, i])`` and its bootstrap seeded
    with ``s * 100_000 + i``: every estimate sees the same sweeps, and a run is
    reproducible.
    """
    if repeats < len(seeds):
        raise ValueError("at least one repeat per seed")
    found = {e.name: Coverage(curve.p_c) for e in estimates}
    calls = sorted({(e.local_fit, e.scaling_fit) for e in estimates})
    for k, seed in enumerate(seeds):
        count = repeats // len(seeds) + (k < repeats % len(seeds))
        for i in range(count):
            points = synthetic_sweep(np.random.default_rng([seed, i]), sizes=sizes,
                                     shots=shots, drift=drift, curve=curve)
            reports = {(fit, scaling): threshold_from_rates(
                points, n_resamples=resamples, seed=seed * 100_000 + i, level=LEVEL,
                local_fit=fit, scaling_fit=scaling) for fit, scaling in calls}
            for e in estimates:
                found[e.name].add(e.read(reports[(e.local_fit, e.scaling_fit)]), seed)
    return found


def _row(name: str, c: Coverage) -> str:
    low, high = c.interval()
    seeds = " ".join(f"{h}/{n}" for h, n in c.by_seed.values())
    width = statistics.median(c.widths) if c.widths else math.nan
    error = statistics.fmean(c.errors) if c.errors else math.nan
    missing = f", {c.missing} without an interval" if c.missing else ""
    return (f"  {name:<25} {c.hits:>4}/{c.repeats:<4} {c.share:6.1%} [{low:.1%}, {high:.1%}]"
            f"  by seed {seeds:<22} width {width:.4f}  error {error:+.4f}{missing}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300, help="sweeps per case (300)")
    parser.add_argument("--seeds", default="1,2,3", help="the repeats are split over these")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--shots", type=int, default=2000)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    curve = PLANAR_LIKE
    print(f"coverage of p_c = {curve.p_c} by nominal {LEVEL:.0%} intervals; {args.repeats} "
          f"sweeps a case over seeds {args.seeds}; {args.shots} shots a point; rates "
          f"{RATES[0]:g}..{RATES[-1]:g} ({len(RATES)}); {args.resamples} resamples")
    print("  columns: covered/repeats, share [its Wilson 95% interval], each seed's count, "
          "median width, mean error of the value")
    ok = True
    for sizes in (SHORT_SIZES, LONG_SIZES):
        for drift in (0.0, DRIFT):
            pairs = ", ".join(f"{a}-{b} {curve.pair_crossing(a, b, drift):.4f}"
                              for a, b in itertools.pairwise(sizes))
            started = time.process_time()
            found = measure(sizes=sizes, drift=drift, seeds=seeds, repeats=args.repeats,
                            resamples=args.resamples, shots=args.shots, curve=curve)
            print(f"\nsizes {','.join(map(str, sizes))}, drift {drift:g}/L (noiseless pair "
                  f"crossings {pairs}; {time.process_time() - started:.0f} s CPU)")
            for name, c in found.items():
                print(_row(name, c))
            if len(sizes) >= 4 and found["headline"].share < TARGET:
                ok = False
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
