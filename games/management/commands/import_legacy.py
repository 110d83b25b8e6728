"""``manage.py import_legacy PATH... [--player-id ID]``: import a collection of save files.

PATH may be a save file, a folder (read recursively, in name order), a zip
archive (``__MACOSX/`` and ``._*`` entries skipped) or an Excel workbook
(``.xlsx``/``.xlsm``, one game per sheet, read with openpyxl: values only,
no macro ever run). Each save is read, verified and stored exactly as
``POST /api/v1/imports/`` does (``games.services.legacy``). One line per
file, then ``N imported, M already imported, K not save files, E invalid``
(with ``C comments merged`` after the imported count when some were). A
file already imported (same bytes) is left alone, so importing the same
collection twice adds nothing; a file recording the same game as one
imported before (an explained copy, ``.explain.csv`` beside the plain
``.csv``) has the notes it adds merged into that game. Exits 1 only if
something was invalid or unreadable. Without ``--player-id`` the games
belong to a new player made for this import, only once a file is to be
stored (a run that refuses every file makes none). The files are the
operator's: unlike uploads, they have no time limit (archives are still
bounded, ``games.engine.legacy.collection.ArchiveLimits``).

``--source-name`` and ``--source-url`` name the published collection the
files come from (stored on each game and in the exports);
``--consented-for-research`` marks the games as consented for research, for
a source published for that purpose (the default, as for uploads: the
owning player's consent).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.legacy.collection import collect
from games.engine.legacy.errors import Deadline
from games.models import Player
from games.selectors import player_by_id
from games.services import player_create
from games.services.legacy import ImportSource, import_collection_entry


class Command(BaseCommand):
    help = "Import save files of the original Decodoku apps (files, folders, zips, workbooks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH",
                            help="save files, folders, zip archives or .xlsx/.xlsm workbooks")
        parser.add_argument(
            "--player-id",
            help="the player who owns the imported games (default: a new player)",
        )
        parser.add_argument("--source-name", default="",
                            help="the published collection the files come from")
        parser.add_argument("--source-url", default="", help="where that collection is published")
        parser.add_argument(
            "--consented-for-research", action="store_true",
            help="the source was published for research: the games count as consented",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        owner: Player | None = None
        if options["player_id"]:
            owner = player_by_id(player_id=options["player_id"])
            if owner is None:
                raise CommandError(f"no player with id {options['player_id']}")

        def player() -> Player:
            nonlocal owner
            if owner is None:
                owner, _ = player_create(consent_version=None)
                self.stdout.write(f"importing for a new player {owner.pk}")
            return owner

        source = None
        if options["source_name"] or options["source_url"]:
            source = ImportSource(options["source_name"], options["source_url"],
                                  options["consented_for_research"])
        elif options["consented_for_research"]:
            raise CommandError("--consented-for-research needs --source-name: which source?")
        if options["source_url"] and not options["source_url"].startswith(("http://",
                                                                          "https://")):
            raise CommandError("--source-url must be an http:// or https:// address")
        counts: Counter[str] = Counter()
        for entry in collect(options["paths"]):
            outcome = import_collection_entry(
                entry=entry, player=player, client_info={"uploaded_via": "import_legacy"},
                source=source, deadline=Deadline(),  # files of the operator's: no time limit
            )
            counts[outcome.kind] += 1
            self.stdout.write(f"{outcome.name}: {outcome.message}")
        merged = (f"{counts['comments_merged']} comments merged, "
                  if counts["comments_merged"] else "")
        summary = (
            f"{counts['imported']} imported, {merged}{counts['already_imported']} already "
            f"imported, {counts['not_save']} not save files, {counts['invalid']} invalid"
        )
        self.stdout.write(summary)
        if counts["invalid"]:
            raise CommandError(summary)
