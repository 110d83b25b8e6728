"""Data for the dashboard tests: finished games written straight to the table.

The aggregates read only a game's columns, so these games carry no events or
boards; that keeps hundreds of them cheap. ``finished_game`` fills the
columns a real finished game has.
"""

from __future__ import annotations

import datetime
import itertools
import uuid

from games.engine import RuleSet, Variant
from games.engine.version import ENGINE_VERSION
from games.models import Game, Player
from results.models import (
    GameAnalysis,
    MoveAnalysis,
    MoveBotAgreement,
    RoundAnalysis,
    Sweep,
    SweepPoint,
    SweepThreshold,
)

_seeds = itertools.count(1)
DAY = datetime.datetime(2026, 11, 2, 12, 0, tzinfo=datetime.UTC)
NEXT_DAY = DAY + datetime.timedelta(days=1)


def new_player(*, consent: bool = True) -> Player:
    player_id = uuid.uuid4()
    return Player.objects.create(
        id=player_id,
        token_prefix=player_id.hex[:8],
        token_hash=player_id.hex * 2,
        consent_version="2026-11-v1" if consent else None,
        consented_at=DAY if consent else None,
    )


def bot_player(*, name: str) -> Player:
    """The player of the platform's bot ``name`` (one per bot), marked as the server marks it."""
    player_id = uuid.uuid5(uuid.NAMESPACE_URL, f"decodoku-bot-{name}")
    player, _created = Player.objects.get_or_create(
        id=player_id,
        defaults={
            "token_prefix": player_id.hex[:8],
            "token_hash": player_id.hex * 2,
            "consent_version": "bot",
            "consented_at": DAY,
            "is_platform_bot": True,
        },
    )
    return player


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
    rules = RuleSet(size=size, variant=Variant(variant), noise_budget=budget)
    moves = rounds * 5 - 2 if moves is None else moves
    if bot and not player.is_platform_bot:
        # Only the platform's bot players record bot games: the bot's own player plays it.
        player = bot_player(name=bot)
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


def known_games() -> dict[str, Player]:
    """Players' games at L=7, b=6 with rounds 2 (lost), 3 (lost), 3 (abandoned), 5 (lost);
    greedy's at L=7, b=6 with rounds 1 and 4; one player's game at L=5 the next day."""
    alice, bob = new_player(), new_player()
    finished_game(player=alice, rounds=2, moves=9)
    finished_game(player=alice, rounds=3, moves=14)
    finished_game(player=bob, rounds=3, lost=False, moves=12)
    finished_game(player=bob, rounds=5, moves=24)
    bot = new_player(consent=False)
    finished_game(player=bot, rounds=1, bot="greedy", moves=4)
    finished_game(player=bot, rounds=4, bot="greedy", moves=19)
    finished_game(player=alice, rounds=6, size=5, ended_at=NEXT_DAY, moves=29)
    return {"alice": alice, "bob": bob}


def add_analyses() -> list[Game]:
    """Analyses of the two shortest players' games at L=7: two rounds of noise each
    (4 + r errors, 8 new numbers, r light errors in round r) and three moves
    (annihilation, annihilation, merge_groups) of which greedy would have played
    the first as its first choice and the first two in its top 3."""
    games = list(Game.objects.filter(size=7, source=Game.Source.WEB).order_by("rounds", "id"))
    for game in games[:2]:
        GameAnalysis.objects.create(
            game=game, analysis_version=1, coverage="full", lost=True,
            survived_rounds=game.rounds, survived_moves=game.moves_count, score=game.score,
        )
        for number in range(1, 3):
            RoundAnalysis.objects.create(
                game=game, round=number, t=5 * (number - 1), errors=4 + number,
                new_numbers=8, light_errors=number, numbers=10, largest_group_size=3,
                largest_group_row_extent=2, largest_group_col_extent=2, max_group_extent=2,
            )
        classes = ["annihilation", "annihilation", "merge_groups"]
        for index, move_class in enumerate(classes, start=1):
            move = MoveAnalysis.objects.create(
                game=game, move_index=index, round=1, move_class=move_class
            )
            MoveBotAgreement.objects.create(
                move=move, bot_name="greedy", bot_version=1, top1=index == 1, top3=index < 3
            )
    return games


