"""Reads for the puzzles' statistics page: solve times, technique use, error rates.

Only research data counts, as in the exports: attempts of consenting players
that no curator excluded, made before the player had seen the puzzle's
solution (``Attempt.objects.research_data()``), and their actions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from statistics import median
from typing import Any

from django.db.models import Count, Q, Sum

from puzzles.engines.registry import stored_level_label
from puzzles.engines.solver import ENTRY_TAGS, TECHNIQUE_LEVELS
from puzzles.models import Attempt, AttemptQuerySet, Puzzle
from puzzles.selectors import attempt_twomino_analysis


def research_attempts() -> AttemptQuerySet:
    return Attempt.objects.research_data()


@dataclass(frozen=True)
class SolveTimes:
    kind: str
    size: int
    difficulty: str
    solved: int
    median_seconds: float
    fastest_seconds: float


def solve_times() -> list[SolveTimes]:
    """Solved attempts by kind, size and difficulty: how many, median and fastest time (a
    difficulty given by an earlier engine version is one of its own, named with it)."""
    groups: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    rows = (
        research_attempts()
        .filter(status=Attempt.Status.SOLVED)
        .values_list(
            "puzzle__kind",
            "puzzle__size",
            "puzzle__difficulty",
            "puzzle__engine_version",
            "started_at",
            "finished_at",
        )
    )
    for kind, size, difficulty, version, started, finished in rows.iterator(chunk_size=2000):
        if finished is not None:  # always set once solved (a constraint says so)
            level = stored_level_label(kind, difficulty, version)
            groups[(kind, size, level)].append((finished - started).total_seconds())
    return [
        SolveTimes(kind, size, difficulty, len(times), median(times), min(times))
        for (kind, size, difficulty), times in sorted(groups.items())
    ]


@dataclass(frozen=True)
class TechniqueUse:
    kind: str
    technique: str
    level: int | None
    player_entries: int
    player_share: float
    solver_steps: int
    solver_share: float


def technique_use() -> list[TechniqueUse]:
    """Per kind: how players' entries are tagged, against the solver's steps on the same puzzles."""
    players: dict[str, Counter[str]] = defaultdict(Counter)
    entries = (
        research_attempts()
        .actions()
        .filter(kind="entry")
        .values("attempt__puzzle__kind", "technique")
        .annotate(n=Count("id"))
    )
    for row in entries:
        players[row["attempt__puzzle__kind"]][row["technique"]] += row["n"]
    solver: dict[str, Counter[str]] = defaultdict(Counter)
    puzzle_ids = research_attempts().values("puzzle_id")
    for kind, techniques in Puzzle.objects.filter(pk__in=puzzle_ids).values_list(
        "kind", "solver_techniques"
    ):
        solver[kind].update({str(k): int(v) for k, v in (techniques or {}).items()})
    out = []
    for kind in sorted(set(players) | set(solver)):
        p_total = sum(players[kind].values()) or 1
        s_total = sum(solver[kind].values()) or 1
        names = [t for t in (*ENTRY_TAGS, "search") if players[kind][t] or solver[kind][t]]
        for name in names:
            out.append(
                TechniqueUse(
                    kind,
                    name,
                    TECHNIQUE_LEVELS.get(name),
                    players[kind][name],
                    players[kind][name] / p_total,
                    solver[kind][name],
                    solver[kind][name] / s_total,
                )
            )
    return out


@dataclass(frozen=True)
class ErrorRates:
    kind: str
    size: int
    attempts: int
    solved: int
    entries: int
    wrong_entries: int
    error_rate: float
    hints_per_attempt: float


def error_rates() -> list[ErrorRates]:
    """Per kind and size: attempts, solved, wrong entries per entry, hints per attempt."""
    rows = (
        research_attempts()
        .values("puzzle__kind", "puzzle__size")
        .annotate(
            attempts=Count("id"),
            solved=Count("id", filter=Q(status=Attempt.Status.SOLVED)),
            entries=Sum("entries_count"),
            wrong=Sum("wrong_entries"),
            hints=Sum("hints_count"),
        )
        .order_by("puzzle__kind", "puzzle__size")
    )
    return [
        ErrorRates(
            row["puzzle__kind"],
            row["puzzle__size"],
            row["attempts"],
            row["solved"],
            row["entries"] or 0,
            row["wrong"] or 0,
            (row["wrong"] or 0) / row["entries"] if row["entries"] else 0.0,
            (row["hints"] or 0) / row["attempts"],
        )
        for row in rows
    ]


@dataclass(frozen=True)
class TwominoSearch:
    size: int
    attempts: int
    doubles_rank: float | None
    others_rank: float | None
    places_correlation: float | None
    forced_rank: float | None
    unforced_rank: float | None
    wrong_per_attempt: float


TWOMINO_ANALYSED = 200


def _mean_of(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def twomino_search() -> list[TwominoSearch]:
    """Per 2mino size, over the latest solved attempts: how players searched.

    Each attempt is analysed from its replay (``attempt_twomino_analysis``): the
    mean rank (0 first, 1 last) of the doubles against the other pairs and of
    the solver's forced pairs against the rest, the rank correlation of a
    pair's number of places with the order found, and the pairs formed and
    broken again per attempt. At most TWOMINO_ANALYSED attempts per size.
    """
    by_size: dict[int, list[dict[str, Any]]] = defaultdict(list)
    attempts = (
        research_attempts()
        .filter(puzzle__kind="2mino", status=Attempt.Status.SOLVED)
        .select_related("puzzle")
        .order_by("-finished_at")
    )
    for attempt in attempts.iterator(chunk_size=200):
        if len(by_size[attempt.puzzle.size]) < TWOMINO_ANALYSED:
            by_size[attempt.puzzle.size].append(attempt_twomino_analysis(attempt=attempt))
    return [
        TwominoSearch(
            size,
            len(rows),
            _mean_of([r["doubles_mean_rank"] for r in rows]),
            _mean_of([r["others_mean_rank"] for r in rows]),
            _mean_of([r["places_order_correlation"] for r in rows]),
            _mean_of([r["forced"]["mean_rank"] for r in rows]),
            _mean_of([r["forced"]["others_mean_rank"] for r in rows]),
            sum(r["wrong"]["formed_then_broken"] for r in rows) / len(rows),
        )
        for size, rows in sorted(by_size.items())
    ]


def statistics_view() -> dict[str, Any]:
    return {
        "solve_times": solve_times(),
        "technique_use": technique_use(),
        "error_rates": error_rates(),
        "twomino_search": twomino_search(),
    }
