"""``manage.py forget_player``: forget a player on request (docs/players.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import NotFound
from games.services import player_forget


class Command(BaseCommand):
    help = ("Forget a player: remove their token, recovery code, display name and browser "
            "details so that nothing ties their games to them; the games stay under their "
            "pseudonym, unless --delete-games.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("player_id", help="the player's id (a UUID)")
        parser.add_argument("--delete-games", action="store_true",
                            help="also delete the player's games and consent history")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = player_forget(
                player_id=options["player_id"], delete_games=options["delete_games"]
            )
        except NotFound:
            raise CommandError(f"no player {options['player_id']!r}") from None
        if options["delete_games"]:
            self.stdout.write(
                f"deleted player {result.player_id} and {result.games_deleted} games"
            )
        elif result.already_forgotten:
            self.stdout.write(f"player {result.player_id} was already forgotten")
        else:
            self.stdout.write(f"forgot player {result.player_id}; their games stay pseudonymous")
