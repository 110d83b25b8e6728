"""Writes: folding finished games and their analyses into the aggregate tables.

Two inputs are absorbed, each behind its own :class:`~dashboard.models.Watermark`:

- ``games``: finished games in (ended_at, id) order: lifetimes, games, moves
  and players per day, the leaderboard;
- ``analyses``: per-game analyses of the results app in (computed_at, game)
  order: strategy mix, agreement with the bots, realized noise per round.

Each run reads only rows past the watermark, in batches, adds their counts to
the (day, cohort) rows and to the all-time rows, and moves the watermark, all
in one transaction per batch. A run first writes the watermark row and then
locks it (``SELECT ... FOR UPDATE``), so concurrent runs queue up behind each
other instead of counting the same games twice; a rolled-back batch leaves
the watermark where it was.

Only research data is counted, as ``games.models.research_data_condition``
defines it (the same set the exports and the sweeps' human summaries use):
every finished game is read, and a database-side flag says whether it counts.

Rows written within the last ``settle`` seconds are left for the next run: a
transaction that set an earlier ``ended_at`` may still be committing, and the
watermark must never pass a row that is not yet visible.
"""

from __future__ import annotations

import datetime
import logging
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection, models, transaction
from django.db.models import BooleanField, Case, Count, Q, Sum, Value, When
from django.db.models.functions import Cast
from django.utils import timezone

from games.models import Game, research_data_condition
from games.rulesets import RULE_GROUP_FIELDS, RuleGroup
from results.models import GameAnalysis, MoveAnalysis, MoveBotAgreement, RoundAnalysis

from .models import (
    ALL_TIME,
    COHORT_FIELDS,
    HUMAN,
    AbsorbedAnalysis,
    AgreementCount,
    AnalysisCount,
    Cohort,
    DailyCount,
    LifetimeCount,
    NoiseCount,
    PlayerBest,
    PlayerDay,
    StrategyCount,
    Watermark,
)

logger = logging.getLogger(__name__)

GAMES = "games"
ANALYSES = "analyses"
# Rows from the last SETTLE are left for the next run, so that a game whose
# finishing transaction is still committing is not skipped. A move's
# transaction commits within milliseconds; 20 s leaves a wide margin and keeps a
# finished game on the dashboard within a minute (a straggler that commits
# later still is counted by the daily rebuild).
SETTLE = datetime.timedelta(seconds=20)
# How old the aggregates may get before a dashboard request refreshes them
# itself, where no Celery beat runs them (the embedded default, no broker).
REFRESH_EVERY = datetime.timedelta(seconds=20)
BATCH_SIZE = 2000


class CohortKey(NamedTuple):
    """A cohort: the rule group of its games and who played them (``COHORT_FIELDS``)."""

    rules: RuleGroup
    source: str

    def fields(self) -> dict[str, Any]:
        """The cohort's columns, by name."""
        return {**{name: getattr(self.rules, name) for name in RULE_GROUP_FIELDS},
                "source": self.source}


@dataclass(frozen=True, slots=True)
class RefreshReport:
    games: int  # finished games read (counted or not)
    counted_games: int  # research games added to the counts
    analyses: int
    counted_analyses: int


def source_kind(*, source: str, bot_name: str) -> str:
    return (bot_name or "bot") if source == Game.Source.BOT else HUMAN


# -- locking and watermarks ---------------------------------------------------------


def _locked_watermark(name: str) -> Watermark:
    """The watermark row, locked until the end of the transaction.

    The UPDATE comes first: on PostgreSQL it takes the row lock, and on SQLite
    it takes the database's write lock before anything is read, so a second
    run waits and then reads the watermark the first one left. Waiting is the
    point here: the transaction lifts the site's short lock time-out
    (``DATABASE_LOCK_TIMEOUT``, meant for web requests) for itself.
    """
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = 0")
    Watermark.objects.get_or_create(name=name)
    Watermark.objects.filter(name=name).update(updated_at=timezone.now())
    return Watermark.objects.select_for_update().get(name=name)


