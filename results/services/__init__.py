"""Business logic of the results app that writes: keyword-only functions.

Tasks, commands and admin actions call these and stay thin. Reads are in
``results.selectors``.
"""

from results.services.analysis import game_analyse, game_report
from results.services.bots import bot_play_game, bot_player
from results.services.daily import daily_bots_enqueue, daily_bots_enqueue_pending, daily_bots_play
from results.services.pending import analysis_enqueue, analysis_enqueue_pending
from results.services.sweeps import (
    SweepError,
    sweep_create,
    sweep_fail,
    sweep_finish_points,
    sweep_resume,
    sweep_run,
    sweep_run_chunk,
    sweep_start,
    sweep_wait,
    threshold_sweep_create,
)

__all__ = [
    "SweepError",
    "analysis_enqueue",
    "analysis_enqueue_pending",
    "bot_play_game",
    "bot_player",
    "daily_bots_enqueue",
    "daily_bots_enqueue_pending",
    "daily_bots_play",
    "game_analyse",
    "game_report",
    "sweep_create",
    "sweep_fail",
    "sweep_finish_points",
    "sweep_resume",
    "sweep_run",
    "sweep_run_chunk",
    "sweep_start",
    "sweep_wait",
    "threshold_sweep_create",
]
