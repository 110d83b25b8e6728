"""Writes of per-game analyses.

``game_analyse`` is idempotent: it computes the analysis outside any
transaction, then replaces whatever rows the game had in one transaction
holding the game row's lock, and skips the work when an analysis of the
current version is already stored. A repeated or redelivered task therefore
leaves exactly one analysis; a task killed halfway leaves none (its
transaction is rolled back) and the next delivery writes it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import cast

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.selectors import game_events, game_snapshots
from results.analysis import (
    ANALYSIS_VERSION,
    GameReport,
    StoredBoard,
    StoredMove,
    analyse_boards,
    analyse_seeded,
)
from results.models import GameAnalysis, MoveAnalysis, MoveBotAgreement, RoundAnalysis

logger = logging.getLogger(__name__)


def game_report(*, game: Game) -> GameReport:
    """The analysis of a finished game, computed from its stored record (no writes)."""
    rules = game.rules
    lost = game.status == Game.Status.LOST
    moves = game_events(game=game).filter(kind="move")
    if game.seed is not None:
        return analyse_seeded(
            rules=rules,
            seed=game.seed,
            engine_version=game.engine_version,
            # Move rows always have their cells (the columns are nullable for other kinds).
            moves=cast(
                "list[tuple[int, int, int, int]]",
                list(moves.values_list("from_row", "from_col", "to_row", "to_col")),
            ),
            lost=lost,
        )
    boards = [
        StoredBoard(step, values, tuple(int(x) for x in labels.split(",")) if labels else ())
        for step, values, labels in game_snapshots(game=game).values_list(
            "step", "values", "labels"
        )
    ]
    stored_moves = [
        StoredMove(index, t, round_, (fr, fc, tr, tc), annihilated)
        for index, t, round_, fr, fc, tr, tc, annihilated in cast(
            "Iterable[tuple[int, int, int, int, int, int, int, bool | None]]",
            moves.values_list(
                "index", "t", "round", "from_row", "from_col", "to_row", "to_col", "annihilated"
            ),
        )
    ]
    return analyse_boards(
        rules=rules,
        boards=boards,
        moves=stored_moves,
        lost=lost,
        rounds=game.rounds,
        moves_count=game.moves_count,
        score=game.score,
    )


def game_analyse(*, game_id: uuid.UUID | str, force: bool = False) -> GameAnalysis | None:
    """Analyse a finished game and store the result; None if there is no such finished game.

    Without ``force`` an analysis of the current version is kept as it is.
    Planar games are not analysed (None).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.is_active:
        logger.info("game %s is not a finished game: nothing to analyse", game_id)
        return None
    if game.family:
        # The analysis reads groups, rounds and spans of the original game; a planar
        # game has none of them (its outcome is on the game: logical_failure).
        logger.info("game %s is a %s game: it has no per-game analysis", game.pk, game.family)
        return None
    if not force:
        current = _current_analysis(game=game)
        if current is not None:
            return current
    logger.info("analysing game %s", game.pk)
    report = game_report(game=game)
    return _store(game=game, report=report, force=force)


def _current_analysis(*, game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game, analysis_version__gte=ANALYSIS_VERSION).first()


@transaction.atomic
def _store(*, game: Game, report: GameReport, force: bool) -> GameAnalysis:
    # The game row's lock makes concurrent analyses of one game take turns, so
    # the second sees the first one's rows instead of colliding with them.
    Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True).first()
    if not force:
        current = _current_analysis(game=game)
        if current is not None:
            return current
    MoveAnalysis.objects.filter(game=game).delete()
    RoundAnalysis.objects.filter(game=game).delete()
    RoundAnalysis.objects.bulk_create(
        RoundAnalysis(
            game=game,
            round=r.round,
            t=r.t,
            errors=r.errors,
            new_numbers=r.new_numbers,
            light_errors=r.light_errors,
            numbers=r.numbers,
            largest_group_size=r.largest_group_size,
            largest_group_row_extent=r.largest_group_row_extent,
            largest_group_col_extent=r.largest_group_col_extent,
            max_group_extent=r.max_group_extent,
        )
        for r in report.rounds
    )
    moves = MoveAnalysis.objects.bulk_create(
        MoveAnalysis(game=game, move_index=m.index, round=m.round, move_class=m.move_class)
        for m in report.moves
    )
    MoveBotAgreement.objects.bulk_create(
        MoveBotAgreement(
            move=row, bot_name=a.bot_name, bot_version=a.bot_version, top1=a.top1, top3=a.top3
        )
        for row, m in zip(moves, report.moves, strict=True)
        for a in m.agreements
    )
    analysis, _ = GameAnalysis.objects.update_or_create(
        game=game,
        defaults={
            "analysis_version": ANALYSIS_VERSION,
            "coverage": report.coverage,
            "note": report.note,
            "lost": report.lost,
            "survived_rounds": report.survived_rounds,
            "survived_moves": report.survived_moves,
            "score": report.score,
            "noise_errors": report.noise_errors,
            "new_numbers": report.new_numbers,
            "light_errors": report.light_errors,
            "effective_error_rate": report.effective_error_rate,
            "computed_at": timezone.now(),
        },
    )
    return analysis
