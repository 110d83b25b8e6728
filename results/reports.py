"""Plain-text tables of sweep results, for the command line and the benchmark."""

from __future__ import annotations

from collections.abc import Iterable

from core.stats.finite_size import CORRECTION_SIZES
from games.engine.families import stored_kind
from games.engine.planar import hashing_bound
from results.models import Sweep, SweepPoint, SweepThreshold
from results.selectors import HumanPoint


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(low: float | None, high: float | None, digits: int = 1) -> str:
    if low is None or high is None:
        return "-"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def points_table(points: Iterable[SweepPoint]) -> str:
    header = (f"{'bot':<11} {'L':>3} {'budget':>6} {'games':>6} {'lost':>5} "
              f"{'mean rounds':>11} {'95% CI':>17} {'median':>7} {'95% CI':>17} "
              f"{'plateau hazard':>14} {'95% CI':>17}")
    lines = [header, "-" * len(header)]
    for p in points:
        lines.append(
            f"{p.bot_name:<11} {p.size:>3} {p.noise_budget:>6g} {p.games_done:>6} "
            f"{p.losses:>5} {_num(p.mean_rounds):>11} {_ci(p.mean_ci_low, p.mean_ci_high):>17} "
            f"{_num(p.median_rounds):>7} {_ci(p.median_ci_low, p.median_ci_high):>17} "
            f"{_num(p.plateau_hazard, 4):>14} "
            f"{_ci(p.plateau_ci_low, p.plateau_ci_high, 4):>17}"
        )
    return "\n".join(lines)


def thresholds_table(thresholds: Iterable[SweepThreshold]) -> str:
    lines = []
    for t in thresholds:
        if t.threshold_budget is None:
            lines.append(f"{t.bot_name}: no threshold found ({t.note})")
        else:
            lines.append(
                f"{t.bot_name}: threshold budget {t.threshold_budget:.2f}, 95% CI "
                f"{_ci(t.ci_low, t.ci_high, 2)} ({t.note})"
            )
    return "\n".join(lines)


def humans_table(points: Iterable[HumanPoint]) -> str:
    lines = []
    for h in points:
        if h.summary is None:
            lines.append(f"people, L={h.size} budget {h.noise_budget:g}: no finished games")
            continue
        s = h.summary
        plateau = "-" if h.plateau is None else (
            f"{h.plateau.hazard:.4f} {_ci(h.plateau.lower95, h.plateau.upper95, 4)}"
        )
        lines.append(
            f"people, L={h.size} budget {h.noise_budget:g}: {h.games} games, mean "
            f"{s.mean:.1f} rounds {_ci(s.mean_lower, s.mean_upper)}, median "
            f"{_num(s.median)} {_ci(s.median_lower, s.median_upper)}, plateau hazard {plateau}"
        )
    return "\n".join(lines)


def rate_points_table(points: Iterable[SweepPoint], *, family: str) -> str:
    """The points of a threshold sweep: failures out of trials with Wilson intervals."""
    what = "plateau hazard" if stored_kind(family).per_round else "P(failure)"
    header = (f"{'bot':<11} {'L':>3} {'p':>7} {'shots':>6} {'failed':>6} {'censored':>8} "
              f"{'trials':>8} {what:>14} {'95% CI':>19}")
    lines = [header, "-" * len(header)]
    for p in points:
        lines.append(
            f"{p.bot_name:<11} {p.size:>3} {p.rate or 0:>7.4f} {p.games_done:>6} {p.losses:>6} "
            f"{p.censored:>8} {'-' if p.trials is None else p.trials:>8} "
            f"{_num(p.failure_rate, 4):>14} {_ci(p.failure_ci_low, p.failure_ci_high, 4):>19}"
        )
    return "\n".join(lines)


def criterion_line(sweep: Sweep) -> str:
    """What the sweep's failures are, and for a planar sweep the hashing bound of its d."""
    if stored_kind(sweep.family).criterion == "logical" and sweep.modulus is not None:
        return (f"criterion: logical failure of the planar Z{sweep.modulus} code (the QEC "
                f"threshold); hashing bound for d = {sweep.modulus}: "
                f"p = {hashing_bound(sweep.modulus):.4f}")
    return ("criterion: the game's spanning rule (a group touching two opposite sides): "
            "this is the game's spanning threshold, not a logical failure rate")


def _pair_warnings(pairs: list[dict[str, object]]) -> list[str]:
    """The pair crossings' warnings, as the JSON holds them: sign changes, edges, overlaps."""
    warnings = []
    for pair in pairs:
        sizes = pair.get("sizes") or []
        name = f"L={','.join(str(s) for s in sizes)}"  # type: ignore[attr-defined]
        changes = pair.get("sign_changes")
        if isinstance(changes, int) and changes > 1:
            warnings.append(f"{name}: the curves change order {changes} times (noisy crossing)")
        if pair.get("edge"):
            warnings.append(f"{name}: the crossing is at the edge of the rates")
    usable = [p for p in pairs if p.get("lower") is not None and p.get("upper") is not None]
    for i, a in enumerate(usable):
        for b in usable[i + 1:]:
            if (float(a["upper"]) < float(b["lower"])  # type: ignore[arg-type]
                    or float(b["upper"]) < float(a["lower"])):  # type: ignore[arg-type]
                warnings.append(
                    f"pairs L={','.join(map(str, a['sizes']))} and "  # type: ignore[call-overload]
                    f"L={','.join(map(str, b['sizes']))} disagree "  # type: ignore[call-overload]
                    "(their intervals do not overlap)")
    return warnings


