"""``manage.py puzzle generate|solve``: make logic puzzles, or solve those in a file.

``generate KIND --size N [--difficulty D] [--seed S] [--count K] [--engine-version V]`` prints
one JSON object per line. ``solve FILE`` reads such lines (the solution is
optional; ``-`` reads standard input) and prints, per puzzle, the solution
count and the technique trace; a malformed puzzle stops it with an error
that names the file and the line. See docs/puzzles.md.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from puzzles.cli import PuzzleFileError, generate_puzzles, solve_lines
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import KINDS


class Command(BaseCommand):
    help = "Generate KenKen/Futoshiki/2mino puzzles as JSON lines, or solve the puzzles of a file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        gen = sub.add_parser("generate", help="print generated puzzles, one JSON per line")
        gen.add_argument("kind", choices=sorted(KINDS))
        gen.add_argument("--size", type=int, default=None, help="grid size N")
        gen.add_argument(
            "--difficulty",
            default=None,
            help=(
                "KenKen (kenken, kenken-multiply): easy, normal, hard, extreme or "
                "unreasonable; Futoshiki (futoshiki, futoshiki-adjacent): trivial, easy, "
                "tricky, extreme or recursive (the levels of Keen and Unequal; medium and "
                "expert are accepted for both); 2mino: normal or unique"
            ),
        )
        gen.add_argument(
            "--engine-version",
            type=int,
            default=None,
            help="regenerate the puzzles of an earlier engine version (default: the current one)",
        )
        gen.add_argument("--seed", type=int, default=None, help="seed of the first puzzle")
        gen.add_argument("--count", type=int, default=1, help="how many (seeds S, S+1, ...)")
        solve = sub.add_parser("solve", help="count solutions and print the technique trace")
        solve.add_argument("file", help="a file of puzzle JSON lines, or - for standard input")
        solve.add_argument("--no-trace", action="store_true", help="leave the trace out")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "generate":
            self._generate(options)
        else:
            self._solve(options)

    def _generate(self, options: dict[str, Any]) -> None:
        try:
            for data in generate_puzzles(
                kind=options["kind"],
                size=options["size"],
                difficulty=options["difficulty"],
                seed=options["seed"],
                count=options["count"],
                engine_version=options["engine_version"],
            ):
                self.stdout.write(json.dumps(data, separators=(", ", ": ")))
        except PuzzleError as exc:
            raise CommandError(str(exc)) from None

    def _solve(self, options: dict[str, Any]) -> None:
        path = options["file"]
        try:
            if path == "-":
                self._solve_lines(sys.stdin, "standard input", options["no_trace"])
                return
            with open(path, encoding="utf-8") as handle:
                self._solve_lines(handle, path, options["no_trace"])
        except OSError as exc:
            raise CommandError(f"{path}: cannot be read ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path}: not UTF-8 text") from None
        except PuzzleFileError as exc:
            raise CommandError(str(exc)) from None

    def _solve_lines(self, lines: Any, source: str, no_trace: bool) -> None:
        for result in solve_lines(lines, source=source):
            if no_trace:
                result.pop("trace", None)
            self.stdout.write(json.dumps(result, separators=(", ", ": ")))