def _after(watermark: Watermark, time_field: str, id_field: str) -> Q:
    if watermark.last_at is None:
        return Q()
    last_id = uuid.UUID(watermark.last_id)
    return Q(**{f"{time_field}__gte": watermark.last_at}) & (
        Q(**{f"{time_field}__gt": watermark.last_at})
        | Q(**{time_field: watermark.last_at, f"{id_field}__gt": last_id})
    )


# -- adding to count rows ------------------------------------------------------------


Deltas = dict[tuple, dict[str, int]]


def _bump(deltas: Deltas, key: tuple, **values: int) -> None:
    row = deltas.setdefault(key, {})
    for name, value in values.items():
        row[name] = row.get(name, 0) + value


UPSERT_BATCH = 500


def _upsert(
    model: type[models.Model],
    key_fields: tuple[str, ...],
    rows: list[tuple],
    combine: dict[str, str],
) -> None:
    """INSERT rows (key fields, then the ``combine`` fields), merging into existing rows.

    ``combine`` maps each value column to how an existing row takes the new
    value: ``add`` (a count), ``max``, or ``keep`` (the existing value stays).
    One statement per batch; PostgreSQL and SQLite both speak ``ON CONFLICT ...
    DO UPDATE``. Names come from the model and values are parameters.
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = [*key_fields, *combine]
    by_name = {f.attname: f for f in model._meta.concrete_fields}
    fields = [by_name[name] for name in columns]
    greatest = "GREATEST" if connection.vendor == "postgresql" else "MAX"
    updates = ", ".join(
        f"{quote(name)} = {table}.{quote(name)} + excluded.{quote(name)}"
        if how == "add"
        else f"{quote(name)} = {greatest}({table}.{quote(name)}, excluded.{quote(name)})"
        for name, how in combine.items()
        if how != "keep"
    )
    placeholders = "(" + ", ".join(["%s"] * len(columns)) + ")"
    # Names come from the model, never from a request; values go as parameters.
    head = f"INSERT INTO {table} ({', '.join(quote(c) for c in columns)}) VALUES "  # noqa: S608
    tail = f" ON CONFLICT ({', '.join(quote(c) for c in key_fields)}) DO UPDATE SET {updates}"
    with connection.cursor() as cursor:
        for first in range(0, len(rows), UPSERT_BATCH):
            batch = rows[first : first + UPSERT_BATCH]
            sql = head + ", ".join([placeholders] * len(batch)) + tail
            cursor.execute(
                sql,
                [
                    field.get_db_prep_save(value, connection)
                    for row in batch
                    for field, value in zip(fields, row, strict=True)
                ],
            )


def _add_counts(model: type[models.Model], key_fields: tuple[str, ...], deltas: Deltas) -> None:
    """Add ``deltas`` (key tuple -> {field: increment}) to the count rows of ``model``."""
    counters = [
        f.attname for f in model._meta.concrete_fields
        if not f.primary_key and f.attname not in key_fields
    ]
    rows = [
        (*key, *(increments.get(name, 0) for name in counters))
        for key, increments in deltas.items()
    ]
    _upsert(model, key_fields, rows, dict.fromkeys(counters, "add"))


def cohort_ids(*, keys: Iterable[CohortKey]) -> dict[CohortKey, int]:
    """The id of every cohort in ``keys``, creating the missing ones."""
    wanted = set(keys)
    if not wanted:
        return {}

    # Narrow the read by every column but the floats (the match is exact, in Python).
    columns = [key.fields() for key in wanted]
    values = {name: {row[name] for row in columns} for name in COHORT_FIELDS}
    narrow = {
        f"{name}__in": found for name, found in values.items()
        if not any(isinstance(value, float) for value in found)
    }

    def known() -> dict[CohortKey, int]:
        rows = Cohort.objects.filter(**narrow).values_list(*COHORT_FIELDS, "id")
        # COHORT_FIELDS: the rule group's fields, then the source.
        return {CohortKey(RuleGroup(*row[:-2]), row[-2]): row[-1] for row in rows}

    ids = known()
    missing = wanted - ids.keys()
    if missing:
        Cohort.objects.bulk_create(
            [Cohort(**key.fields()) for key in missing], ignore_conflicts=True
        )
        ids = known()
    return {key: ids[key] for key in wanted}


# -- games ---------------------------------------------------------------------------


GAME_FIELDS = (
    "id",
    "ended_at",
    "status",
    "rounds",
    "score",
    "moves_count",
    *RULE_GROUP_FIELDS,
    "source",
    "bot_name",
    "player_id",
)

# Whether a row's game is research data, computed by the database.
RESEARCH = "is_research_data"


def _research_flag(*, prefix: str = "") -> Case:
    return Case(
        When(research_data_condition(prefix=prefix), then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )


def _cohort_of(row: Mapping[str, Any]) -> CohortKey:
    """The cohort of a game read with ``GAME_FIELDS``."""
    return CohortKey(
        RuleGroup(**{name: row[name] for name in RULE_GROUP_FIELDS}),
        source_kind(source=row["source"], bot_name=row["bot_name"]),
    )


def _is_research(row: dict[str, Any]) -> bool:
    return bool(row[RESEARCH])


def _absorb_game_rows(rows: list[dict[str, Any]]) -> int:
    counted = [row for row in rows if _is_research(row)]
    if not counted:
        return 0
    ids = cohort_ids(keys=(_cohort_of(row) for row in counted))
    lifetimes: Deltas = {}
    daily: Deltas = {}
    humans: list[tuple[uuid.UUID, int, datetime.date, dict[str, Any]]] = []
    for row in counted:
        cohort = ids[_cohort_of(row)]
        day = row["ended_at"].astimezone(datetime.UTC).date()
        lost = int(row["status"] == Game.Status.LOST)
        for when in (day, ALL_TIME):
            _bump(lifetimes, (cohort, when, row["rounds"]), lost=lost, censored=1 - lost)
            _bump(
                daily,
                (cohort, when),
                games=1,
                lost=lost,
                moves=row["moves_count"],
                score_sum=row["score"],
                rounds_sum=row["rounds"],
            )
        if row["source"] != Game.Source.BOT:
            humans.append((row["player_id"], cohort, day, row))
    _count_players(humans)
    _add_counts(LifetimeCount, ("cohort_id", "day", "rounds"), lifetimes)
    _add_counts(DailyCount, ("cohort_id", "day"), daily)
    return len(counted)


def _count_players(humans: list[tuple[uuid.UUID, int, datetime.date, dict[str, Any]]]) -> None:
    """Each player's games and best per cohort and day, and per cohort (the leaderboard)."""
    if not humans:
        return
    # (player, cohort, day) -> [games, best score, best rounds] of this batch
    days: dict[tuple[uuid.UUID, int, datetime.date], list[int]] = {}
    # (player, cohort) -> [first day, games, best score, best rounds] of this batch
    cohorts: dict[tuple[uuid.UUID, int], list] = {}
    for player, cohort, day, row in humans:
        score, rounds = row["score"], row["rounds"]
        entry = days.setdefault((player, cohort, day), [0, 0, 0])
        entry[0] += 1
        entry[1] = max(entry[1], score)
        entry[2] = max(entry[2], rounds)
        best = cohorts.setdefault((player, cohort), [day, 0, 0, 0])
        best[0] = min(best[0], day)
        best[1] += 1
        best[2] = max(best[2], score)
        best[3] = max(best[3], rounds)
    _upsert(
        PlayerDay,
        ("player_id", "cohort_id", "day"),
        [(*key, *values) for key, values in days.items()],
        {"games": "add", "best_score": "max", "best_rounds": "max"},
    )
    _upsert(
        PlayerBest,
        ("player_id", "cohort_id"),
        [(*key, *values) for key, values in cohorts.items()],
        {"first_day": "keep", "games": "add", "best_score": "max", "best_rounds": "max"},
    )


