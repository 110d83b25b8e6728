"""The "What players do" page: the latest strategy fit, its held-out scores, the learned decoder.

Reads stored results only (``results.models.StrategyFit`` and finished threshold
sweeps); nothing is fitted or played here. The interval plots are laid out
here, as SVG coordinates, so that the page needs no script.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from games.engine.strategy import FEATURES
from results.analysis.strategy import REFERENCE_BOTS
from results.models import StrategyFit, Sweep
from results.selectors import threshold_results

LEARNED_BOT = "learned"
"""The bot that plays with a stored fit's weights."""

# The interval plots share one scale; a weight beyond it is drawn to the edge.
SCALE_LIMIT = 12.0
PLOT_WIDTH = 300.0
PLOT_PAD = 6.0

# Curves of the threshold plot: one colour per bot, the learned bot drawn thick.
CURVE_COLOURS = ("#2f3fb8", "#b42318", "#1b7a43", "#8a5a00", "#6b2fb8", "#0e7490")
CURVE = {"width": 320.0, "height": 200.0, "left": 40.0, "right": 10.0, "top": 10.0,
         "bottom": 34.0}

_BOT_SENTENCES = {
    "random": "moves a random number to a random neighbouring cell (chance level)",
    "greedy": "annihilates when it can, else moves a number toward its nearest complement",
    "clustering": "grows the groups it believes in and shrinks the one nearest to spanning",
    "player": "weighs the features by hand, to play like the original app's best players",
}


COHORT_LABELS = {
    "all moves": "all moves", "low": "low scorers", "middle": "middle scorers",
    "high": "high scorers", "z10": "Z10", "phi_lambda": "Phi-Lambda",
    "played_here": "played here", "imported": "original apps",
}
"""How the page names a cohort (``results.selectors.STRATEGY_SPLITS``)."""

SPLIT_LABELS = {"skill": "skill (score tertile within the rule group)",
                "variant": "variant", "source": "where the games were played"}


def cohort_label(name: str) -> str:
    return COHORT_LABELS.get(name, name)


@dataclass(frozen=True)
class Interval:
    """One weight with its 95% interval, and where the plot draws it."""

    cohort: str
    coef: float | None
    lower: float | None
    upper: float | None
    x: float = 0.0
    x_lower: float = 0.0
    x_upper: float = 0.0
    cut: bool = False  # the interval runs past the plot's scale

    @property
    def label(self) -> str:
        return cohort_label(self.cohort)

    @property
    def x_mark(self) -> float:
        """The left edge of the estimate's mark (4 units wide)."""
        return round(self.x - 2.0, 2)

    @property
    def excludes_zero(self) -> bool:
        return (self.lower is not None and self.upper is not None
                and (self.lower > 0 or self.upper < 0))


@dataclass(frozen=True)
class FeatureRow:
    name: str
    sentence: str
    intervals: list[Interval] = field(default_factory=list)


