"""``manage.py decodoku_puzzle``: the Decodoku puzzles from the command line.

``solve --grid CELLS`` reads a board of the Decodoku puzzles (64 characters,
row-major; the two corners may be digits or ``?`` and are hidden either way)
and prints one JSON line: ``{"corner": c, "links": n, "optimal": true,
"ties": [...]}``, the fewest links of any explanation, the top-left value it
gives (the smallest when several tie) and the other top-left values that are
as cheap. ``list`` prints the shipped published puzzles, one JSON line per
distinct grid, with its ``number`` (the first published number), every
published ``numbers`` of the grid, and the ``grid`` as published.
``generate --seed S --rate P [--size N] [--count K]`` prints generated
puzzles with their true corners. ``load`` stores the published puzzles as
puzzle rows of the site (idempotent); ``bots`` runs the decoder bots on every
attempted puzzle they have not decoded yet; ``compare`` runs every bot on
every published grid (no database) and prints one JSON line per grid and a
summary. See docs/decodoku-puzzles.md.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from puzzles.engines.decodoku import SIZE, DecodokuError, parse_grid, solve
from puzzles.engines.decodoku.bots import BOTS
from puzzles.engines.decodoku.generate import MAX_GENERATED_SIZE, generate
from puzzles.engines.decodoku.published import published_puzzles
from puzzles.services import decodoku_bots_pending, decodoku_bots_run, decodoku_published_load

MAX_COUNT = 10_000


class Command(BaseCommand):
    help = (
        "Solve a Decodoku puzzle exactly (fewest links, top-left corner), list the published "
        "puzzles, or generate puzzles from a seed."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        solver = sub.add_parser("solve", help="the fewest links, the top-left value and its ties")
        solver.add_argument(
            "--grid",
            required=True,
            help="64 characters, row-major: digits, the two corners digits or ? (hidden)",
        )
        sub.add_parser("list", help="the published puzzles as JSON lines")
        maker = sub.add_parser("generate", help="generated puzzles with their true corners")
        maker.add_argument("--seed", type=int, required=True, help="seed of the first puzzle")
        maker.add_argument(
            "--rate", type=float, required=True, help="probability of an error per link"
        )
        maker.add_argument(
            "--size", type=int, default=SIZE, help=f"board side, 3 to {MAX_GENERATED_SIZE}"
        )
        maker.add_argument("--count", type=int, default=1, help="how many (seeds S, S+1, ...)")
        sub.add_parser("load", help="store the published puzzles as puzzle rows (idempotent)")
        bots = sub.add_parser(
            "bots", help="run the decoder bots on attempted puzzles not yet decoded"
        )
        bots.add_argument(
            "--all",
            action="store_true",
            dest="every",
            help="every stored puzzle, attempted or not (e.g. after load)",
        )
        sub.add_parser("compare", help="every bot on every published grid, as JSON lines")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "solve":
            try:
                board = parse_grid(options["grid"])
            except DecodokuError as exc:
                raise CommandError(f"--grid: {exc}") from None
            self.stdout.write(json.dumps(solve(board).as_dict()))
        elif action == "list":
            for puzzle in published_puzzles():
                line = {
                    "number": puzzle.number,
                    "numbers": list(puzzle.numbers),
                    "grid": puzzle.grid,
                }
                self.stdout.write(json.dumps(line))
        elif action == "load":
            created, existing = decodoku_published_load()
            self.stdout.write(json.dumps({"created": created, "existing": existing}))
        elif action == "bots":
            pending = decodoku_bots_pending(every=options["every"])
            answers = sum(decodoku_bots_run(puzzle_id=puzzle_id) for puzzle_id in pending)
            self.stdout.write(json.dumps({"puzzles": len(pending), "answers": answers}))
        elif action == "compare":
            self._compare()
        else:
            self._generate(options)

    def _compare(self) -> None:
        totals: dict[str, dict[str, int]] = {
            name: {"links": 0, "published_corner": 0, "fewest_links": 0} for name in BOTS
        }
        puzzles = published_puzzles()
        for puzzle in puzzles:
            board = puzzle.board()
            answers = {name: bot(board) for name, bot in BOTS.items()}
            minimum = len(answers["exact"].links)
            published = board.corners[0] if board.corners is not None else None
            line: dict[str, Any] = {"number": puzzle.number, "published_corner": published}
            for name, answer in answers.items():
                line[name] = {"corner": answer.corner, "links": len(answer.links)}
                totals[name]["links"] += len(answer.links)
                totals[name]["published_corner"] += answer.corner == published
                totals[name]["fewest_links"] += len(answer.links) == minimum
            line["exact"]["ties"] = list(answers["exact"].ties)
            self.stdout.write(json.dumps(line))
        summary = {
            name: {
                "mean_links": round(total["links"] / len(puzzles), 2),
                "published_corner": total["published_corner"],
                "fewest_links": total["fewest_links"],
            }
            for name, total in totals.items()
        }
        self.stdout.write(json.dumps({"grids": len(puzzles), "summary": summary}))

    def _generate(self, options: dict[str, Any]) -> None:
        count = options["count"]
        if not 1 <= count <= MAX_COUNT:
            raise CommandError(f"--count: 1 to {MAX_COUNT} puzzles, not {count}")
        seed = options["seed"]
        for offset in range(count):
            try:
                made = generate(seed=seed + offset, rate=options["rate"], size=options["size"])
            except DecodokuError as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(json.dumps(made.as_dict()))
