"""Helpers of the dashboard tests: finished games written straight to the table.

The aggregates read only a game's columns, so these games carry no events or
boards; that keeps hundreds of them cheap. ``finished_game`` fills the
columns a real finished game has.
"""

from __future__ import annotations

import datetime
import itertools
import uuid
from collections.abc import Callable

import pytest

from games.engine import RuleSet
from games.engine.version import ENGINE_VERSION
from games.models import Game, Player

_seeds = itertools.count(1)
DAY = datetime.datetime(2026, 11, 2, 12, 0, tzinfo=datetime.UTC)


def new_player(*, consent: bool = True) -> Player:
    player_id = uuid.uuid4()
    return Player.objects.create(
        id=player_id,
        token_prefix=player_id.hex[:8],
        token_hash=player_id.hex * 2,
        consent_version="2026-11-v1" if consent else None,
        consented_at=DAY if consent else None,
    )


def finished_game(
    *,
    player: Player,
    rounds: int,
    lost: bool = True,
    ended_at: datetime.datetime = DAY,
    size: int = 7,
    budget: float = 6.0,
    variant: str = "z10",
    bot: str = "",
    consent: bool | None = None,
    excluded: bool = False,
    mode: str = Game.Mode.NORMAL,
    moves: int | None = None,
) -> Game:
    rules = RuleSet(size=size, variant=variant, noise_budget=budget)
    moves = rounds * 5 - 2 if moves is None else moves
    return Game.objects.create(
        player=player,
        size=size,
        variant=variant,
        noise_budget=budget,
        moves_per_round=rules.moves_per_round,
        merge_label=str(rules.merge_label),
        rules_key=rules.key,
        engine_version=ENGINE_VERSION,
        seed=next(_seeds),
        source=Game.Source.BOT if bot else Game.Source.WEB,
        bot_name=bot,
        bot_version="1" if bot else "",
        mode=mode,
        status=Game.Status.LOST if lost else Game.Status.ABANDONED,
        score=moves,
        rounds=rounds,
        moves_count=moves,
        started_at=ended_at - datetime.timedelta(minutes=5),
        ended_at=ended_at,
        research_consent=player.research_consent if consent is None else consent,
        excluded_from_research=excluded,
    )


@pytest.fixture
def make_game() -> Callable[..., Game]:
    return finished_game


@pytest.fixture
def make_player() -> Callable[..., Player]:
    return new_player
