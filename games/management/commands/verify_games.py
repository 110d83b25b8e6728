"""``manage.py verify_games [--game ID ...] [--source S] [--since DATE]``: replay stored games.

Every selected game is replayed through the engine and compared with what is
stored (events, boards, state, score); uploaded save files are checked with
the legacy verifier (see ``games.verification``). Prints each game that does
not match with its problems, then a summary; exits with an error if any game
does not match.
"""

from __future__ import annotations

import uuid
from datetime import datetime, time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from games.models import Game
from games.verification import games_to_verify, games_verify


def _since(text: str) -> datetime:
    moment = parse_datetime(text)
    if moment is None:
        day = parse_date(text)
        if day is None:
            raise CommandError(f"--since: {text!r} is not a date (YYYY-MM-DD) or date-time")
        moment = datetime.combine(day, time.min)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_default_timezone())
    return moment


def _game_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise CommandError(f"--game: {text!r} is not a game id") from None


class Command(BaseCommand):
    help = "Replay stored games through the engine and report any that do not match."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", action="append", default=[], metavar="ID", help="only this game (repeatable)"
        )
        parser.add_argument("--source", choices=Game.Source.values, help="only games of a source")
        parser.add_argument("--since", help="only games started on or after this date")

    def handle(self, *args: Any, **options: Any) -> None:
        game_ids = [_game_id(text) for text in options["game"]] or None
        since = _since(options["since"]) if options["since"] else None
        games = games_to_verify(game_ids=game_ids, source=options["source"], since=since)
        if game_ids is not None:
            found = set(games.values_list("id", flat=True))
            for missing in sorted(set(game_ids) - found, key=str):
                self.stdout.write(f"game {missing}: no such game")
        checked = failed = events = 0
        for check in games_verify(games=games.iterator(chunk_size=200)):
            checked += 1
            events += check.events_checked
            if check.ok:
                continue
            failed += 1
            self.stdout.write(f"game {check.game_id} ({check.source}): DOES NOT MATCH")
            for problem in check.problems:
                self.stdout.write(f"  - {problem}")
        self.stdout.write(
            f"{checked} games checked ({events} events): {checked - failed} match, {failed} do not"
        )
        if failed or (game_ids is not None and checked < len(set(game_ids))):
            raise CommandError(f"{failed} of {checked} games do not match the rules")
