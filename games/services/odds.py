"""Writes of a finished planar game's class odds (``Game.class_odds``, ``best_class_odds``).

The odds come from the game's first board (its rule set and seed, replayed
to just after the noise) and its logical charge: ``games.engine.planar.odds``.
They are computed when the game finishes (``game_class_odds_columns``, called
by ``_end`` in ``play.py``) and, for games that finished before they existed,
by ``planar_class_odds_backfill`` (``python manage.py backfill_class_odds``).
Boards beyond the exact contraction's reach keep them empty.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from games.engine import replay
from games.engine.planar import PlanarGame
from games.engine.planar.odds import ClassOdds, class_odds
from games.models import Game


def game_first_board(*, game: Game) -> PlanarGame | None:
    """The planar game's board just after its noise; ``None`` without a seed."""
    if game.kind.grouped or game.seed is None:
        return None
    first = replay(game.rules, game.seed, (), engine_version=game.engine_version, record=False)
    return first if isinstance(first, PlanarGame) else None


def game_class_odds(*, game: Game) -> ClassOdds | None:
    """The odds of a finished planar game's class; ``None`` when it has none to compute."""
    if game.status != Game.Status.FINISHED or game.logical_charge is None:
        return None
    first = game_first_board(game=game)
    if first is None:
        return None
    return class_odds(first, charge=game.logical_charge)


def game_class_odds_columns(*, game: Game) -> list[str]:
    """Set ``game``'s odds columns (not saved) from its outcome; return the columns set."""
    odds = game_class_odds(game=game)
    game.class_odds = None if odds is None else odds.odds
    game.best_class_odds = None if odds is None else odds.best_odds
    return ["class_odds", "best_class_odds"]


def planar_class_odds_backfill(*, games: Iterable[Game] | None = None,
                               recompute: bool = False) -> int:
    """Compute and store the odds of finished planar games; return how many got odds.

    ``games`` defaults to every finished planar game still without odds (with
    ``recompute`` every finished planar game). Each game is saved on its own,
    so a long run can be stopped and started again.
    """
    if games is None:
        selected = Game.objects.planar().filter(status=Game.Status.FINISHED)
        if not recompute:
            selected = selected.filter(class_odds__isnull=True)
        games = selected.order_by("pk").iterator(chunk_size=200)
    stored = 0
    for game in games:
        columns = game_class_odds_columns(game=game)
        if game.class_odds is None:
            continue
        with transaction.atomic():
            game.save(update_fields=columns)
        stored += 1
    return stored
