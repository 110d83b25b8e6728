"""``threshold_from_rates``: both methods on one set of points, and the report of them.

**The headline** (``ThresholdReport.headline``, the estimate a summary quotes
first) is the scaling fit with its correction term when there are four sizes
or more; otherwise the crossing, labelled a *finite-size estimate*. On
synthetic curves shaped like the planar runs with a 1.2/L drift of the
crossing (``bench/coverage.py``) only the corrected fit kept its 95%
interval's coverage: the crossings estimate where curves of these sizes
cross, and a fit of three sizes has no term for the drift.

A point where every game was censored (no trials) or every game failed
says nothing about the trend and is left out of both methods, by name. No
crossing in the swept range gives no number at all, only the direction:
failure falling with L everywhere (below threshold everywhere) or rising
(above threshold everywhere). A crossing in the first or last interval of
the swept rates is flagged as at the edge of the range.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from .bootstrap import FloatArray, empirical_logit, logit_variance
from .crossing import COMBINE, LOCAL_FITS, _crossings, pairs_drift
from .records import (
    CrossingEstimate,
    ExcludedPoint,
    Headline,
    RatePoint,
    ScalingFit,
    ThresholdReport,
)
from .scaling import CORRECTION_SIZES, _scaling


def _drift_note(crossing: CrossingEstimate, scaling: ScalingFit) -> str:
    """The report's sentence on finite-size drift ("" when none is seen)."""
    moving = pairs_drift(crossing.pairs)
    if not (moving or scaling.drift):
        return ""
    crossed = ", ".join(f"{p.value:.4f} at {p.sizes[0]}-{p.sizes[1]}" for p in crossing.pairs
                        if p.value is not None)
    if moving:
        note = f"finite-size drift: the pair crossings move with L ({crossed})"
    else:
        note = (f"finite-size drift: the scaling fit's correction term is significant (pair "
                f"crossings {crossed})")
    if scaling.p_th is None or scaling.edge:
        return note
    if scaling.omega is not None:
        return (note + f"; the scaling fit includes a correction term d L^-{scaling.omega:g} "
                "and its interval is widened accordingly")
    return (note + "; the scaling fit has no correction term (too few sizes or points), so its "
            "interval leaves the drift out")



def _direction(y0: FloatArray, usable: NDArray[np.bool_],
               informative: NDArray[np.bool_]) -> str:
    """"below" when failure falls with L at (nearly) every compared rate, "above" when it rises."""
    signs = []
    for i in range(y0.shape[0] - 1):
        mask = usable[i] & usable[i + 1] & (informative[i] | informative[i + 1])
        d = (y0[i + 1] - y0[i])[mask]
        signs.extend(np.sign(d[d != 0]).tolist())
    if not signs:
        return "unclear"
    rising = sum(1 for s in signs if s > 0)
    if rising == 0:
        return "below"
    if rising == len(signs):
        return "above"
    return "unclear"


