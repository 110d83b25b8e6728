"""Server time of a player's "My games" view, with and without the percentiles, as games grow.

The percentile of each finished game (``games.selectors.score_percentiles``)
counts everyone's finished games of the same rule group
(``games.rulesets.RULE_GROUP_FIELDS``) and mode: one grouped query for the
rule groups the player played that are not in the cache, whose cost grows with the games
stored. This benchmark builds one temporary PostgreSQL database per size,
holding that many synthetic finished games (people's, over 4 board sizes and
2 modes, rows written with COPY) and a player with 100 games over all those
rule sets. It times ``games.selectors.player_games_view`` for that player
(the view behind ``/me/`` and ``GET /api/v1/me/games/``) in this process,
and, as the baseline measured in the same run, the same view with the
percentiles left out (``score_percentiles`` replaced where
``games.selectors.players`` looks it up; each timed view is checked to hold
percentiles, or none). Everyone's scores are cached for a minute
(``games.selectors.SCORE_COUNTS_SECONDS``): the view is timed with the cache
emptied before each call (counted) and with it filled (cached). It prints the
p50 of the three per size; target (``--check``): at the largest size the
counted view stays within ``TARGET_MS`` milliseconds at p50.

The databases are created on 127.0.0.1:5432 as user postgres and dropped at
the end (the helpers of ``bench/api_load.py``). Run from the repository root::

    python -m bench.my_games [--sizes 1000,100000] [--repeat 15] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import random
import statistics
import sys
import time
import uuid
from unittest import mock
from urllib.parse import urlsplit

from bench.api_load import database, migrate, server_environment
from bench.synthetic import copy_rows, setup_django

TARGET_MS = 250.0
SIZES = (5, 7, 8, 9)
MODES = ("normal", "practice")
PLAYER_GAMES = 100
BATCH = 20_000
# Never contacted: migrations queue no task.
BROKER_URL = "redis://127.0.0.1:6379/15"


def game_row(rng: random.Random, player_id: uuid.UUID, ended: datetime.datetime) -> dict:
    size, mode = rng.choice(SIZES), rng.choice(MODES)
    rounds = max(1, int(rng.expovariate(1 / (3 + size))) + 1)
    score = rounds * 5 - rng.randrange(0, 5)
    return {
        "id": uuid.UUID(int=rng.getrandbits(128)), "player_id": player_id, "size": size,
        "variant": "z10", "noise_budget": 6.0, "moves_per_round": 5,
        "merge_label": "destination", "rules_key": f"z10-L{size}-b6-m5-destination",
        "engine_version": 1, "seed": rng.getrandbits(62), "source": "web", "bot_name": "",
        "bot_version": "", "mode": mode, "status": "lost", "score": score, "rounds": rounds,
        "moves_count": score, "started_at": ended - datetime.timedelta(minutes=3),
        "ended_at": ended, "research_consent": True, "state": {}, "client_info": {},
        "import_report": {},
    }


def store(count: int) -> uuid.UUID:
    """``count`` finished games of 1,000 players, the first of whom has ``PLAYER_GAMES``."""
    from games.models import Game, Player

    rng = random.Random(7)
    now = datetime.datetime.now(tz=datetime.UTC)
    players = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(1000)]
    copy_rows(Player, [
        {"id": pid, "token_prefix": pid.hex[:8], "token_hash": pid.hex * 2, "created_at": now}
        for pid in players
    ])
    mine = players[0]
    rows = [game_row(rng, mine, now - datetime.timedelta(hours=i)) for i in range(PLAYER_GAMES)]
    copy_rows(Game, rows)
    others = count - PLAYER_GAMES
    for first in range(0, others, BATCH):
        part = min(BATCH, others - first)
        copy_rows(
            Game,
            [game_row(rng, rng.choice(players[1:]), now - datetime.timedelta(minutes=first + i))
             for i in range(part)],
        )
    return mine


def time_view(
    player_id: uuid.UUID, repeat: int, *, percentiles: bool, cold: bool = True
) -> list[float]:
    """Times of the view; ``cold``: everyone's scores counted again (cache emptied) each time."""
    from django.core.cache import cache

    from games import selectors
    from games.models import Player
    from games.selectors import players

    player = Player.objects.get(pk=player_id)
    today = datetime.datetime.now(tz=datetime.UTC).date()
    patch = (
        contextlib.nullcontext()
        if percentiles
        else mock.patch.object(players, "score_percentiles", return_value={})
    )
    times = []
    with patch:
        for _ in range(repeat + 2):
            if cold:
                cache.clear()
            started = time.perf_counter()
            view = selectors.player_games_view(player=player, today=today)
            times.append(time.perf_counter() - started)
            assert len(view["games"]) == PLAYER_GAMES
            # The baseline must really leave the percentiles out, and the other view count them.
            shown = any(game["percentile"] is not None for game in view["games"])
            assert shown == percentiles, "the percentiles were not left out (or not counted)"
    return times[2:]  # two warm-up runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000", help="games stored, increasing")
    parser.add_argument("--repeat", type=int, default=15, help="timed views per variant")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    sizes = [int(text) for text in args.sizes.split(",")]
    if sizes != sorted(sizes) or sizes[0] <= PLAYER_GAMES:
        parser.error(f"--sizes must be increasing numbers above {PLAYER_GAMES}")

    results: dict[int, tuple[float, float, float]] = {}
    with contextlib.ExitStack() as stack:
        urls = {size: stack.enter_context(database(None))[0] for size in sizes}
        for url in urls.values():
            migrate(server_environment(url, BROKER_URL))
        setup_django(urls[sizes[0]])
        from django.db import connection

        for size, url in urls.items():
            connection.close()
            connection.settings_dict["NAME"] = urlsplit(url).path.lstrip("/")
            began = time.perf_counter()
            player_id = store(size)
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
            print(f"stored {size:,} games in {time.perf_counter() - began:.1f} s", flush=True)
            # Alternate the two variants, so that a noisy moment falls on both alike.
            with_p, warm, without = [], [], []
            for _ in range(3):
                with_p += time_view(player_id, args.repeat // 3 or 1, percentiles=True)
                warm += time_view(player_id, args.repeat // 3 or 1, percentiles=True, cold=False)
                without += time_view(player_id, args.repeat // 3 or 1, percentiles=False)
            results[size] = (
                statistics.median(with_p), statistics.median(warm), statistics.median(without)
            )
        connection.close()

    print(f"\n{'games':>9} {'counted p50':>12} {'cached p50':>11} {'baseline p50':>13}")
    for size, (full, warm_p50, base) in results.items():
        print(f"{size:>9,} {full * 1000:>10.1f}ms {warm_p50 * 1000:>9.1f}ms "
              f"{base * 1000:>11.1f}ms")
    full_at_largest = results[sizes[-1]][0] * 1000
    met = full_at_largest <= TARGET_MS
    print(f"\ntarget: the view within {TARGET_MS:.0f} ms at {sizes[-1]:,} games: "
          f"{full_at_largest:.1f} ms, {'met' if met else 'MISSED'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
