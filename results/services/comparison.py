"""People against the decoders: every planar decoder plays each person's ended planar board.

When a person's planar game (web page or API) that is research data ends,
with the board clean or given up (a daily planar board's once its day is
over), each
planar decoder that decodes its modulus (``games.engine.planar.DECODERS``)
plays the same rule set from the same seed: the same noise, so the same
board. Its game is an ordinary recorded bot game (``planar_bot_game``), and a
:class:`~results.models.DecoderComparison` row links the two with how their
corrections compare (``results.analysis.corrections``).

``comparison_play`` is idempotent: a decoder that already has a row for the
game is skipped, and a bot game of the same rule set, seed, decoder and
decoder version that is already recorded (a run stopped between the game and
its row) is used again rather than played twice.
"""

from __future__ import annotations

import logging
import uuid

from django.db import IntegrityError, transaction
from django.db.models import Count

from core.tasks import enqueue_on_commit
from games.engine.planar import DECODERS, get_decoder
from games.models import Event, Game, GameQuerySet, seed_withheld_condition
from games.services.bots import planar_bot_game
from results.analysis.corrections import ChainMove, compare_corrections, net_chain
from results.models import DecoderComparison

logger = logging.getLogger(__name__)

# The sources of a person's game that the decoders are compared with.
HUMAN_SOURCES = (Game.Source.WEB, Game.Source.API)


def comparable_games() -> GameQuerySet:
    """Ended planar games of people (web, API) that the decoders may be compared with.

    An abandoned game is compared too: it counts as a failure, as a decoder's
    game that does not clean the board does, so that giving up weighs the
    same on both sides (leaving people's abandoned games out would keep only
    the boards they could finish).

    Only research data (``Game.objects.research_data()``): a game played without
    research consent gets no decoder games on its seed and no comparison rows.
    Nor does a game on a board whose seed is still withheld
    (``seed_withheld_condition``: a daily planar board while its day is open):
    the decoders' games would hold that day's noise, so they play it once the
    day is over (``comparison_enqueue_pending``, run periodically, finds it then).
    """
    return (
        Game.objects.research_data()
        .planar()
        .human()
        .finished()
        .filter(source__in=HUMAN_SOURCES, seed__isnull=False)
        .exclude(seed_withheld_condition())
    )


def decoders_for(*, size: int, modulus: int) -> list[str]:
    """The planar decoders that decode L = ``size`` boards of Z_d, d = ``modulus``, by name.

    A decoder that would spend seconds on such a board (the optimal one beyond its
    exact reach) is left out: every person's board is played by each decoder.
    """
    return sorted(
        name for name, bot in DECODERS.items()
        if modulus in bot.moduli and bot().decodes_quickly(size=size, modulus=modulus)
    )


def game_chain(*, game: Game) -> tuple[int, ...]:
    """The net correction of a recorded planar game (its moves as a chain on the edges)."""
    moves: list[ChainMove] = []
    for row in (
        Event.objects.filter(game=game, kind="move")
        .order_by("seq")
        .values_list("from_row", "from_col", "to_row", "to_col", "value")
    ):
        if None in row:  # pragma: no cover - a move row holds all five (a database check)
            raise ValueError(f"a move of game {game.pk} lacks its cells or value")
        moves.append((int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4])))  # type: ignore[arg-type]
    modulus = game.modulus if game.modulus is not None else 0
    return net_chain(size=game.size, modulus=modulus, moves=moves)


def _bot_game(*, game: Game, bot_name: str, version: str) -> Game:
    """The planar bot's game on ``game``'s board: one already recorded, else a new one."""
    existing = (
        Game.objects.bots()
        .filter(rules_key=game.rules_key, seed=game.seed, bot_name=bot_name, bot_version=version)
        .exclude(status=Game.Status.ACTIVE)
        .order_by("started_at", "id")
        .first()
    )
    if existing is not None:
        return existing
    if game.seed is None:  # pragma: no cover - comparable games have a seed
        raise ValueError("a game without a seed cannot be played again")
    return planar_bot_game(rules=game.rules, bot_name=bot_name, seed=game.seed)


def comparison_play(*, game_id: uuid.UUID | str) -> int:
    """Have every planar decoder play the board of the person's game ``game_id``.

    Returns how many comparisons were recorded (0 when the game is not a
    person's ended planar game, or every decoder has already played it).
    """
    game = comparable_games().filter(pk=game_id).first()
    if game is None:
        return 0
    modulus = game.modulus if game.modulus is not None else 0
    done = set(DecoderComparison.objects.filter(human_game=game).values_list("decoder", flat=True))
    human_cleaned = game.status == Game.Status.FINISHED
    human_chain = game_chain(game=game) if human_cleaned else None
    recorded = 0
    for bot_name in decoders_for(size=game.size, modulus=modulus):
        if bot_name in done:
            continue
        version = str(get_decoder(bot_name).version)
        bot_game = _bot_game(game=game, bot_name=bot_name, version=version)
        bot_failed = bot_game.logical_failure is not False  # abandoned counts as failed
        same_class: bool | None = None
        same_chain: bool | None = None
        # Corrections compare only when both cleaned the board (an uncleaned one has no class).
        if human_chain is not None and bot_game.status == Game.Status.FINISHED:
            agreement = compare_corrections(
                size=game.size,
                modulus=modulus,
                first=human_chain,
                second=game_chain(game=bot_game),
            )
            same_class, same_chain = agreement.same_class, agreement.same_chain
        human_failed = game.logical_failure is not False  # abandoned counts as failed
        try:
            with transaction.atomic():
                _, created = DecoderComparison.objects.get_or_create(
                    human_game=game,
                    decoder=bot_name,
                    defaults={
                        "bot_game": bot_game,
                        "decoder_version": version,
                        "human_failed": human_failed,
                        "bot_failed": bot_failed,
                        "same_outcome": human_failed == bot_failed,
                        "same_class": same_class,
                        "same_chain": same_chain,
                    },
                )
        except IntegrityError:  # another run recorded it between the read and the write
            created = False
        recorded += int(created)
    return recorded


def comparison_enqueue(*, game_id: uuid.UUID | str) -> None:
    """Queue the decoders' games on ``game_id``'s board, once the current transaction commits."""
    enqueue_on_commit("results.play_decoders_on_game", str(game_id), retry=False)


def comparison_enqueue_pending(*, limit: int = 200) -> int:
    """Queue the comparable games that some decoder has not played yet; returns how many."""
    pending: list[uuid.UUID] = []
    rows = (
        comparable_games()
        .annotate(compared=Count("decoder_comparisons"))
        .order_by("ended_at", "id")
        .values_list("pk", "size", "modulus", "compared")
    )
    for game_id, size, modulus, compared in rows.iterator():
        if compared < len(decoders_for(size=size, modulus=modulus or 0)):
            pending.append(game_id)
            if len(pending) >= limit:
                break
    for pending_id in pending:
        comparison_enqueue(game_id=pending_id)
    if pending:
        logger.info("queued the decoders on %d people's planar boards", len(pending))
    return len(pending)
