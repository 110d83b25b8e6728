"""Method 2: a finite-size-scaling fit of every point (numpy only).

``logit P = f(x)``, ``x = (p - p_th) L^(1/nu)``, with f a quadratic
``a + b x + c x^2``, fitted by weighted least squares on the empirical
logits (weights: the inverse of their delta-method variance). The logit link
keeps f a low-order polynomial over a range that runs from almost no
failures to almost all; near the threshold it is the usual quadratic in P to
first order. ``(p_th, 1/nu)`` are found by a profile search on a grid,
refined three times; ``a, b, c`` are linear given them. The fit's quality is
chi^2 per degree of freedom.

With four sizes or more the fit has a correction-to-scaling term:
``logit P = a + b x + c x^2 + d L^-omega`` with omega fixed at 1 (the
``D L^(-1/mu)`` of Wang, Harrington and Preskill 2003, its exponent not
fitted: four or five sizes cannot pin it down). ``d`` is linear too, so
the search is unchanged. Such a term moves the crossings of small sizes
off ``p_th``; left out, it pulls the fit's ``p_th`` by about one of its
own standard errors while chi^2 stays near one per degree of freedom (a
change of ``p_th`` and ``nu`` absorbs most of it), so a test of the term
finds it only when it is large, and a fit that added the term only when
the test found it would keep the too-narrow interval. The term is
therefore always in (with four sizes or more), at the price of a wider
interval. With three sizes it is all but collinear with ``p_th`` (the
interval grows about sixfold) and with two it cannot be identified at
all: there the fit has no term, and its message says that it assumes no
finite-size drift. The term is called significant (finite-size drift)
when chi^2 falls by more than the chi^2 quantile of one degree of freedom
at the interval's level (3.84 at 95%) when it is added; the report's
message names drift then, or when the pairs' crossings move one way with
L beyond their own intervals (``crossing.pairs_drift``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..intervals import z_for
from .bootstrap import FloatArray, _contain, _percentile, empirical_logit, logit_variance
from .records import ScalingFit

MU_RANGE = (0.1, 3.0)
"""The search range of 1/nu (nu from 1/3 to 10)."""

GRID = 31  # points per axis of the coarse grid
REFINE = 7  # points per axis of each refinement
REFINEMENTS = 3
CORRECTION_OMEGA = 1.0
"""The exponent of the correction-to-scaling term ``d L^-omega`` (fixed, not fitted)."""
CORRECTION_SIZES = 4
"""The fewest sizes with which the scaling fit includes the correction term."""


def _design(x: FloatArray, extra: FloatArray | None = None) -> FloatArray:
    """The columns of f (1, x, x^2) and, given, the correction column ``extra`` (per point)."""
    columns = [np.ones_like(x), x, x * x]
    if extra is not None:
        columns.append(np.broadcast_to(extra, x.shape))
    return np.stack(columns, axis=-1)


def _correction_column(sizes: FloatArray, omega: float | None) -> FloatArray | None:
    """``(L_min / L)^omega``: the correction L^-omega, scaled to 1 at the smallest size."""
    if omega is None:
        return None
    return np.asarray((sizes.min() / sizes) ** omega, dtype=np.float64)


def _profile(
    y: FloatArray, w: FloatArray, rates: FloatArray, log_sizes: FloatArray,
    p_grid: FloatArray, mu_grid: FloatArray, extra: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """chi^2 minimised over the linear coefficients for every resample and its own grid points.

    ``y``: (B, M); ``w``: (M,); ``p_grid``, ``mu_grid``: (B, G). Returns (B, G) and (B, G, k),
    k = 3, or 4 with the correction column.
    """
    x = (rates[None, None, :] - p_grid[:, :, None]) * np.exp(mu_grid[:, :, None]
                                                             * log_sizes[None, None, :])
    design = _design(x, extra)  # (B, G, M, k)
    k = design.shape[-1]
    weighted = design * w[None, None, :, None]
    normal = np.swapaxes(weighted, -1, -2) @ design  # (B, G, k, k)
    right = (np.swapaxes(weighted, -1, -2) @ y[:, None, :, None])[..., 0]  # (B, G, k)
    normal += np.eye(k) * 1e-12
    beta = np.linalg.solve(normal, right[..., None])[..., 0]
    total = (y * y) @ w
    chi2 = total[:, None] - np.einsum("bgi,bgi->bg", right, beta)
    return np.maximum(chi2, 0.0), beta.astype(np.float64, copy=False)


def _coarse(
    y: FloatArray, w: FloatArray, rates: FloatArray, log_sizes: FloatArray,
    p_grid: FloatArray, mu_grid: FloatArray, extra: FloatArray | None = None,
) -> FloatArray:
    """chi^2 on one grid shared by every resample: (B, G), by matrix products."""
    x = (rates[None, :] - p_grid[:, None]) * np.exp(mu_grid[:, None] * log_sizes[None, :])
    design = _design(x, extra)  # (G, M, k)
    k = design.shape[-1]
    weighted = design * w[None, :, None]
    normal = np.swapaxes(weighted, -1, -2) @ design + np.eye(k) * 1e-12  # (G, k, k)
    inverse = np.linalg.inv(normal)
    grid = p_grid.size
    right = (np.swapaxes(weighted, -1, -2).reshape(grid * k, -1) @ y.T)  # (G * k, B)
    right = right.reshape(grid, k, -1)
    explained = np.einsum("gib,gij,gjb->bg", right, inverse, right)
    chi2: FloatArray = np.maximum(((y * y) @ w)[:, None] - explained, 0.0)
    return chi2


def _fit_scaling(
    y: FloatArray, w: FloatArray, rates: FloatArray, sizes: FloatArray,
    p_range: tuple[float, float], omega: float | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, NDArray[np.bool_]]:
    """Best (p_th, mu, chi2, coefficients, at-edge) for each resample (row of ``y``).

    With ``omega`` the model has the correction column ``(L_min / L)^omega`` as a fourth
    linear coefficient (see ``_correction_column``).
    """
    resamples = y.shape[0]
    log_sizes = np.log(sizes)
    extra = _correction_column(sizes, omega)
    p_axis = np.linspace(p_range[0], p_range[1], GRID)
    mu_axis = np.linspace(MU_RANGE[0], MU_RANGE[1], GRID)
    pp, mm = np.meshgrid(p_axis, mu_axis, indexing="ij")
    flat_p, flat_mu = pp.ravel(), mm.ravel()
    p_step = p_axis[1] - p_axis[0]
    mu_step = mu_axis[1] - mu_axis[0]
    chi2 = _coarse(y, w, rates, log_sizes, flat_p, flat_mu, extra)
    pick = np.argmin(chi2, axis=1)
    best_p, best_mu = flat_p[pick], flat_mu[pick]
    edge = (np.isclose(best_p, p_range[0]) | np.isclose(best_p, p_range[1])
            | np.isclose(best_mu, MU_RANGE[0]) | np.isclose(best_mu, MU_RANGE[1]))
    offsets = np.linspace(-1.0, 1.0, REFINE)
    oo_p, oo_mu = np.meshgrid(offsets, offsets, indexing="ij")
    take = np.arange(resamples)
    best_chi2 = chi2[take, pick]
    beta = np.zeros((resamples, 3 if extra is None else 4))
    for _ in range(REFINEMENTS):
        grid_p = np.clip(best_p[:, None] + oo_p.ravel()[None, :] * p_step, *p_range)
        grid_mu = np.clip(best_mu[:, None] + oo_mu.ravel()[None, :] * mu_step, *MU_RANGE)
        chi2, coefficients = _profile(y, w, rates, log_sizes, grid_p, grid_mu, extra)
        pick = np.argmin(chi2, axis=1)
        best_chi2 = chi2[take, pick]
        best_p = grid_p[take, pick]
        best_mu = grid_mu[take, pick]
        beta = coefficients[take, pick]
        p_step *= 2.0 / (REFINE - 1)
        mu_step *= 2.0 / (REFINE - 1)
    return best_p, best_mu, best_chi2, beta, edge


def _fitted_probability(
    rates: FloatArray, sizes: FloatArray, p_th: float, mu: float, beta: FloatArray,
    omega: float | None,
) -> FloatArray:
    x = (rates - p_th) * sizes**mu
    logit = _design(x, _correction_column(sizes, omega)) @ beta
    return np.asarray(1 / (1 + np.exp(-logit)), dtype=np.float64)


def _scaling(
    failures: FloatArray, trials: FloatArray, rates: FloatArray, sizes: FloatArray,
    level: float, p_range: tuple[float, float], rng: np.random.Generator, n_resamples: int,
) -> ScalingFit:
    points = failures.size
    distinct = len(set(sizes.tolist()))
    if distinct < 2 or points - 5 < 1:
        return ScalingFit(None, None, None, None, None, None, None, None, max(points - 5, 0),
                          points, False, "too few usable points for a scaling fit (needs two "
                          "sizes and more than five points)")
    corrected = distinct >= CORRECTION_SIZES and points - 6 >= 1
    omega = CORRECTION_OMEGA if corrected else None
    dof = points - (6 if corrected else 5)
    # First fit the data alone with the empirical weights, then refit everything with
    # weights from that fit, the same for every resample (weights that follow each
    # resample's own counts would bias the fit toward the points that came out low).
    # The resamples are drawn from the fitted model (a parametric bootstrap under the
    # fit): drawn from the observed proportions instead, a point with no failure
    # would never vary and the interval would come out too narrow.
    y0 = empirical_logit(failures, trials)[None]
    p0, mu0, _, beta0, _ = _fit_scaling(y0, 1 / logit_variance(failures, trials), rates, sizes,
                                        p_range, omega)
    fitted = _fitted_probability(rates, sizes, float(p0[0]), float(mu0[0]), beta0[0], omega)
    w = trials * np.clip(fitted * (1 - fitted), 1e-4, None)
    drawn = rng.binomial(trials.astype(np.int64)[None], fitted[None],
                         size=(n_resamples, points)).astype(np.float64)
    y = np.concatenate([y0, empirical_logit(drawn, trials[None])])
    p_th, mu, chi2, beta, edge = _fit_scaling(y, w, rates, sizes, p_range, omega)
    value, value_mu = float(p_th[0]), float(mu[0])
    keep = ~edge[1:]
    p_low, p_high = _contain(value, _percentile(np.where(keep, p_th[1:], np.nan), level))
    mu_interval = _percentile(np.where(keep, mu[1:], np.nan), level)
    mu_low, mu_high = _contain(value_mu, mu_interval)
    coefficients = (float(beta[0, 0]), float(beta[0, 1]), float(beta[0, 2]))
    correction = None
    drift = False
    notes = []
    if omega is not None:
        # The fitted coefficient multiplies (L_min / L)^omega: d = that times L_min^omega.
        correction = float(beta[0, 3]) * float(sizes.min()) ** omega
        notes.append(f"correction term d L^-{omega:g} with d = {correction:.3g}")
        # Is the term significant? The fall in chi^2 when it is added (same data, same
        # weights), against the chi^2 quantile of one degree of freedom at ``level``.
        _, _, plain_chi2, _, _ = _fit_scaling(y0, w, rates, sizes, p_range)
        fall = float(plain_chi2[0]) - float(chi2[0])
        drift = fall > z_for(level) ** 2
        if drift:
            notes.append(f"finite-size drift: the correction term is significant (chi2 falls "
                         f"by {fall:.1f} with it)")
    elif distinct < CORRECTION_SIZES:
        notes.append(f"{distinct} sizes: a correction-to-scaling term needs "
                     f"{CORRECTION_SIZES}, so the fit assumes no finite-size drift")
    else:
        notes.append("too few points for a correction-to-scaling term, so the fit assumes no "
                     "finite-size drift")
    if edge[0]:
        notes.append("the best fit lies at the edge of the searched range")
    if coefficients[1] <= 0:
        notes.append("f falls with x: the data do not look like a threshold")
    edge_share = float(edge[1:].mean()) if edge.size > 1 else 0.0
    if edge_share > 1 - level:
        notes.append(f"{edge_share:.0%} of the resamples fitted at the edge of the range")
    quality = float(chi2[0]) / dof
    if quality > 3:
        notes.append(f"poor fit: chi2/dof = {quality:.1f}")
    message = "scaling fit; " + "; ".join(notes)
    return ScalingFit(value, p_low, p_high, 1 / value_mu, 1 / mu_high, 1 / mu_low, coefficients,
                      float(chi2[0]), dof, points, bool(edge[0]), message,
                      correction=correction, omega=omega, drift=drift)
