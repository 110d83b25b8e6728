"""``manage.py import_legacy FILE... [--player-id ID]``: import save files as games.

Each file is read, verified and stored exactly as ``POST /api/v1/imports/``
does (``games.services.legacy.legacy_import``). Without ``--player-id`` the
games belong to a new player made for this import. One line per file; exits
with an error if any file was refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import DomainError
from games.selectors import player_by_id
from games.services import player_create
from games.services.legacy import legacy_import


class Command(BaseCommand):
    help = "Import save files of the original Decodoku apps as recorded games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="save files (CSV)")
        parser.add_argument(
            "--player-id",
            help="the player who owns the imported games (default: a new player)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["player_id"]:
            player = player_by_id(player_id=options["player_id"])
            if player is None:
                raise CommandError(f"no player with id {options['player_id']}")
        else:
            player, _ = player_create(consent_version=None)
            self.stdout.write(f"importing for a new player {player.pk}")
        refused = 0
        for name in options["files"]:
            path = Path(name)
            try:
                data = path.read_bytes()
            except OSError as exc:
                refused += 1
                self.stdout.write(f"{name}: cannot read the file: {exc.strerror or exc}")
                continue
            try:
                result = legacy_import(
                    player=player, filename=path.name, data=data,
                    client_info={"uploaded_via": "import_legacy"},
                )
            except DomainError as exc:
                refused += 1
                where = ", ".join(
                    f"{key} {exc.extra[key]}" for key in ("step", "line")
                    if exc.extra.get(key) is not None
                )
                self.stdout.write(
                    f"{name}: REFUSED ({exc.code}{', ' + where if where else ''}): {exc.message}"
                )
                continue
            verb = "imported as" if result.created else "already imported as"
            self.stdout.write(f"{name}: {verb} game {result.game.pk}: {result.report['summary']}")
        if refused:
            raise CommandError(f"{refused} of {len(options['files'])} files were refused")
