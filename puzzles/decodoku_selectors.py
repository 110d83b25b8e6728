"""Reads about Decodoku puzzles: the published list, one puzzle's players against its bots.

The players' side of a comparison counts research data only
(``Attempt.objects.research_data()``, the one rule of
``puzzles.models.attempt_research_condition``), as the statistics page does.
An attempt *succeeds* when its answer is the puzzle's recorded top-left
value; an attempt given up counts as one that did not. The success rate
comes with its Wilson score interval (95%).
"""

from __future__ import annotations

import statistics
import uuid
from typing import Any

from django.db.models import Count, Q

from core.stats.intervals import Z95, wilson_interval
from games.errors import NotFound
from games.models import Player
from puzzles.engines.decodoku import platform as decodoku_platform
from puzzles.engines.decodoku.bots import BOT_VERSION, BOTS
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.models import Action, Attempt, DecodokuBotAnswer, Puzzle

DECODOKU = decodoku_platform.KIND
BOT_TITLES = {
    "exact": "Exact solver (fewest links)",
    "clustering": "Clustering decoder (corners as sinks)",
}


def decodoku_puzzle_get(*, puzzle_id: uuid.UUID) -> Puzzle:
    puzzle = Puzzle.objects.filter(pk=puzzle_id, kind=DECODOKU).first()
    if puzzle is None:
        raise NotFound("No such decodoku puzzle.")
    return puzzle


def decodoku_puzzle_of_attempt(*, attempt_id: uuid.UUID) -> Puzzle:
    """The puzzle of an ended Decodoku attempt (whoever's: the comparison is public)."""
    attempt = (
        Attempt.objects.select_related("puzzle")
        .filter(pk=attempt_id, puzzle__kind=DECODOKU)
        .exclude(status=Attempt.Status.ACTIVE)
        .first()
    )
    if attempt is None:
        raise NotFound("No such ended decodoku attempt.")
    return attempt.puzzle


def published_list_view(*, player: Player | None) -> list[dict[str, Any]]:
    """Every published puzzle by its first number: stored or not, and the player's outcome."""
    rows = {
        p.number: p
        for p in Puzzle.objects.filter(
            kind=DECODOKU,
            number__isnull=False,
            engine_version=decodoku_platform.ENGINE_VERSION,
        ).only("id", "number")
    }
    mine: dict[uuid.UUID, dict[str, int]] = {}
    if player is not None:
        counted = (
            Attempt.objects.filter(player=player, puzzle__in=list(rows.values()))
            .values("puzzle_id")
            .annotate(
                solved=Count("pk", filter=Q(status=Attempt.Status.SOLVED)),
                ended=Count("pk", filter=~Q(status=Attempt.Status.ACTIVE)),
            )
        )
        mine = {c["puzzle_id"]: c for c in counted}
    listed = []
    for puzzle in published_puzzles():
        row = rows.get(puzzle.number)
        outcome = mine.get(row.pk, {}) if row is not None else {}
        listed.append(
            {
                "number": puzzle.number,
                "numbers": list(puzzle.numbers),
                "puzzle_id": str(row.pk) if row is not None else None,
                "solved": bool(outcome.get("solved")),
                "ended": bool(outcome.get("ended")),
            }
        )
    return listed


def _median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


def comparison_view(*, puzzle: Puzzle) -> dict[str, Any]:
    """Players' answers (research data) on a puzzle against every bot's."""
    solution = puzzle.solution or {}
    corners = solution.get("corners")
    truth = corners[0] if isinstance(corners, list) and len(corners) == 2 else None
    minimum = solution.get("minimum")
    attempts = Attempt.objects.research_data().filter(puzzle=puzzle)
    ended = attempts.exclude(status=Attempt.Status.ACTIVE).count()
    answers = list(
        Action.objects.filter(attempt__in=attempts, kind="answer").values_list("value", "result")
    )
    links = [int(r["links"]) for _, r in answers if isinstance(r.get("links"), int)]
    correct = sum(1 for _, r in answers if r.get("correct") is True)
    by_value: dict[int, int] = {}
    for value, _ in answers:
        if value is not None:
            by_value[value] = by_value.get(value, 0) + 1
    interval = wilson_interval(correct, ended, Z95) if truth is not None and ended > 0 else None
    bots = []
    stored = {
        b.bot: b for b in DecodokuBotAnswer.objects.filter(puzzle=puzzle, bot_version=BOT_VERSION)
    }
    for name in BOTS:
        answer = stored.get(name)
        bots.append(
            {
                "bot": name,
                "title": BOT_TITLES.get(name, name),
                "decoded": answer is not None,
                "corner": answer.corner if answer else None,
                "links": answer.links_count if answer else None,
                "excess": (
                    answer.links_count - minimum
                    if answer is not None and isinstance(minimum, int)
                    else None
                ),
                "correct": answer.correct if answer else None,
                "ties": list(answer.ties) if answer else [],
            }
        )
    return {
        "puzzle_id": str(puzzle.pk),
        "number": puzzle.number,
        "numbers": (puzzle.definition or {}).get("numbers", []),
        "generated": puzzle.number is None,
        "seed": puzzle.seed if puzzle.number is None else None,
        "grid": (puzzle.definition or {}).get("grid", ""),
        "true_corner": truth,
        "corners_source": solution.get("corners_source", ""),
        "minimum": minimum,
        "ties": solution.get("ties", []),
        "players": {
            "ended": ended,
            "answered": len(answers),
            "correct": correct,
            "rate": correct / ended if ended and truth is not None else None,
            "interval": interval,
            "interval_pct": (
                (round(interval[0] * 100, 1), round(interval[1] * 100, 1)) if interval else None
            ),
            "median_links": _median(links),
            "fewest_links_answers": sum(
                1 for n in links if isinstance(minimum, int) and n == minimum
            ),
            "answers": sorted(by_value.items()),
        },
        "bots": bots,
    }