def rate_thresholds_table(thresholds: Iterable[SweepThreshold], *,
                          sweep: Sweep | None = None) -> str:
    """Both estimates per bot, side by side, every warning, then the message."""
    lines = []
    if sweep is not None and sweep.family:
        lines.append(criterion_line(sweep))
    for t in thresholds:
        lines.append(f"{t.bot_name}:")
        headline = t.detail.get("headline")
        if headline:
            source = ("finite-size scaling with a correction term" if headline["method"] ==
                      "scaling" else "crossings of adjacent-L curves")
            note = ("" if not headline["finite_size"] else
                    " (its interval does not allow for drift of the crossing with L; with "
                    f"{CORRECTION_SIZES} sizes or more, a scaling fit with a correction term "
                    "that finds a value is the threshold estimate)")
            lines.append(f"  {headline['label']}: p = {headline['value']:.4f}, 95% CI "
                         f"{_ci(headline['lower'], headline['upper'], 4)} from {source}{note}")
        if t.crossing is None:
            lines.append("  crossing of adjacent-L curves: none")
        else:
            edge = " (at the edge of the range)" if t.crossing_at_edge else ""
            lines.append(f"  crossing of adjacent-L curves: p = {t.crossing:.4f}, 95% CI "
                         f"{_ci(t.crossing_low, t.crossing_high, 4)}{edge}")
            for pair in t.detail.get("pairs", []):
                a, b = pair["sizes"]
                if pair["value"] is None:
                    lines.append(f"    L={a},{b}: no crossing")
                else:
                    lines.append(f"    L={a},{b}: {pair['value']:.4f} "
                                 f"{_ci(pair['lower'], pair['upper'], 4)}")
        if t.scaling_p_th is None:
            lines.append("  finite-size scaling: no value")
        else:
            lines.append(f"  finite-size scaling: p_th = {t.scaling_p_th:.4f}, 95% CI "
                         f"{_ci(t.scaling_low, t.scaling_high, 4)}; nu = {_num(t.scaling_nu, 2)} "
                         f"{_ci(t.scaling_nu_low, t.scaling_nu_high, 2)}; chi2/dof = "
                         f"{_num(t.scaling_chi2_dof, 2)}")
        if t.methods_agree is not None:
            lines.append("  the two methods " + ("agree (their intervals overlap)"
                                                 if t.methods_agree else
                                                 "DISAGREE (their intervals do not overlap)"))
        for warning in _pair_warnings(list(t.detail.get("pairs", []))):
            lines.append(f"  warning: {warning}")
        if t.detail.get("drift"):
            lines.append("  warning: finite-size drift (see the message)")
        if t.scaling_p_th is not None and t.detail.get("scaling_at_edge"):
            lines.append("  warning: the scaling fit's p_th is at the edge of the rates")
        for excluded in t.detail.get("excluded", []):
            lines.append(f"  left out: L={excluded['size']} p={excluded['rate']:g}: "
                         f"{excluded['reason']}")
        if sweep is not None and sweep.modulus is not None:
            for name, value in (("crossing", t.crossing), ("scaling fit", t.scaling_p_th)):
                if value is not None:
                    bound = hashing_bound(sweep.modulus)
                    # The hashing bound is the rate random codes reach, not a ceiling (some
                    # codes and noise exceed it): an estimate above it is unusual, not impossible.
                    lines.append(f"  {name} {value:.4f} is {100 * (1 - value / bound):.0f}% "
                                 f"below the hashing bound {bound:.4f}" if value < bound else
                                 f"  warning: {name} {value:.4f} is above the hashing bound "
                                 f"{bound:.4f}, the rate random codes reach: unusual: check the "
                                 "sizes (small boards), the shots and the rates swept")
        lines.append(f"  {t.message}")
    return "\n".join(lines)


def sweep_header(sweep: Sweep) -> str:
    if sweep.family:
        per_cell = (f"; {sweep.moves_per_cell:g} moves per cell per round"
                    if sweep.moves_per_cell is not None else "")
        if sweep.modulus is not None:
            per_cell += f"; d = {sweep.modulus}"
        if sweep.record_shots:
            per_cell += f"; the first {sweep.record_shots} shots of each point recorded as games"
        return (f"threshold sweep {sweep.pk}: {sweep.status}; family {sweep.family}; bots "
                f"{','.join(sweep.bots)}; sizes {','.join(map(str, sweep.sizes))}; rates "
                f"{','.join(f'{r:g}' for r in sweep.rates)}{per_cell}; {sweep.games_per_point} "
                f"shots per point; seed {sweep.seed}")
    return (f"sweep {sweep.pk}: {sweep.status}; bots {','.join(sweep.bots)}; sizes "
            f"{','.join(map(str, sweep.sizes))}; budgets "
            f"{','.join(f'{b:g}' for b in sweep.budgets)}; {sweep.games_per_point} games per "
            f"point; seed {sweep.seed}; at most {sweep.max_rounds} rounds per game")
