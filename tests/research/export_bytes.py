"""A fixed database of research data and the bytes of every export table read from it.

``build_dataset`` fills an empty test database through the factories and the
services, with fixed seeds, a fake clock and seeded UUIDs, so that every run
stores the same rows (the same ids, times and values). ``capture`` writes
every export table from it (CSV, Parquet, with the default filters and with
every optional filter a table accepts) and the codebook, and returns their
SHA-256 digests. ``tests/research/test_export_bytes.py`` compares them with
those stored in ``fixtures/export_bytes.json``: where the tables are declared
may change, what they hold may not.

The tables of a fitted model (:data:`FITTED_TABLES`) are kept as their rows
instead: their numbers come out of a likelihood maximised with numpy, whose
BLAS picks its kernels by processor, so their last bits differ from one CPU
to another (measured: at most 1.2e-11 relative between OpenBLAS' Sandybridge
and Haswell kernels on this dataset). Their text and integers must match
exactly, their floats to :data:`FITTED_REL_TOL`.
"""

from __future__ import annotations

import csv as csv_module
import hashlib
import io
import json
import math
import os
import random
import types
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pyarrow
import pyarrow.parquet as pq

from games.models import Event, Game, Player
from puzzles.services import (
    attempt_act,
    attempt_finish,
    attempt_start,
    attempts_set_excluded,
    decodoku_bots_run,
)
from research.exports import writer
from research.exports.codebook import codebook
from research.exports.filters import filtered_queryset, parse_filters
from research.exports.parquet import parquet_chunks
from research.exports.tables import all_tables
from research.services import games_set_excluded
from results.services import game_analyse
from results.services.strategy import strategy_fit_create
from results.services.sweeps import sweep_run
from tests.factories import GameFactory, PlanarGameFactory, PlayerFactory, play, play_planar

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "export_bytes.json"
PSEUDONYM_KEY = "export-bytes-fixture-key"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FITTED_TABLES = frozenset({"strategy_fits", "strategy_coefficients", "strategy_predictions"})
FITTED_REL_TOL = 1e-9


class _Clock(datetime):
    """``datetime`` whose ``now`` advances one second per call from :data:`START`."""

    ticks = 0

    @classmethod
    def now(cls, tz: Any = None) -> _Clock:
        cls.ticks += 1
        moment = START + timedelta(seconds=cls.ticks)
        return cls.fromtimestamp(moment.timestamp(), tz=tz or UTC)


@contextmanager
def fixed_randomness(seed: int = 20260301) -> Iterator[None]:
    """Seeded UUIDs (``uuid.uuid4`` reads ``os.urandom``) and a clock of one tick per call."""
    generator = random.Random(seed)
    seeded_os = types.SimpleNamespace(urandom=generator.randbytes)
    _Clock.ticks = 0
    with (
        mock.patch("uuid.os", seeded_os),
        mock.patch("django.utils.timezone.datetime", _Clock),
    ):
        yield


def play_puzzle(player: Any, *, kind: str, seed: int, solve: bool = True) -> Any:
    attempt = attempt_start(player=player, kind=kind, size=4, seed=seed)
    solution = attempt.puzzle.solution
    empty = [
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    ]
    (r0, c0), (r1, c1) = empty[0], empty[1]
    plan: list[tuple[str, dict[str, Any]]] = [
        ("entry", {"cell": [r0, c0], "value": solution[r0][c0] % 4 + 1}),
        ("check", {}),
        ("undo", {}),
        ("hint", {}),
        ("candidate", {"cell": [r1, c1], "value": 2}),
    ]
    if solve:
        plan += [("entry", {"cell": [r, c], "value": solution[r][c]}) for r, c in empty]
    for action, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=action, payload=payload
        ).attempt
    return attempt