def _finite(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def _scale(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The plot's range: every interval and 0, within +-SCALE_LIMIT."""
    values = [0.0]
    for row in rows:
        values += [v for v in (_finite(row.get("lower")), _finite(row.get("upper")))
                   if v is not None]
    low = max(-SCALE_LIMIT, min(values))
    high = min(SCALE_LIMIT, max(values))
    if high - low < 1e-9:
        low, high = low - 1.0, high + 1.0
    return low, high


def _x(value: float, low: float, high: float) -> float:
    clipped = min(high, max(low, value))
    return round(PLOT_PAD + (clipped - low) / (high - low) * (PLOT_WIDTH - 2 * PLOT_PAD), 2)


def _feature_rows(
    tables: list[tuple[str, list[dict[str, Any]]]],
) -> tuple[list[FeatureRow], dict[str, Any]]:
    """Per feature (in the features' order), its weight in each table that has it."""
    every = [row for _, table in tables for row in table]
    low, high = _scale(every)
    by_name: dict[str, dict[str, dict[str, Any]]] = {}
    for cohort, table in tables:
        for row in table:
            by_name.setdefault(str(row["name"]), {})[cohort] = row
    rows = []
    for feature in FEATURES:
        found = by_name.get(feature.name)
        if not found:
            continue
        intervals = []
        for cohort, _ in tables:
            entry = found.get(cohort)
            if entry is None:
                continue
            coef, lower, upper = (_finite(entry.get(k)) for k in ("coef", "lower", "upper"))
            intervals.append(Interval(
                cohort=cohort, coef=coef, lower=lower, upper=upper,
                x=_x(coef, low, high) if coef is not None else 0.0,
                x_lower=_x(lower, low, high) if lower is not None else 0.0,
                x_upper=_x(upper, low, high) if upper is not None else 0.0,
                cut=(lower is not None and lower < low) or (upper is not None and upper > high),
            ))
        rows.append(FeatureRow(feature.name, feature.description, intervals))
    ticks = [t for t in range(math.ceil(low), math.floor(high) + 1)
             if t % (2 if high - low <= 12 else 5) == 0]
    scale = {"low": low, "high": high, "zero": _x(0.0, low, high), "width": PLOT_WIDTH,
             "ticks": [{"value": t, "x": _x(float(t), low, high)} for t in ticks]}
    return rows, scale


def _scores(fit: StrategyFit) -> list[dict[str, Any]]:
    """The held-out scores of the model and of each reference bot, as rows."""
    heldout = fit.heldout or {}
    entries = [("model", "the fitted model", heldout.get("model") or {})]
    bots = heldout.get("bots") or {}
    entries += [(name, f"the {name} bot: {_BOT_SENTENCES.get(name, '')}", bots.get(name) or {})
                for name in REFERENCE_BOTS if name in bots]
    rows = []
    for name, about, scores in entries:
        intervals = scores.get("intervals") or {}
        row: dict[str, Any] = {"name": name, "about": about}
        for key in ("top1", "top3", "loglik"):
            bounds = intervals.get(key) or [None, None]
            row[key] = {"value": _finite(scores.get(key)), "lower": _finite(bounds[0]),
                        "upper": _finite(bounds[1])}
        rows.append(row)
    return rows


def _cohorts(fit: StrategyFit) -> tuple[StrategyFit | None, dict[str, Any] | None]:
    """The split fit whose cohorts the page shows: this fit's, else the latest split fit."""
    if fit.by_cohort:
        return fit, fit.by_cohort
    split = StrategyFit.objects.filter(by_cohort__isnull=False).order_by("-created_at", "-id")
    for candidate in split:
        if candidate.by_cohort:
            return candidate, candidate.by_cohort
    return None, None


def learned_curves() -> dict[str, Any] | None:
    """The latest finished threshold sweep the learned bot played, with the other bots in it.

    Per bot: its failure curve at every board size (as SVG polylines) and its
    threshold (``results.selectors.threshold_results``). None when the
    learned bot has no finished threshold sweep.
    """
    sweeps = (Sweep.objects.filter(status=Sweep.Status.DONE).exclude(family="")
              .order_by("-finished_at", "-created_at"))
    sweep = next((s for s in sweeps.iterator() if LEARNED_BOT in (s.bots or [])), None)
    if sweep is None:
        return None
    results = threshold_results(sweep=sweep)
    points = [p for r in results for p in r["points"] if p["rate"] is not None]
    if not points:
        return None
    rate_low = min(p["rate"] for p in points)
    rate_high = max(p["rate"] for p in points)
    if rate_high - rate_low < 1e-12:
        rate_low, rate_high = rate_low - 0.01, rate_high + 0.01
    c = CURVE
    inner_w = c["width"] - c["left"] - c["right"]
    inner_h = c["height"] - c["top"] - c["bottom"]

    def at(rate: float, failure: float) -> str:
        x = c["left"] + (rate - rate_low) / (rate_high - rate_low) * inner_w
        y = c["top"] + (1.0 - failure) * inner_h
        return f"{x:.1f},{y:.1f}"

    sizes = sorted({p["size"] for p in points})
    bots = []
    ordered = sorted(results, key=lambda r: (r["bot"] != LEARNED_BOT, r["bot"]))
    for k, result in enumerate(ordered):
        curves = []
        for size in sizes:
            mine = sorted((p for p in result["points"]
                           if p["size"] == size and p["failure_rate"] is not None),
                          key=lambda p: p["rate"])
            if mine:
                curves.append({
                    "size": size, "largest": size == sizes[-1],
                    "points": " ".join(at(p["rate"], p["failure_rate"]) for p in mine),
                })
        crossing = result["threshold"]["crossing"]
        bots.append({
            "name": result["bot"], "learned": result["bot"] == LEARNED_BOT,
            "colour": CURVE_COLOURS[k % len(CURVE_COLOURS)], "curves": curves,
            "threshold": _finite(crossing["value"]), "lower": _finite(crossing["lower"]),
            "upper": _finite(crossing["upper"]), "message": result["message"],
        })
    x_ticks = []
    for k in range(5):
        rate = rate_low + (rate_high - rate_low) * k / 4
        x_ticks.append({"x": round(c["left"] + inner_w * k / 4, 1), "label": f"{rate:.3g}"})
    y_ticks = [{"y": round(c["top"] + (1 - f) * inner_h, 1), "label": f"{f:g}"}
               for f in (0.0, 0.5, 1.0)]
    return {
        "sweep": str(sweep.pk), "family": sweep.family, "criterion": results[0]["criterion"],
        "sizes": sizes, "bots": bots, "frame": c, "x_ticks": x_ticks, "y_ticks": y_ticks,
        "axis_y": c["height"] - c["bottom"], "axis_x_end": c["width"] - c["right"],
    }


def what_players_do() -> dict[str, Any]:
    """Everything the page shows; ``fit`` is None before the first fit is stored."""
    fit = StrategyFit.objects.order_by("-created_at", "-id").first()
    context: dict[str, Any] = {"fit": fit, "learned": learned_curves(),
                               "learned_bot": LEARNED_BOT}
    if fit is None:
        return context
    split_fit, split = _cohorts(fit)
    tables: list[tuple[str, list[dict[str, Any]]]] = [("all moves", list(fit.coefficients))]
    if split is not None:
        tables += [(str(entry["name"]), list(entry["features"])) for entry in split["cohorts"]]
    rows, scale = _feature_rows(tables)
    if split is not None:
        split = {**split, "label": SPLIT_LABELS.get(str(split["by"]), str(split["by"])),
                 "cohorts": [{**entry, "label": cohort_label(str(entry["name"]))}
                             for entry in split["cohorts"]]}
    context.update({
        "features": rows, "scale": scale,
        "cohort_names": [cohort_label(name) for name, _ in tables],
        "split_fit": split_fit, "split": split, "scores": _scores(fit),
        "not_fitted": [f.name for f in FEATURES if f.name not in (fit.features or [])],
    })
    return context
