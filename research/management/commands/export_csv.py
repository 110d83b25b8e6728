"""``manage.py export_csv TABLE [filters] --out FILE [--gzip]``: a research export to a file.

The same tables, filters and bytes as the research area's downloads (COPY on
PostgreSQL, the portable path elsewhere; ``--portable`` forces the latter).
The file is written as ``FILE.partial`` and renamed to FILE only when the
export is complete: FILE never holds a truncated export. If the export fails,
``FILE.partial`` is kept, ending with the ``#EXPORT_FAILED`` line, and the
command exits with an error. ``--codebook PATH`` also writes the codebook (JSON).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.errors import DomainError, InvalidInput
from research import selectors
from research.exports.codebook import codebook
from research.exports.filters import (
    FILTER_HELP,
    FILTER_NAMES,
    INCLUDE_FLAG_HELP,
    INCLUDE_FLAGS,
    InvalidFilter,
)
from research.exports.tables import all_tables
from research.exports.writer import ExportFailed

FLAG_FILTERS = INCLUDE_FLAGS


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


class Command(BaseCommand):
    help = "Export a research data table as CSV (see the codebook for the columns)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", help="one of: " + ", ".join(all_tables()))
        parser.add_argument("--out", required=True, help="the CSV file to write ('-': stdout)")
        parser.add_argument("--gzip", action="store_true", help="gzip the file (.csv.gz)")
        parser.add_argument("--portable", action="store_true",
                            help="do not use PostgreSQL's COPY (for comparison)")
        parser.add_argument("--codebook", metavar="PATH", help="also write the codebook (JSON)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        for name in FILTER_NAMES:
            if name in FLAG_FILTERS:
                parser.add_argument(
                    _option(name), action="store_true", help=INCLUDE_FLAG_HELP[name]
                )
            else:
                parser.add_argument(_option(name), metavar="VALUE", help=FILTER_HELP[name])

    def handle(self, *args: Any, **options: Any) -> None:
        table_name = options["table"]
        try:
            table = selectors.export_table(name=table_name)
        except DomainError as exc:
            raise CommandError(f"TABLE: {exc.message}") from exc
        params = {}
        for name in FILTER_NAMES:
            value = options[name]
            if name in FLAG_FILTERS:
                if value:
                    params[name] = "1"
            elif value is not None:
                params[name] = value
        try:
            filters = selectors.export_filters(table=table, params=params)
            rows = selectors.export_rows(table=table, filters=filters)
            total = rows.count()
            stream = selectors.export_stream(
                table=table, filters=filters, compress=options["gzip"], queryset=rows,
                fast=False if options["portable"] else None,
            )
        except InvalidFilter as exc:
            raise CommandError(f"{_option(exc.field)}: {exc.message.split(': ', 1)[-1]}") from exc
        except InvalidInput as exc:
            raise CommandError(exc.message) from exc
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc

        if options["codebook"]:
            Path(options["codebook"]).write_text(
                json.dumps(codebook(), indent=2, ensure_ascii=False), encoding="utf-8"
            )
        out = options["out"]
        # Counted in lines written, the header row included.
        progress = tqdm(
            total=total + 1, unit=" lines", desc=table.name, file=sys.stderr,
            disable=options["no_progress"],
        )
        try:
            if out == "-":
                self._write(stream, sys.stdout.buffer, progress, compressed=options["gzip"])
            else:
                self._write_file(Path(out), stream, progress, compressed=options["gzip"])
        finally:
            progress.close()
        if out != "-":
            self.stderr.write(f"{table.name}: {total} rows written to {out}")

    def _write_file(self, path: Path, stream: Any, progress: tqdm, *, compressed: bool) -> None:
        partial = path.with_name(path.name + ".partial")
        try:
            with partial.open("wb") as handle:
                self._write(stream, handle, progress, compressed=compressed)
        except ExportFailed as exc:
            raise CommandError(
                f"{exc}; the incomplete file is kept as {partial}, ending with the "
                "#EXPORT_FAILED line"
            ) from exc
        os.replace(partial, path)

    @staticmethod
    def _write(stream: Any, handle: Any, progress: tqdm, *, compressed: bool) -> None:
        for chunk in stream:
            handle.write(chunk)
            if not compressed:
                progress.update(chunk.count(b"\n"))
        if compressed and progress.total is not None:
            progress.update(progress.total - progress.n)