def build_dataset() -> None:
    """Games, analyses, a sweep and puzzle attempts of every kind the exports tell apart."""
    with fixed_randomness():
        ada, bob = PlayerFactory(), PlayerFactory()
        unconsented = PlayerFactory(consent_version=None)
        lost = play(GameFactory.create(player=ada, seed=5))
        phi = play(GameFactory.create(player=bob, size=4, variant="phi_lambda", seed=9), moves=8)
        practice = play(GameFactory.create(player=bob, mode=Game.Mode.PRACTICE, seed=11), moves=6)
        hidden = play(GameFactory.create(player=unconsented, seed=21), moves=4)
        regenerated = play(GameFactory.create(player=ada, seed=7005, size=3, noise_budget=2.0))
        # The first seed from 7000 on whose board empties (a jump) under ``play``.
        play(GameFactory.create(player=bob, seed=7035, size=3, noise_budget=2.0))
        # A platform bot's player, marked as player_for_bot marks it (made by the factory
        # so that the fixed ids and times stay those of the stored digests).
        bot_player = PlayerFactory.create()
        Player.objects.filter(pk=bot_player.pk).update(is_platform_bot=True)
        bot_player.is_platform_bot = True
        bot_game = GameFactory.create(
            player=bot_player, source=Game.Source.BOT, noise_budget=4.5, seed=31
        )
        bot = play(bot_game, moves=10)
        planar = play_planar(PlanarGameFactory.create(player=ada, seed=41))
        Game.objects.filter(pk=bot.pk).update(bot_name="greedy, v2", bot_version='"q"')
        Event.objects.filter(game=lost, kind="move", index=2).update(
            note='x,y "z"\r\nsecond line', client_time=START
        )
        Event.objects.filter(game=lost, kind="move", index=3).update(note="=1+2")
        games_set_excluded(game_ids=[phi.pk], excluded=True, reason='a "test", with, commas')
        ended = [phi, practice, hidden, bot]
        Game.objects.filter(pk__in=[g.pk for g in ended], status=Game.Status.ACTIVE).update(
            status=Game.Status.ABANDONED, ended_at=START + timedelta(days=1)
        )
        for game in (lost, phi, practice, regenerated, bot):
            game_analyse(game_id=game.pk, force=True)
        assert planar.status == Game.Status.FINISHED
        sweep_run(
            bots=["greedy"],
            sizes=[3, 4],
            budgets=[2.0, 4.0],
            games_per_point=4,
            seed=12,
            chunk_size=4,
            max_rounds=12,
        )
        play_puzzle(ada, kind="kenken", seed=4)
        play_puzzle(ada, kind="kenken", seed=4)  # after seeing the solution: not research data
        play_puzzle(bob, kind="futoshiki", seed=6, solve=False)
        play_puzzle(unconsented, kind="kenken", seed=5)
        excluded = play_puzzle(bob, kind="kenken", seed=7)
        attempts_set_excluded(attempt_ids=[excluded.pk], excluded=True)
        play_decodoku(ada, number=1)
        play_decodoku(unconsented, number=2)  # without consent: not research data
        # Two players of research data (ada and bob) fill two folds.
        strategy_fit_create(folds=2, seed=3)


def play_decodoku(player: Any, *, number: int) -> Any:
    """A published Decodoku puzzle: links drawn and erased, a check, given up; the bots'
    answers on it."""
    attempt = attempt_start(player=player, kind="decodoku", number=number)
    plan: list[tuple[str, dict[str, Any]]] = [
        ("link", {"link": 0}),
        ("link", {"link": 9}),
        ("unlink", {"link": 0}),
        ("check", {}),
    ]
    for action, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=action, payload=payload
        ).attempt
    attempt = attempt_finish(attempt_id=attempt.pk, player=player)
    decodoku_bots_run(puzzle_id=attempt.puzzle_id)
    return attempt


def _variants(table_name: str) -> dict[str, dict[str, str]]:
    """The default export, and one with every optional filter of the table set."""
    table = all_tables()[table_name]
    variants: dict[str, dict[str, str]] = {"default": {}}
    optional = {
        name: "1" for name in ("include_excluded", "include_practice") if name in table.filter_names
    }
    if optional:
        variants["included"] = optional
    return variants


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _parquet_content(data: bytes) -> dict[str, Any]:
    """A Parquet file's schema and rows, as JSON would store them."""
    arrow = pq.read_table(io.BytesIO(data))
    content: dict[str, Any] = json.loads(json.dumps(
        {"schema": str(arrow.schema), "rows": arrow.to_pylist()}, default=str, sort_keys=True
    ))
    return content