def _rate_sweep(
    *, family: str, bot: str, failures: dict[int, tuple[int, ...]], rates: tuple[float, ...],
    finished_at: datetime.datetime, modulus: int | None = None,
) -> Sweep:
    """A finished threshold sweep of one bot, 100 shots a point with ``failures[L]`` failed
    at each rate; its threshold is estimated by the statistics from these very points."""
    from core.stats import threshold_from_rates
    from results.services.sweeps import sweep_rate_points, threshold_fields

    sweep = Sweep.objects.create(
        family=family, modulus=modulus, bots=[bot], sizes=sorted(failures), budgets=[],
        rates=list(rates), games_per_point=100, seed=2, engine_version=ENGINE_VERSION,
        status=Sweep.Status.DONE, finished_at=finished_at,
    )
    for size, counts in failures.items():
        for rate, failed in zip(rates, counts, strict=True):
            SweepPoint.objects.create(
                sweep=sweep, bot_name=bot, bot_version=1, size=size, rate=rate,
                games_target=100, games_done=100, losses=failed, failures=failed, trials=100,
                summarised=True, failure_rate=failed / 100,
                failure_ci_low=max(0.0, failed / 100 - 0.05),
                failure_ci_high=min(1.0, failed / 100 + 0.05),
            )
    report = threshold_from_rates(sweep_rate_points(sweep=sweep, bot_name=bot),
                                  n_resamples=200, seed=1)
    SweepThreshold.objects.create(sweep=sweep, bot_name=bot, **threshold_fields(report))
    return sweep


def add_threshold_sweep() -> Sweep:
    """A finished one-shot sweep of clustering at L = 6, 10 and p = 0.1 .. 0.4, 100 shots a
    point, whose curves cross between p = 0.2 and 0.3 (the game's spanning rule)."""
    return _rate_sweep(
        family="one_shot", bot="clustering", rates=(0.1, 0.2, 0.3, 0.4),
        failures={6: (2, 15, 40, 70), 10: (0, 6, 55, 90)},
        finished_at=datetime.datetime(2026, 11, 21, tzinfo=datetime.UTC),
    )


def add_planar_sweep() -> Sweep:
    """A finished planar d=2 sweep of matching at L = 6, 10 and p = 0.06 .. 0.15, 100 shots a
    point, whose logical failure curves cross near p = 0.106, below the hashing bound 0.110;
    it finished a day before ``add_threshold_sweep``'s."""
    return _rate_sweep(
        family="planar", modulus=2, bot="matching", rates=(0.06, 0.09, 0.12, 0.15),
        failures={6: (3, 8, 22, 32), 10: (1, 5, 30, 45)},
        finished_at=datetime.datetime(2026, 11, 20, tzinfo=datetime.UTC),
    )


def add_sweep() -> Sweep:
    """A finished sweep of greedy at L = 5, 7 and budgets 4, 6, ten games a point."""
    sweep = Sweep.objects.create(
        bots=["greedy"], sizes=[5, 7], budgets=[4.0, 6.0], games_per_point=10, seed=1,
        engine_version=ENGINE_VERSION, status=Sweep.Status.DONE,
        finished_at=datetime.datetime(2026, 11, 20, tzinfo=datetime.UTC),
    )
    for size, budget, mean in ((5, 4.0, 12.0), (5, 6.0, 5.0), (7, 4.0, 20.0), (7, 6.0, 4.0)):
        SweepPoint.objects.create(
            sweep=sweep, bot_name="greedy", bot_version=1, size=size, noise_budget=budget,
            games_target=10, games_done=10, losses=10, mean_rounds=mean,
            mean_ci_low=mean - 1, mean_ci_high=mean + 1,
        )
    SweepThreshold.objects.create(
        sweep=sweep, bot_name="greedy", threshold_budget=5.2, ci_low=4.8, ci_high=5.6
    )
    return sweep
