"""Reads: the numbers behind each plot of the dashboard, from the aggregate tables only.

Every plot has its own module here (``threshold``, which holds both threshold
plots, ``survival``, ``hazard``, ``budget``, ``lifetime``, ``noise``, ``strategy``,
``activity``) with a selector that takes
the page's :class:`~dashboard.filters.Filters` and returns a
:class:`~dashboard.selectors.plot.Plot`: the JSON the page draws, the number of
games it rests on, and the same numbers as CSV rows. ``registry`` lists them;
``output`` turns a registered plot into cached JSON or CSV; ``cohorts`` holds
the reads the plots share; ``mine`` marks the session player's own games;
``players`` reads what the "What players do" page shows (the strategy fits).

Without a date range the all-time rows are read, so the work per request
depends on the number of cohorts and of distinct rounds, not on the number of
games stored. With a date range the daily rows of that range are summed.
"""

from __future__ import annotations

from .activity import leaderboard
from .cohorts import cohort_histograms, cohort_label, cohorts_matching
from .mine import player_games, player_marks
from .output import aggregates_version, plot_csv, plot_json
from .page import demo_data, filter_choices
from .players import learned_curves, what_players_do
from .plot import Plot, PlotSpec
from .registry import PLOTS, plot_spec, plot_specs

__all__ = [
    "PLOTS",
    "Plot",
    "PlotSpec",
    "aggregates_version",
    "cohort_histograms",
    "cohort_label",
    "cohorts_matching",
    "demo_data",
    "filter_choices",
    "leaderboard",
    "learned_curves",
    "player_games",
    "player_marks",
    "plot_csv",
    "plot_json",
    "plot_spec",
    "plot_specs",
    "what_players_do",
]