def _absorb_in_batches(
    *,
    watermark: str,
    rows_after: Callable[[Watermark], list[dict[str, Any]]],
    absorb: Callable[[list[dict[str, Any]]], int],
    time_field: str,
    id_field: str,
    batch_size: int,
) -> tuple[int, int]:
    """Absorb the rows past a watermark, a batch per transaction: (read, counted).

    ``rows_after`` gives at most ``batch_size`` rows past the watermark in
    (time_field, id_field) order; the watermark moves to the last of them in
    the same transaction as their counts.
    """
    read = counted = 0
    while True:
        with transaction.atomic():
            mark = _locked_watermark(watermark)
            rows = rows_after(mark)
            if not rows:
                return read, counted
            counted += absorb(rows)
            read += len(rows)
            mark.last_at, mark.last_id = rows[-1][time_field], str(rows[-1][id_field])
            mark.absorbed += len(rows)
            mark.save(update_fields=["last_at", "last_id", "absorbed"])
        if len(rows) < batch_size:
            return read, counted


def absorb_games(*, settle: datetime.timedelta = SETTLE, batch_size: int = BATCH_SIZE) -> tuple[
    int, int
]:
    """Fold every finished game past the watermark into the counts: (read, counted)."""
    until = timezone.now() - settle

    def rows_after(mark: Watermark) -> list[dict[str, Any]]:
        return list(
            Game.objects.filter(ended_at__isnull=False, ended_at__lte=until)
            .filter(_after(mark, "ended_at", "id"))
            .order_by("ended_at", "id")
            .annotate(**{RESEARCH: _research_flag()})
            .values(*GAME_FIELDS, RESEARCH)[:batch_size]
        )

    return _absorb_in_batches(
        watermark=GAMES, rows_after=rows_after, absorb=_absorb_game_rows,
        time_field="ended_at", id_field="id", batch_size=batch_size,
    )


