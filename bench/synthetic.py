"""Synthetic finished games and analyses for the dashboard benchmarks, written fast.

Rows go straight into PostgreSQL with COPY: playing 100,000 games through the
engine would take hours, and the aggregates read only these columns. The
shapes follow real data: lifetimes in rounds roughly geometric (shorter at
higher budgets, longer on bigger boards), 5 moves per round, players with
several games each, a quarter of the games by bots, a few games without
consent or excluded, games spread over the days before ``now``.

``setup_django(database_url)`` points Django at the benchmark's database; the
other functions need it done.
"""

from __future__ import annotations

import datetime
import os
import random
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

MOVE_CLASSES = (
    "annihilation", "same_group", "merge_groups", "toward_centroid", "toward_complement",
    "away_from_edge", "other",
)
CLASS_WEIGHTS = (30, 12, 10, 15, 18, 5, 10)
BOTS = ("greedy", "clustering")
SIZES = (5, 7, 8, 9)
BUDGETS = (4.0, 6.0)


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    import django

    django.setup()


@dataclass
class Generator:
    """Makes games one batch after another, ending in time order up to ``now``."""

    seed: int = 1
    players: int = 2000
    days: int = 120
    now: datetime.datetime | None = None
    made: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.now = self.now or datetime.datetime.now(tz=datetime.UTC)
        self.player_ids: list[uuid.UUID] = []
        self.bot_player: uuid.UUID | None = None

    def ensure_players(self) -> None:
        from games.models import Player

        if self.player_ids:
            return
        rows = []
        for index in range(self.players + 1):
            player_id = uuid.UUID(int=self.rng.getrandbits(128))
            consent = index == 0 or self.rng.random() < 0.9
            rows.append({
                "id": player_id,
                "token_prefix": player_id.hex[:8],
                "token_hash": player_id.hex * 2,
                "consent_version": "2026-11-v1" if consent else None,
                "consented_at": self.now if consent else None,
                "created_at": self.now - datetime.timedelta(days=self.days),
            })
        copy_rows(Player, rows)
        self.bot_player = rows[0]["id"]
        self.player_ids = [row["id"] for row in rows[1:]]

    def batch(
        self, count: int, *, start: datetime.datetime, end: datetime.datetime
    ) -> tuple[list[dict], list[dict], list[dict], list[dict], list[dict]]:
        """``count`` games ending in [start, end), in order, with their analyses."""
        from games.engine import RuleSet

        rng = self.rng
        step = (end - start) / max(1, count)
        games, analyses, rounds_rows, moves, agreements = [], [], [], [], []
        for index in range(count):
            self.made += 1
            ended = start + step * index
            size, budget = rng.choice(SIZES), rng.choice(BUDGETS)
            bot = rng.choice(BOTS) if rng.random() < 0.25 else ""
            mean = (3 + size) * (8.0 / budget) ** 2 / (2.0 if bot == "" else 1.4)
            rounds = max(1, min(200, int(rng.expovariate(1 / mean)) + 1))
            lost = rng.random() < 0.9
            move_count = max(0, rounds * 5 - rng.randrange(1, 5))
            rules = RuleSet(size=size, noise_budget=budget)
            game_id = uuid.UUID(int=rng.getrandbits(128))
            player = self.bot_player if bot else rng.choice(self.player_ids)
            games.append({
                "id": game_id, "player_id": player, "size": size, "variant": "z10",
                "noise_budget": budget, "moves_per_round": 5, "merge_label": "destination",
                "rules_key": rules.key, "engine_version": 1,
                "seed": rng.getrandbits(62), "source": "bot" if bot else "web",
                "bot_name": bot, "bot_version": "1" if bot else "", "mode": "normal",
                "status": "lost" if lost else "abandoned", "score": move_count,
                "rounds": rounds, "moves_count": move_count,
                "started_at": ended - datetime.timedelta(minutes=3), "ended_at": ended,
                "research_consent": True,
                "excluded_from_research": rng.random() < 0.01,
                "state": {}, "client_info": {}, "import_report": {},
            })
            analyses.append({
                "game_id": game_id, "analysis_version": 1, "coverage": "full",
                "lost": lost, "survived_rounds": rounds, "survived_moves": move_count,
                "score": move_count, "computed_at": ended + datetime.timedelta(seconds=2),
            })
            for number in range(1, rounds + 1):
                errors = int(budget) + rng.randrange(0, 3)
                rounds_rows.append({
                    "game_id": game_id, "round": number, "t": 5 * (number - 1),
                    "errors": errors, "new_numbers": errors + rng.randrange(0, 4),
                    "light_errors": rng.randrange(0, 3), "numbers": rng.randrange(2, 20),
                    "largest_group_size": 3, "largest_group_row_extent": 2,
                    "largest_group_col_extent": 2, "max_group_extent": 2,
                })
            if not bot:
                for move_index in range(1, move_count + 1):
                    move_class = rng.choices(MOVE_CLASSES, CLASS_WEIGHTS)[0]
                    moves.append({
                        "game_id": game_id, "move_index": move_index,
                        "round": 1 + (move_index - 1) // 5, "move_class": move_class,
                    })
                    for bot_name in BOTS:
                        top3 = rng.random() < 0.6
                        agreements.append({
                            "move_index": move_index, "game_id": game_id,
                            "bot_name": bot_name, "bot_version": 1,
                            "top1": top3 and rng.random() < 0.5, "top3": top3,
                        })
        return games, analyses, rounds_rows, moves, agreements

    def store(self, count: int, *, start: datetime.datetime, end: datetime.datetime) -> None:
        from games.models import Game
        from results.models import GameAnalysis, MoveAnalysis, MoveBotAgreement, RoundAnalysis

        self.ensure_players()
        for first in range(0, count, 5000):
            part = min(5000, count - first)
            part_start = start + (end - start) * first / count
            part_end = start + (end - start) * (first + part) / count
            games, analyses, rounds_rows, moves, agreements = self.batch(
                part, start=part_start, end=part_end
            )
            copy_rows(Game, games)
            copy_rows(GameAnalysis, analyses)
            copy_rows(RoundAnalysis, rounds_rows)
            ids = copy_rows(MoveAnalysis, moves, returning_ids=True)
            for agreement in agreements:
                agreement["move_id"] = ids[(agreement.pop("game_id"), agreement.pop("move_index"))]
            copy_rows(MoveBotAgreement, agreements)


