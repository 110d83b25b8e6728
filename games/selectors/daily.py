"""The daily challenge: the day's game, its leaderboard and the days played."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Count, Max

from games.daily import day_is_open
from games.daily import today as daily_today
from games.engine import DEFAULT_RULES
from games.models import DailyChallenge, Game, Player
from games.rulesets import rules_columns
from games.selectors.players import player_label
from games.selectors.visibility import rules_view


def daily_challenge_by_date(*, day: date) -> DailyChallenge | None:
    return DailyChallenge.objects.filter(date=day).first()


def daily_player_game(*, challenge: DailyChallenge, player: Player | None) -> Game | None:
    if player is None or challenge.pk is None:
        return None
    return Game.objects.filter(daily=challenge, player=player).first()


def daily_leaderboard(*, challenge: DailyChallenge, player: Player | None = None) -> dict[str, Any]:
    """The players' finished games of a day's challenge, best first, and the bots' games.

    People appear by display name, else by pseudonym; a game still being
    played is only counted (``playing``). Ties in score are ranked by
    rounds, then by who finished first. Bots (``bots``) are not ranked with
    people: each shows its score and how many players scored more.
    """
    if challenge.pk is None:  # today's, before anyone played it
        return {"entries": [], "playing": 0, "bots": []}
    games = (
        Game.objects.filter(daily=challenge)
        .select_related("player")
        .order_by("-score", "-rounds", "ended_at", "id")
    )
    entries: list[dict[str, Any]] = []
    bots: list[dict[str, Any]] = []
    playing = 0
    for game in games:
        if game.player.is_platform_bot:
            bots.append(
                {
                    "bot_name": game.bot_name,
                    "bot_version": game.bot_version,
                    "score": game.score,
                    "rounds": game.rounds,
                    "status": game.status,
                }
            )
            continue
        if game.is_active:
            playing += 1
            continue
        entries.append(
            {
                "rank": len(entries) + 1,
                "player": player_label(
                    player_id=game.player_id, display_name=game.player.display_name
                ),
                "named": bool(game.player.display_name),
                "you": player is not None and game.player_id == player.pk,
                "score": game.score,
                "rounds": game.rounds,
                "status": game.status,
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
            }
        )
    for bot in bots:
        bot["players_above"] = sum(1 for entry in entries if entry["score"] > bot["score"])
    bots.sort(key=lambda bot: (-bot["score"], bot["bot_name"]))
    return {"entries": entries, "playing": playing, "bots": bots}


def daily_view(*, challenge: DailyChallenge, player: Player | None = None) -> dict[str, Any]:
    """A day's challenge as a page and the API show it: rules, leaderboard, the caller's game.

    The seed is given only once the day is over.
    """
    is_open = day_is_open(day=challenge.date)
    mine = daily_player_game(challenge=challenge, player=player)
    return {
        "date": challenge.date.isoformat(),
        "open": is_open,
        "rules": rules_view(row=challenge),
        "seed": None if is_open else str(challenge.seed),
        "my_game": (
            {"id": str(mine.pk), "status": mine.status, "score": mine.score}
            if mine is not None
            else None
        ),
        **daily_leaderboard(challenge=challenge, player=player),
    }


def daily_today_view(*, player: Player | None = None) -> dict[str, Any]:
    """Today's challenge, which needs no row until someone plays it."""
    day = daily_today()
    challenge = daily_challenge_by_date(day=day)
    if challenge is None:
        # Nothing played yet today: the same view with an empty leaderboard,
        # without making the row (a read makes no writes).
        challenge = DailyChallenge(date=day, seed=0, **_original_columns())
    return daily_view(challenge=challenge, player=player)


def _original_columns() -> dict[str, Any]:
    return rules_columns(DEFAULT_RULES)


def daily_days(*, limit: int = 60) -> list[dict[str, Any]]:
    """The past days' challenges, newest first: players, the best score and the bots' best."""
    days = list(DailyChallenge.objects.filter(date__lt=daily_today()).order_by("-date")[:limit])
    if not days:
        return []
    stats: dict[int, dict[str, Any]] = {
        row["daily_id"]: row
        for row in Game.objects.human()
        .finished()
        .filter(daily__in=days)
        .values("daily_id")
        .annotate(players=Count("id"), best_score=Max("score"))
    }
    bots = {
        row["daily_id"]: row["best"]
        for row in Game.objects.bots()
        .filter(daily__in=days)
        .values("daily_id")
        .annotate(best=Max("score"))
    }
    return [
        {
            "date": day.date.isoformat(),
            "players": stats.get(day.pk, {}).get("players", 0),
            "best_score": stats.get(day.pk, {}).get("best_score"),
            "best_bot_score": bots.get(day.pk),
        }
        for day in days
    ]
