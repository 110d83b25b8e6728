"""The dashboard's plots, in the order the page shows them.

Each plot lives in its own module of this package and describes itself with a
:class:`~dashboard.selectors.plot.PlotSpec` named ``PLOT``. The page, the data
endpoint and the CSV download all look plots up here, so adding a plot means
writing its module and listing its ``PLOT`` below (and drawing it in the page's
``dashboard.js``). A module may describe more than one plot: ``threshold`` has two,
drawn by one selector for two failure criteria.
"""

from __future__ import annotations

from . import activity, budget, compare, hazard, lifetime, noise, strategy, survival, threshold
from .plot import PlotSpec

PLOT_ORDER: tuple[PlotSpec, ...] = (
    threshold.PLOT,  # the QEC threshold: logical failure of the planar code
    threshold.SPANNING_PLOT,  # the game's own loss rule
    survival.PLOT,
    hazard.PLOT,
    budget.PLOT,
    lifetime.PLOT,
    noise.PLOT,
    strategy.PLOT,
    activity.PLOT,
    compare.PLOT,  # people against the planar decoders on the same boards
)

PLOTS: dict[str, PlotSpec] = {spec.name: spec for spec in PLOT_ORDER}
if len(PLOTS) != len(PLOT_ORDER):
    raise ImportError("two dashboard plots share a name")


def plot_specs() -> list[PlotSpec]:
    """Every registered plot, in the page's order."""
    return list(PLOT_ORDER)


def plot_spec(*, name: str) -> PlotSpec | None:
    """The plot registered under ``name``, or None if there is none."""
    return PLOTS.get(name)