def _columns(model: type) -> list[Any]:
    """The columns to fill: all but an auto-incremented id, which the database numbers."""
    from django.db.models import AutoField, BigAutoField, SmallAutoField

    auto = (AutoField, BigAutoField, SmallAutoField)
    return [f for f in model._meta.concrete_fields if not isinstance(f, auto)]


def copy_rows(model: type, rows: Iterable[dict], *, returning_ids: bool = False) -> dict:
    """COPY ``rows`` into ``model``'s table; missing columns get the field's default.

    With ``returning_ids`` (MoveAnalysis only) it returns {(game_id, move_index): id}.
    """
    from django.db import connection, transaction
    from psycopg.types.json import Jsonb

    rows = list(rows)
    if not rows:
        return {}
    fields = _columns(model)
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    json_fields = {f.attname for f in fields if f.get_internal_type() == "JSONField"}

    def values(row: dict) -> Iterator[Any]:
        for f in fields:
            value = row[f.attname] if f.attname in row else f.get_default()
            yield Jsonb(value) if f.attname in json_fields else value

    with (
        transaction.atomic(),
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(tuple(values(row)))
    if not returning_ids:
        return {}
    found = model.objects.filter(game_id__in={row["game_id"] for row in rows})
    return {(g, i): pk for g, i, pk in found.values_list("game_id", "move_index", "pk")}