# -- analyses ------------------------------------------------------------------------


def _absorb_analysis_rows(rows: list[dict[str, Any]]) -> int:
    game_ids = [row["game_id"] for row in rows]
    done = set(
        AbsorbedAnalysis.objects.filter(game_id__in=game_ids).values_list("game_id", flat=True)
    )
    # A recomputed analysis shows up again with a later computed_at; it is
    # counted once (aggregates_rebuild recounts everything from scratch).
    fresh = [row for row in rows if row["game_id"] not in done]
    AbsorbedAnalysis.objects.bulk_create(
        [AbsorbedAnalysis(game_id=row["game_id"], analysis_version=row["analysis_version"])
         for row in fresh],
        batch_size=500,
    )
    counted = [row for row in fresh if _is_research(row)]
    if not counted:
        return 0
    ids = cohort_ids(keys=(_cohort_of(row) for row in counted))
    where: dict[uuid.UUID, tuple[int, datetime.date]] = {
        row["game_id"]: (
            ids[_cohort_of(row)],
            row["ended_at"].astimezone(datetime.UTC).date(),
        )
        for row in counted
    }
    games: Deltas = {}
    strategies: Deltas = {}
    agreements: Deltas = {}
    noise: Deltas = {}
    for game_id in where:
        cohort, day = where[game_id]
        for when in (day, ALL_TIME):
            _bump(games, (cohort, when), games=1)
    move_rows = (
        MoveAnalysis.objects.filter(game_id__in=where)
        .values("game_id", "move_class")
        .annotate(n=Count("pk"))
    )
    for move in move_rows:
        cohort, day = where[move["game_id"]]
        for when in (day, ALL_TIME):
            _bump(games, (cohort, when), moves=move["n"])
            _bump(strategies, (cohort, when, move["move_class"]), moves=move["n"])
    agreement_rows = (
        MoveBotAgreement.objects.filter(move__game_id__in=where)
        .values("move__game_id", "bot_name")
        .annotate(
            compared=Count("pk"),
            top1=Sum(Cast("top1", models.IntegerField())),
            top3=Sum(Cast("top3", models.IntegerField())),
        )
    )
    for agreement in agreement_rows:
        cohort, day = where[agreement["move__game_id"]]
        for when in (day, ALL_TIME):
            _bump(
                agreements,
                (cohort, when, agreement["bot_name"]),
                compared=agreement["compared"],
                top1=agreement["top1"] or 0,
                top3=agreement["top3"] or 0,
            )
    round_rows = RoundAnalysis.objects.filter(game_id__in=where).values_list(
        "game_id", "round", "errors", "new_numbers", "light_errors"
    )
    for game_id, number, errors, new_numbers, light_errors in round_rows:
        if errors is None:  # uploaded save files do not hold the noise
            continue
        cohort, day = where[game_id]
        for when in (day, ALL_TIME):
            _bump(
                noise,
                (cohort, when, number),
                games=1,
                errors=errors,
                new_numbers=new_numbers or 0,
                light_errors=light_errors or 0,
            )
    _add_counts(AnalysisCount, ("cohort_id", "day"), games)
    _add_counts(StrategyCount, ("cohort_id", "day", "move_class"), strategies)
    _add_counts(AgreementCount, ("cohort_id", "day", "bot_name"), agreements)
    _add_counts(NoiseCount, ("cohort_id", "day", "round"), noise)
    return len(counted)


