"""``manage.py check_save FILE...``: check save files of the original Decodoku apps.

PATH may be a file, a folder (recursively), a zip archive or a workbook
(``games.engine.legacy.collection``). One line per file: ``ok`` with the
score, ``partially observed`` for Phi-Lambda records (their values are
hidden), ``groups observed`` for Colors records, ``not a save file`` for a
note, or ``INVALID at step t (line n)``
with the first rule broken. Exits with an error if any file is invalid or
cannot be read.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.engine.legacy.check import check_paths


class Command(BaseCommand):
    help = "Read and verify legacy Decodoku save files (CSV), one verdict per file."

    def add_arguments(self, parser):
        parser.add_argument(
            "files", nargs="+", metavar="PATH",
            help="save files, folders, zip archives or .xlsx/.xlsm workbooks to check",
        )
        parser.add_argument(
            "--moves-per-round", type=int, default=None,
            help="moves between two noise rounds (default: as declared in the file's header "
            "when the platform wrote it, else 5 as in the original apps)",
        )
        parser.add_argument(
            "--noise-budget", type=float, default=None,
            help="noise weight per round (default: as declared in the file's header when the "
            "platform wrote it, else 6 as in the original apps)",
        )

    def handle(self, *args, **options):
        per_round = options["moves_per_round"]
        if per_round is not None and per_round < 1:
            raise CommandError("--moves-per-round must be at least 1")
        budget = options["noise_budget"]
        if budget is not None and not 0 < budget <= 100:
            raise CommandError("--noise-budget must be above 0 and at most 100")
        failed = []
        total = 0
        for result in check_paths(options["files"], moves_per_round=per_round,
                                  noise_budget=budget):
            total += 1
            self.stdout.write(result.line())
            if not result.ok:
                failed.append(result.path)
        if failed:
            raise CommandError(
                f"{len(failed)} of {total} file{'s' if total != 1 else ''} invalid or unreadable: "
                + ", ".join(failed)
            )
