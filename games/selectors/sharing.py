"""Shared games: finding one by its share token and what its page shows."""

from __future__ import annotations

import re
from typing import Any

from games.engine.variants import variant_kinds
from games.errors import NotFound
from games.models import Game
from games.selectors.games import game_last_step, game_snapshots
from games.selectors.visibility import (
    _current_board,
    _loss_view,
    game_visibility,
    outcome_view,
    rules_view,
    seed_withheld,
    snapshot_view,
)

SHARE_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,32}")
# The multiplication sign written between the sides of a board ("7 by 7").
TIMES = "\u00d7"
# Each value of the variant column named in a sentence, from its kind (one definition).
VARIANT_LABELS = {kind.stored: kind.title for kind in variant_kinds()}


def shared_game_by_token(*, token: str) -> Game:
    """The finished game shared under ``token``.

    A malformed or unknown token, a game no longer shared and (should one
    ever hold a token) an active game or a daily game whose day is open are
    all simply not found: the answer
    says nothing about which.
    """
    if not SHARE_TOKEN_PATTERN.fullmatch(token):
        raise NotFound("No shared game has this link.")
    game = (
        Game.objects.filter(share_token=token)
        .exclude(status=Game.Status.ACTIVE)
        .select_related("daily")
        .first()
    )
    # A daily game's replay shows the day's noise: never public while the day is open.
    if game is None or seed_withheld(game=game):
        raise NotFound("No shared game has this link.")
    return game


def share_text(*, game: Game, url: str) -> str:
    """The text a player shares, as the original apps' share button wrote it: score and rules.

    A planar game's text names its code and its outcome instead of a score.
    """
    if not game.kind.grouped:
        outcome = outcome_view(game=game)
        board = f"{game.size}{TIMES}{game.size}"
        code = f"a planar Z{game.modulus} code ({board}, p = {game.error_rate:g})"
        if outcome is None:
            return f"I played {code} in Decodoku and gave up. Watch the replay: {url}"
        ending = "a logical error" if outcome["failed"] else "no logical error"
        return (
            f"I cleaned {code} in Decodoku in {game.moves_count} moves: {ending}. "
            f"Watch the replay: {url}"
        )
    variant = VARIANT_LABELS.get(game.variant, game.variant)
    practice = ", practice" if game.mode == Game.Mode.PRACTICE else ""
    rounds = f"{game.rounds} {'round' if game.rounds == 1 else 'rounds'}"
    return (
        f"I scored {game.score} in Decodoku ({variant}, {game.size}{TIMES}{game.size}{practice}, "
        f"{rounds}). Watch the replay: {url}"
    )


def shared_game_view(*, game: Game) -> dict[str, Any]:
    """What anybody with the link may see of a shared finished game.

    The rules, the score, how it ended and the board after every step: no
    player, no game id, no seed, no notes, no timings and no client details.
    """
    visibility = game_visibility(game=game)
    return {
        "status": game.status,
        "mode": game.mode,
        "rules": rules_view(row=game),
        "variant_label": VARIANT_LABELS.get(game.variant, game.variant),
        "score": game.score,
        "round": game.rounds,
        "step": game_last_step(game=game),
        "ended_on": game.ended_at.date().isoformat() if game.ended_at else None,
        "partially_observed": game.partially_observed,
        "loss": _loss_view(game, visibility),
        "outcome": outcome_view(game=game),
        "board": _current_board(game=game, visibility=visibility),
        "replay": [
            snapshot_view(game=game, snapshot=snapshot, visibility=visibility) | {"comment": ""}
            for snapshot in game_snapshots(game=game)
        ],
    }
