"""Reads about players: finding them by token, id or recovery code, their consent,
their bests and streaks, and the "My games" view.
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, Max

from core.pseudonyms import pseudonym
from games.models import ConsentChange, Game, Player
from games.selectors.games import game_list_for_player
from games.selectors.scores import score_percentiles
from games.tokens import (
    TOKEN_MAX_LENGTH,
    TOKEN_PREFIX_LENGTH,
    hash_recovery_code,
    hash_token,
    normalize_recovery_code,
    token_prefix,
)


def player_by_token(*, token: str) -> Player | None:
    """The player whose API token this is, comparing hashes in constant time."""
    if not TOKEN_PREFIX_LENGTH < len(token) <= TOKEN_MAX_LENGTH:
        return None
    digest = hash_token(token)
    for player in Player.objects.filter(token_prefix=token_prefix(token)):
        if hmac.compare_digest(player.token_hash, digest):
            return player
    return None


def player_by_id(*, player_id: str | uuid.UUID) -> Player | None:
    try:
        key = uuid.UUID(str(player_id))
    except ValueError:
        return None
    # A forgotten player is no one's: a session still holding the id finds nobody.
    return Player.objects.filter(pk=key, forgotten_at__isnull=True).first()


def player_consent_view(*, player: Player) -> dict[str, Any]:
    """The player's current research consent and every choice they made, oldest first."""
    changes = ConsentChange.objects.filter(player=player).order_by("at", "id")
    return {
        "player_id": str(player.pk),
        "consent_version": player.consent_version,
        "consented_at": player.consented_at.isoformat() if player.consented_at else None,
        "consent_decided_at": (
            player.consent_decided_at.isoformat() if player.consent_decided_at else None
        ),
        "history": [
            {"consent_version": change.version, "at": change.at.isoformat()} for change in changes
        ],
    }


def player_personal_bests(*, player: Player) -> list[dict[str, Any]]:
    """The player's best score per variant, size and mode, over the games they lost.

    Practice games (the groups are shown) are a row of their own and never
    count as the best of a normal game; abandoned and active games do not
    count. Sorted by variant, size, then normal before practice.
    """
    rows = (
        Game.objects.filter(player=player, status=Game.Status.LOST)
        .values("variant", "size", "mode")
        .annotate(best_score=Max("score"), best_rounds=Max("rounds"), games=Count("id"))
    )
    bests = [
        {
            "variant": row["variant"],
            "size": row["size"],
            "mode": row["mode"],
            "best_score": row["best_score"],
            "best_rounds": row["best_rounds"],
            "games": row["games"],
        }
        for row in rows
    ]
    bests.sort(key=lambda row: (row["variant"], row["size"], row["mode"] != Game.Mode.NORMAL))
    return bests


def player_by_recovery_code(*, code: str) -> Player | None:
    """The player whose recovery code this is; None for a malformed or unknown code."""
    normalized = normalize_recovery_code(code)
    if normalized is None:
        return None
    return Player.objects.filter(recovery_hash=hash_recovery_code(normalized)).first()


def days_streaks(*, days: Iterable[date], today: date) -> dict[str, int]:
    """Streaks of consecutive days: the current one (ending today or yesterday) and the longest."""
    ordered = sorted(set(days))
    longest = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return {"current": current, "longest": longest, "days_played": len(ordered)}


def player_label(*, player_id: uuid.UUID, display_name: str | None) -> str:
    """How a player appears on a leaderboard: their display name, else their pseudonym."""
    return display_name or pseudonym(player_id)


def display_names(*, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The display names of those of ``player_ids`` who have one (for leaderboards only)."""
    rows = Player.objects.filter(pk__in=list(player_ids), display_name__isnull=False)
    return {pk: name for pk, name in rows.values_list("pk", "display_name") if name}


def player_games_view(*, player: Player, today: date, limit: int = 200) -> dict[str, Any]:
    """The "My games" view: the newest games, the personal bests and the streaks of days played.

    Days are calendar days (UTC) on which the player started a game. Each
    finished game has its percentile among everyone's games at its rules
    (:func:`score_percentiles`).
    """
    games = list(game_list_for_player(player=player).select_related("daily")[:limit])
    started_days = Game.objects.filter(player=player).values_list("started_at", flat=True)
    percentiles = score_percentiles(games=games)
    return {
        "player_id": str(player.pk),
        "display_name": player.display_name,
        "games": [
            {
                "id": str(game.pk),
                "started_at": game.started_at.isoformat(),
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                "variant": game.variant,
                "size": game.size,
                "mode": game.mode,
                "source": game.source,
                "score": game.score,
                "rounds": game.rounds,
                "status": game.status,
                "daily_date": game.daily.date.isoformat() if game.daily else None,
                "percentile": percentiles[game.pk][0] if game.pk in percentiles else None,
                "compared_with": percentiles[game.pk][1] if game.pk in percentiles else None,
            }
            for game in games
        ],
        "bests": player_personal_bests(player=player),
        "streak": days_streaks(days=(moment.date() for moment in started_days), today=today),
        "recovery_code_created_at": (
            player.recovery_created_at.isoformat() if player.recovery_created_at else None
        ),
    }