def _parquet_rows(data: bytes) -> str:
    return _digest(json.dumps(_parquet_content(data), sort_keys=True).encode())


def _close_text(got: str, expected: str) -> bool:
    """Two CSV fields: equal, or both floats equal to :data:`FITTED_REL_TOL`."""
    if got == expected:
        return True
    try:
        return math.isclose(float(got), float(expected), rel_tol=FITTED_REL_TOL, abs_tol=0.0)
    except ValueError:
        return False


def fitted_csv_differences(got: str, expected: str) -> list[str]:
    """The fields of two CSV exports of a fitted table that differ beyond the tolerance."""
    got_rows = list(csv_module.reader(io.StringIO(got)))
    expected_rows = list(csv_module.reader(io.StringIO(expected)))
    if len(got_rows) != len(expected_rows):
        return [f"{len(got_rows)} lines instead of {len(expected_rows)}"]
    differences = []
    for number, (got_row, expected_row) in enumerate(zip(got_rows, expected_rows, strict=True)):
        if len(got_row) != len(expected_row):
            differences.append(f"line {number + 1}: {len(got_row)} fields, not {len(expected_row)}")
            continue
        differences.extend(
            f"line {number + 1} field {index + 1}: {a!r} instead of {b!r}"
            for index, (a, b) in enumerate(zip(got_row, expected_row, strict=True))
            if not _close_text(a, b)
        )
    return differences


def fitted_values_close(got: Any, expected: Any) -> bool:
    """Parquet rows of a fitted table: the same structure and text, floats to the tolerance."""
    if isinstance(got, float) and isinstance(expected, float):
        return math.isclose(got, expected, rel_tol=FITTED_REL_TOL, abs_tol=0.0) or (
            math.isnan(got) and math.isnan(expected))
    if isinstance(got, dict) and isinstance(expected, dict):
        return got.keys() == expected.keys() and all(
            fitted_values_close(got[key], expected[key]) for key in got)
    if isinstance(got, list) and isinstance(expected, list):
        return len(got) == len(expected) and all(
            fitted_values_close(a, b) for a, b in zip(got, expected, strict=True))
    return bool(got == expected)


def capture() -> dict[str, Any]:
    """Digests of every table's CSV and Parquet, and of the codebook, in the tables' order."""
    tables: dict[str, Any] = {}
    for name, table in all_tables().items():
        entry: dict[str, Any] = {"columns": list(table.column_names)}
        for variant, params in _variants(name).items():
            filters = parse_filters(params, table=table)
            rows = filtered_queryset(table=table, filters=filters)
            csv = b"".join(writer.portable_chunks(table=table, queryset=rows))
            parquet = b"".join(parquet_chunks(table=table, queryset=rows))
            if name in FITTED_TABLES:
                entry[variant] = {
                    "csv_rows": csv.count(b"\n") - 1,
                    "csv": csv.decode(),
                    "parquet": _parquet_content(parquet),
                }
                continue
            entry[variant] = {
                "csv_rows": csv.count(b"\n") - 1,
                "csv_sha256": _digest(csv),
                "parquet_sha256": _digest(parquet),
                "parquet_rows_sha256": _parquet_rows(parquet),
            }
        tables[name] = entry
    book = json.dumps(codebook(), sort_keys=False, ensure_ascii=False, default=str)
    return {
        "pyarrow": pyarrow.__version__,
        "codebook_sha256": _digest(book.encode()),
        "table_order": list(all_tables()),
        "tables": tables,
    }


def write_fixture(data: dict[str, Any]) -> None:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def fixture_wanted() -> bool:
    """True when the run should store the digests instead of comparing them."""
    return os.environ.get("DECODOKU_WRITE_EXPORT_BYTES") == "1"
