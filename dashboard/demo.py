"""Demo data for a fresh database: real bot games, a small budget sweep and two small
threshold sweeps whose curves cross, one for each threshold plot: the planar code's
(logical failure, the QEC threshold) and a one-shot one (the game's spanning rule).

Everything is computed by the engine, the bots and the services, exactly as
for real data; only the amount is small so that it runs on every start.
The games carry ``client_info = {"demo": "seed_demo"}`` and a
:class:`~dashboard.models.DemoData` row makes the dashboard say that it shows
demo data.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from django.db import transaction
from django.utils import timezone

from games.engine import RuleSet
from games.engine.families import Family
from games.models import Game
from results.models import Sweep
from results.services import (
    bot_play_game,
    sweep_run,
    sweep_start,
    sweep_wait,
    threshold_sweep_create,
)

from .models import DemoData
from .services import aggregates_refresh

logger = logging.getLogger(__name__)

DEMO_MARK = {"demo": "seed_demo"}
DEMO_BOTS = ("greedy", "clustering", "random")
DEMO_SIZES = (5, 7)
DEMO_BUDGETS = (4.0, 6.0)
DEMO_GAMES_PER_RULE_SET = 2
DEMO_MAX_MOVES = 60  # 12 rounds; a game still going then is abandoned (censored)


class SweepGrid(TypedDict):
    """The keyword arguments of ``sweep_run`` that the demo sets."""

    bots: list[str]
    sizes: list[int]
    budgets: list[float]
    games_per_point: int
    max_rounds: int


DEMO_SWEEP: SweepGrid = {
    "bots": ["greedy", "clustering"],
    "sizes": [5, 7],
    "budgets": [4.0, 6.0, 8.0],
    "games_per_point": 6,
    "max_rounds": 30,
}


class ThresholdGrid(TypedDict):
    """The keyword arguments of ``threshold_sweep_create`` that the demo sets."""

    family: str
    modulus: NotRequired[int]  # planar only
    bots: list[str]
    sizes: list[int]
    rates: list[float]
    shots_per_point: int


# One sweep for each threshold plot, in the page's order: the planar code's logical failure
# and the game's own spanning rule (about a second each).
DEMO_THRESHOLDS: tuple[ThresholdGrid, ...] = (
    {
        "family": Family.PLANAR.value,
        "modulus": 2,
        "bots": ["matching"],
        "sizes": [6, 8, 10],
        "rates": [0.06, 0.08, 0.1, 0.12, 0.14],
        "shots_per_point": 300,
    },
    {
        "family": Family.ONE_SHOT.value,
        "bots": ["clustering"],
        "sizes": [4, 8],
        "rates": [0.2, 0.25, 0.3, 0.35, 0.4, 0.45],
        "shots_per_point": 60,
    },
)

DEMO_SEED = 20161


@dataclass(frozen=True, slots=True)
class DemoReport:
    created: bool
    games: int = 0
    sweep_id: str = ""
    seconds: float = 0.0
    reason: str = ""


def _announcement(grid: ThresholdGrid) -> str:
    """What the demo says before it runs the threshold sweep ``grid``."""
    if Family(grid["family"]).criterion == "logical":
        what = f"planar (d={grid.get('modulus')}) threshold sweep for the QEC threshold plot"
    else:
        what = (f"{grid['family'].replace('_', '-')} threshold sweep for the spanning "
                f"threshold plot")
    return (
        f"Running a small {what} ({', '.join(grid['bots'])}; "
        f"L = {', '.join(map(str, grid['sizes']))}; {len(grid['rates'])} error rates; "
        f"{grid['shots_per_point']} shots a point)..."
    )


def demo_plan() -> str:
    """What the demo is about to make, and how long that takes, said before it starts.

    Measured on a 2-core machine: 6.9 s idle, 14.5 s and 45 s while other
    processes kept it busy (the processor time stays about 7 s).
    """
    games = len(DEMO_BOTS) * len(DEMO_SIZES) * len(DEMO_BUDGETS) * DEMO_GAMES_PER_RULE_SET
    return (
        f"Making the demo data (once, for an empty database): {games} bot games, a budget "
        f"sweep and {len(DEMO_THRESHOLDS)} threshold sweeps, in {_stages()} steps. "
        "This takes from about 10 seconds on an idle machine to a minute on a busy one; "
        "each step is reported as it ends."
    )


def _stages() -> int:
    """The steps reported: the bot games of each bot and size, the sweep, each threshold."""
    return len(DEMO_BOTS) * len(DEMO_SIZES) + 1 + len(DEMO_THRESHOLDS)


def database_is_empty() -> bool:
    return not Game.objects.exists() and not Sweep.objects.exists()


def demo_seed(
    *, say: Callable[[str], None] = logger.info, announce: Callable[[str], None] = logger.info
) -> DemoReport:
    """Fill an empty database with demo bot games and sweeps; do nothing otherwise.

    ``announce`` says what is made and how long it takes, then reports each step
    as it ends (``[2/6] ... (4.1 s)``); ``say`` adds the details.
    """
    if DemoData.objects.exists():
        return DemoReport(created=False, reason="the demo data is already there")
    if not database_is_empty():
        return DemoReport(created=False, reason="the database already holds games or sweeps")
    started = time.monotonic()
    stages = _stages()
    done = 0

    def step(text: str) -> None:
        nonlocal done
        done += 1
        announce(f"[{done}/{stages}] {text} ({time.monotonic() - started:.1f} s)")

    announce(demo_plan())
    game_ids = []
    index = 0
    for bot in DEMO_BOTS:
        for size in DEMO_SIZES:
            for budget in DEMO_BUDGETS:
                rules = RuleSet(size=size, noise_budget=budget)
                for _ in range(DEMO_GAMES_PER_RULE_SET):
                    index += 1
                    game = bot_play_game(
                        bot_name=bot, rules=rules, seed=DEMO_SEED * 1000 + index,
                        max_moves=DEMO_MAX_MOVES,
                    )
                    game_ids.append(game.pk)
            step(f"{bot} bot games at {size}x{size}: {index} games played so far")
    Game.objects.filter(pk__in=game_ids).update(client_info=DEMO_MARK)
    sweep = sweep_run(seed=DEMO_SEED, **DEMO_SWEEP)
    step("budget sweep of the bots")
    say(f"demo sweep {sweep.pk}: {sweep.status}")
    for grid in DEMO_THRESHOLDS:
        say(_announcement(grid))
        threshold = threshold_sweep_create(seed=DEMO_SEED, **grid)
        threshold = sweep_wait(sweep=sweep_start(sweep=threshold))
        step(f"{grid['family'].replace('_', '-')} threshold sweep")
        say(f"demo threshold sweep {threshold.pk} ({grid['family']}): {threshold.status}")
    with transaction.atomic():
        DemoData.objects.create(
            id=1, created_at=timezone.now(), games=len(game_ids), sweep_id=sweep.pk
        )
    # No settle time: nothing else is writing games while the demo is made.
    aggregates_refresh(settle=datetime.timedelta(0))
    return DemoReport(
        created=True, games=len(game_ids), sweep_id=str(sweep.pk),
        seconds=time.monotonic() - started,
    )