def threshold_from_rates(
    points: Iterable[RatePoint],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    combine: str = "weighted",
    local: bool = True,
    local_fit: str = "quadratic",
    scaling_fit: bool = True,
) -> ThresholdReport:
    """Crossings and a scaling fit of failure against ``p``, per L.

    The two methods are described in the modules ``crossing`` and ``scaling``; the
    headline and the points left out in the notes above.

    ``local``: each pair's crossing from a weighted curve through the bracket
    and its neighbouring rates (the default); False interpolates between the
    two bracketing rates only (kept for comparison). ``local_fit`` is that
    curve: ``"quadratic"`` (a parabola through two rates on each side, the
    default) or ``"line"`` (a line through one on each side, as before; kept
    for comparison).

    ``scaling_fit=False`` leaves the scaling fit out (most of the time a call takes), for a
    benchmark that reads the crossings alone.

    ``combine`` says how the pairs' crossings make the headline crossing:
    ``"weighted"`` (their inverse-variance-weighted mean, the default) or
    ``"mean"`` (their plain mean, kept for comparison).
    """
    if combine not in COMBINE:
        raise ValueError(f"combine must be one of {', '.join(COMBINE)}, got {combine!r}")
    if local_fit not in LOCAL_FITS:
        raise ValueError(f"local_fit must be one of {', '.join(LOCAL_FITS)}, got {local_fit!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError("n_resamples must be a positive integer")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    cells = list(points)
    seen: set[tuple[int, float]] = set()
    for p in cells:
        key = (p.size, float(p.rate))
        if key in seen:
            raise ValueError(f"two points for L={p.size} p={p.rate:g}")
        seen.add(key)
    excluded = tuple(ExcludedPoint(p.size, float(p.rate), p.exclusion)
                     for p in sorted(cells, key=lambda c: (c.size, c.rate)) if p.exclusion)
    sizes = sorted({p.size for p in cells})
    rates_list = sorted({float(p.rate) for p in cells})
    rate_range = (rates_list[0], rates_list[-1]) if rates_list else None
    no_crossing = CrossingEstimate(None, None, None, level, 0.0, False, (), "")
    no_fit = ScalingFit(None, None, None, None, None, None, None, None, 0, 0, False, "")
    usable_cells = [p for p in cells if not p.exclusion]
    if len({p.size for p in usable_cells}) < 2 or len({p.rate for p in usable_cells}) < 2:
        message = "no threshold: needs usable points at two or more sizes and rates"
        return ThresholdReport(no_crossing, no_fit, excluded, "unclear", rate_range, None, level,
                               _with_excluded(message, excluded), tuple(sizes))
    rates = np.array(rates_list)
    shape = (len(sizes), len(rates))
    failures = np.zeros(shape)
    trials = np.zeros(shape)
    usable = np.zeros(shape, dtype=bool)
    for p in cells:
        i, j = sizes.index(p.size), rates_list.index(float(p.rate))
        failures[i, j], trials[i, j] = p.failures, p.trials
        usable[i, j] = not p.exclusion
    informative = usable & (failures > 0)
    rng = np.random.default_rng(seed)
    probabilities = np.divide(failures, trials, out=np.zeros(shape), where=trials > 0)
    drawn = rng.binomial(trials.astype(np.int64)[None], probabilities[None],
                         size=(n_resamples, *shape)).astype(np.float64)
    all_failures = np.concatenate([failures[None], drawn])  # (B + 1, sizes, rates)
    y = empirical_logit(all_failures, trials[None])
    variance = logit_variance(all_failures, trials[None]) if local else None
    crossing = _crossings(y, usable, informative, rates, sizes, level, combine, variance,
                          local_fit)
    direction = "crossing" if crossing.value is not None else _direction(y[0], usable,
                                                                         informative)
    flat = usable.ravel()
    point_rates = np.broadcast_to(rates[None, :], shape).ravel()[flat]
    point_sizes = np.broadcast_to(np.array(sizes, dtype=np.float64)[:, None], shape).ravel()[flat]
    lo, hi = rates_list[0], rates_list[-1]
    if scaling_fit:
        scaling = _scaling(failures.ravel()[flat], trials.ravel()[flat], point_rates,
                           point_sizes, level, (lo, hi), rng, n_resamples)
    else:
        scaling = replace(no_fit, message="not fitted (scaling_fit=False)")
    if crossing.value is None:
        if scaling.p_th is not None:
            scaling = replace(scaling, p_th=None, lower=None, upper=None,
                              message="not reported: the curves do not cross in the swept range")
        if direction == "below":
            message = (f"no threshold between {lo:g} and {hi:g}: failure falls with L at every "
                       f"rate swept (below threshold everywhere; the threshold is above {hi:g})")
        elif direction == "above":
            message = (f"no threshold between {lo:g} and {hi:g}: failure rises with L at every "
                       f"rate swept (above threshold everywhere; the threshold is below {lo:g})")
        else:
            message = (f"no threshold between {lo:g} and {hi:g}: the curves of different L do "
                       "not cross from below to above")
        return ThresholdReport(crossing, scaling, excluded, direction, rate_range, None, level,
                               _with_excluded(message, excluded), tuple(sizes))
    agree = None
    if (scaling.lower is not None and scaling.upper is not None and not scaling.edge
            and crossing.lower is not None and crossing.upper is not None):
        agree = crossing.lower <= scaling.upper and scaling.lower <= crossing.upper
    percent = round(level * 100)
    headline = _headline(crossing, scaling)
    crossing_text = (f"{crossing.value:.4f}, {percent}% CI [{crossing.lower:.4f}, "
                     f"{crossing.upper:.4f}] from crossings")
    scaling_text = ""
    if scaling.p_th is not None and not scaling.edge:
        quality = scaling.chi2_dof
        scaling_text = (f"{scaling.p_th:.4f} [{scaling.lower:.4f}, {scaling.upper:.4f}] from "
                        f"finite-size scaling (nu = {scaling.nu:.2f}"
                        + (f", chi2/dof = {quality:.2f}" if quality is not None else "")
                        + (f", correction d L^-{scaling.omega:g} with d = "
                           f"{scaling.correction:.3g}"
                           if scaling.omega is not None and scaling.correction is not None
                           else "")
                        + ")")
    if headline is not None and headline.method == "scaling":
        scaling_text = scaling_text.replace(f" [{scaling.lower:.4f}", f", {percent}% CI "
                                            f"[{scaling.lower:.4f}", 1)
        message = (f"threshold p = {scaling_text}; crossings {crossing.value:.4f} "
                   f"[{crossing.lower:.4f}, {crossing.upper:.4f}] (a finite-size estimate: "
                   "the crossing of small sizes moves with L)")
    else:
        message = f"finite-size estimate p = {crossing_text}"
        message += (f"; {scaling_text}" if scaling_text
                    else f"; the scaling fit gives no value ({scaling.message})")
        if len(sizes) < CORRECTION_SIZES:
            message += (f"; not a threshold estimate: with {len(sizes)} sizes no interval "
                        f"allows for drift of the crossing with L (with {CORRECTION_SIZES} sizes "
                        "or more the scaling fit has a correction term and is the estimate)")
        else:
            message += ("; not a threshold estimate: the scaling fit with its correction term "
                        "gives no value, and the crossing's interval does not allow for its "
                        "drift with L")
    if agree is False:
        message += "; the two methods disagree (their intervals do not overlap)"
    if crossing.edge:
        message += "; the crossing is at the edge of the swept range: widen the range"
    drift_note = _drift_note(crossing, scaling)
    if drift_note:
        message += "; " + drift_note
    return ThresholdReport(crossing, scaling, excluded, direction, rate_range, agree, level,
                           _with_excluded(message, excluded), tuple(sizes), bool(drift_note),
                           headline)


def _headline(crossing: CrossingEstimate, scaling: ScalingFit) -> Headline | None:
    """The estimate to quote first: the corrected scaling fit, else a finite-size estimate.

    Measured on synthetic curves shaped like the planar runs (``bench/coverage.py``):
    under a drift of the crossing with L only the scaling fit with its correction term
    (four sizes or more) keeps its 95% interval's coverage; the crossings and a fit of
    three sizes estimate where curves of these sizes cross, not p_th.
    """
    if (scaling.p_th is not None and not scaling.edge and scaling.omega is not None
            and scaling.lower is not None and scaling.upper is not None):
        return Headline("scaling", scaling.p_th, scaling.lower, scaling.upper, False)
    if (crossing.value is not None and crossing.lower is not None
            and crossing.upper is not None):
        return Headline("crossing", crossing.value, crossing.lower, crossing.upper, True)
    return None


def _with_excluded(message: str, excluded: Sequence[ExcludedPoint]) -> str:
    if not excluded:
        return message
    return message + "; left out: " + ", ".join(str(e) for e in excluded)