def absorb_analyses(
    *, settle: datetime.timedelta = SETTLE, batch_size: int = BATCH_SIZE
) -> tuple[int, int]:
    """Fold every game analysis past the watermark into the counts: (read, counted)."""
    until = timezone.now() - settle
    fields = ["game_id", "computed_at", "analysis_version"] + [
        f"game__{name}" for name in GAME_FIELDS if name != "id"
    ]

    def rows_after(mark: Watermark) -> list[dict[str, Any]]:
        return [
            {name.removeprefix("game__"): value for name, value in row.items()}
            for row in GameAnalysis.objects.filter(
                computed_at__lte=until, game__ended_at__isnull=False
            )
            .filter(_after(mark, "computed_at", "game_id"))
            .order_by("computed_at", "game_id")
            .annotate(**{RESEARCH: _research_flag(prefix="game__")})
            .values(*fields, RESEARCH)[:batch_size]
        ]

    return _absorb_in_batches(
        watermark=ANALYSES, rows_after=rows_after, absorb=_absorb_analysis_rows,
        time_field="computed_at", id_field="game_id", batch_size=batch_size,
    )


# -- entry points ----------------------------------------------------------------------


AGGREGATE_MODELS = (
    LifetimeCount,
    DailyCount,
    PlayerDay,
    PlayerBest,
    AnalysisCount,
    StrategyCount,
    AgreementCount,
    NoiseCount,
    AbsorbedAnalysis,
)


def aggregates_refresh(
    *, settle: datetime.timedelta = SETTLE, batch_size: int = BATCH_SIZE
) -> RefreshReport:
    """Absorb whatever finished since the last run; cheap when nothing did."""
    games, counted_games = absorb_games(settle=settle, batch_size=batch_size)
    analyses, counted_analyses = absorb_analyses(settle=settle, batch_size=batch_size)
    return RefreshReport(games, counted_games, analyses, counted_analyses)


def aggregates_refresh_if_stale(*, max_age: datetime.timedelta = REFRESH_EVERY) -> bool:
    """Refresh the aggregates when the last run is older than ``max_age``; say if it ran.

    For sites without a Celery beat: a dashboard request calls this, and the
    run takes the same watermark locks as beat's, so overlapping requests
    queue and count nothing twice.
    """
    last = Watermark.objects.filter(name=GAMES).values_list("updated_at", flat=True).first()
    if last is not None and timezone.now() - last < max_age:
        return False
    aggregates_refresh()
    return True


def aggregates_rebuild(
    *, settle: datetime.timedelta = SETTLE, batch_size: int = BATCH_SIZE
) -> RefreshReport:
    """Count everything again from scratch.

    Picks up what the incremental runs cannot see: games excluded from research
    or consent withdrawn after they were counted, and recomputed analyses.
    """
    with transaction.atomic():
        for name in (GAMES, ANALYSES):
            mark = _locked_watermark(name)
            mark.last_at, mark.last_id, mark.absorbed = None, "", 0
            mark.save(update_fields=["last_at", "last_id", "absorbed"])
        for model in AGGREGATE_MODELS:
            model.objects.all().delete()
        report = aggregates_refresh(settle=settle, batch_size=batch_size)
    logger.info("dashboard aggregates rebuilt: %s", report)
    return report
