"""Our puzzle levels against the graders of Simon Tatham's Portable Puzzle Collection.

For each kind, size and level, ``--count`` puzzles are generated with the
project's generator (``get_kind(kind).generate(size=, seed=, difficulty=)``;
seeds from ``--first-seed`` up, a seed whose request fails is skipped, at most
three times ``--count`` seeds), written as the peer's game ID
(:mod:`bench.peer_format`) and graded by the peer's standalone solver:
Keen for KenKen, Unequal for Futoshiki, Dominosa for 2mino. The table gives,
per kind and size, how many puzzles of each of our levels got each peer level,
the share whose level has the same name on both sides (``agree``) and the
mean rank of the peer's level (1 = its easiest). A second table counts, for
each technique our grader used on a puzzle, the peer levels of those puzzles:
it shows which of our techniques the peer's ladder lacks or places higher.

The peer must also find exactly one solution, the one we stored: a KenKen or
Futoshiki the peer calls ambiguous or impossible, or solves differently, is
printed as a DISAGREEMENT line on stderr and makes the exit status 1.

2mino is different: Dominosa has no hints, so the peer sees only the numbers
of our board (our locked bars left out) and usually cannot tile it. Three
tables are printed: our level as generated against the peer's grade of the
bare numbers; both graders (our ``twomino.grade`` without the locked bars) on
those bare numbers; and both graders on bare numbers that have exactly one
tiling, found by scanning up to ``--bare-scan`` plain boards. A bare board the
peer tiles must have exactly one tiling by our solver too, or it is a
DISAGREEMENT.

Every peer call has a ``--timeout``; a missing peer binary stops the script
with status 2. ``--jsonl`` keeps one line per puzzle, and ``--from-jsonl``
prints the tables of such a file again without running anything. Pure Python
and subprocesses, no database. Run from the repository root::

    python -m bench.peer_grades [--kinds kenken,futoshiki,2mino] [--sizes 4,6,9]
        [--twomino-sizes 4,6,8] [--count 20] [--first-seed 0] [--timeout 60]
        [--bare-scan 20000] [--keen PATH] [--unequal PATH] [--dominosa PATH]
        [--jsonl FILE] [--from-jsonl FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.peer_format import (
    AMBIGUOUS,
    DOMINOSA_LEVELS,
    IMPOSSIBLE,
    KEEN_LEVELS,
    STUCK,
    UNEQUAL_LEVELS,
    PeerResult,
    dominosa_id,
    keen_id,
    parse_dominosa,
    parse_keen_grade,
    parse_keen_solution,
    parse_unequal,
    unequal_id,
)
from puzzles.engines import grading, twomino
from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind

PEER_BIN = Path("/work/tatham/bin")
TIMEOUT = "timeout"
# Verdicts other than a level, per kind: Keen and Unequal search, so they can say
# a puzzle has several solutions; Dominosa never guesses and says it is stuck.
OUTCOMES = {
    "kenken": (AMBIGUOUS, IMPOSSIBLE, TIMEOUT),
    "futoshiki": (AMBIGUOUS, IMPOSSIBLE, TIMEOUT),
    "2mino": (STUCK, IMPOSSIBLE, TIMEOUT),
}
PEER_LEVELS = {"kenken": KEEN_LEVELS, "futoshiki": UNEQUAL_LEVELS, "2mino": DOMINOSA_LEVELS}
OUR_LEVELS: dict[str, tuple[str, ...]] = {
    "kenken": grading.KENKEN_LEVELS,
    "futoshiki": grading.FUTOSHIKI_LEVELS,
    # The levels a 2mino board can be asked for; ``recursive`` is only graded.
    "2mino": ("trivial", "basic", "hard"),
}
TOOL = {"kenken": "keen", "futoshiki": "unequal", "2mino": "dominosa"}


@dataclass
class Row:
    """One puzzle: our level (as asked and as graded), the peer's, and what went wrong."""

    kind: str
    size: int
    seed: int
    asked: str
    ours: str
    hardest: str
    peer: str
    game_id: str
    peer_seconds: float
    problems: list[str] = field(default_factory=list)
    # Every technique our grader used, with its count (several per puzzle).
    techniques: dict[str, int] = field(default_factory=dict)
    # 2mino only: the bare numbers graded by us and by the peer, and their tilings.
    bare_ours: str = ""
    bare_tilings: int = 0


class PeerError(RuntimeError):
    """The peer solver failed: refused the game ID or printed nothing we understand."""


def run_peer(binary: Path, *args: str, timeout: float) -> str | None:
    """The solver's stdout, or None when it ran out of time."""
    try:
        done = subprocess.run(
            [str(binary), *args], capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise PeerError(f"{binary.name} {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return done.stdout


def grade_latin(kind: str, made: Any, binary: Path, timeout: float) -> Row:
    puzzle = made.puzzle
    ours = grading.grade(puzzle)
    problems: list[str] = []
    started = time.perf_counter()
    if kind == "kenken":
        game_id = keen_id(puzzle)
        text = run_peer(binary, "-g", game_id, timeout=timeout)
        result: PeerResult | None = None if text is None else parse_keen_grade(text)
        if result is not None and result.unique:
            solved = run_peer(binary, game_id, timeout=timeout)
            grid = None if solved is None else parse_keen_solution(solved, puzzle.size)
            result = replace(result, solution=grid)
    else:
        game_id = unequal_id(puzzle)
        text = run_peer(binary, game_id, timeout=timeout)
        result = None if text is None else parse_unequal(text, puzzle.size)
    seconds = time.perf_counter() - started
    peer = TIMEOUT if result is None else result.level
    if result is not None and not result.unique:
        problems.append(
            f"the peer finds {'no' if peer == IMPOSSIBLE else 'more than one'} solution"
        )
    elif result is not None and result.solution != made.solution:
        problems.append(f"the peer's solution {result.solution} is not ours {made.solution}")
    return Row(
        kind,
        puzzle.size,
        made.seed,
        "",
        ours.label,
        ours.hardest,
        peer,
        game_id,
        seconds,
        problems,
        techniques=dict(ours.techniques),
    )


def grade_twomino(puzzle: twomino.Puzzle, binary: Path, timeout: float) -> Row:
    ours = twomino.grade(puzzle)
    bare = replace(puzzle, locked=frozenset())
    bare_ours = twomino.grade(bare)
    tilings = twomino.count_solutions(bare, limit=2)
    game_id = dominosa_id(puzzle)
    started = time.perf_counter()
    graded = run_peer(binary, "-g", game_id, timeout=timeout)
    solved = run_peer(binary, game_id, timeout=timeout)
    seconds = time.perf_counter() - started
    timed_out = graded is None or solved is None
    peer = TIMEOUT if timed_out else parse_dominosa(graded or "", solved or "").level
    problems = []
    if peer in DOMINOSA_LEVELS and tilings != 1:
        problems.append(f"the peer tiles the bare board, our solver finds {tilings} tilings")
    if peer == IMPOSSIBLE:
        problems.append("the peer finds no tiling of the bare board")
    return Row(
        "2mino",
        puzzle.size,
        puzzle.seed or 0,
        "",
        ours.label,
        ours.hardest,
        peer,
        game_id,
        seconds,
        problems,
        bare_ours=bare_ours.label,
        bare_tilings=tilings,
    )


def measure(
    kind: str, size: int, level: str, *, count: int, first_seed: int, binary: Path, timeout: float
) -> tuple[list[Row], int]:
    """Rows for ``count`` puzzles of one level, and how many seeds gave no puzzle."""
    generate = get_kind(kind).generate
    rows: list[Row] = []
    failed = 0
    seed = first_seed
    while len(rows) < count and seed < first_seed + 3 * count:
        try:
            made = generate(size=size, seed=seed, difficulty=level)
        except PuzzleError:
            failed += 1
            seed += 1
            continue
        if kind == "2mino":
            row = grade_twomino(made.puzzle, binary, timeout)
        else:
            row = grade_latin(kind, made, binary, timeout)
        row.asked = level
        for problem in row.problems:
            print(
                f"DISAGREEMENT {kind} {size} seed {seed} ({level}): {problem}; "
                f"game ID {row.game_id}",
                file=sys.stderr,
                flush=True,
            )
        rows.append(row)
        seed += 1
    return rows, failed


def unique_bare_boards(
    size: int, *, count: int, first_seed: int, scan: int, binary: Path, timeout: float
) -> tuple[list[Row], int]:
    """Rows for up to ``count`` boards whose numbers alone have one tiling.

    Such boards are rare among our shuffles (about 2 in 100 at N = 4, 1 in 100
    at N = 6), so ``scan`` seeds of plain boards are looked at, their locked bars
    dropped; they are the boards on which the two graders can be compared.
    """
    rows: list[Row] = []
    for seed in range(first_seed, first_seed + scan):
        board = replace(twomino.generate(size=size, seed=seed), locked=frozenset())
        if twomino.count_solutions(board, limit=2) != 1:
            continue
        row = grade_twomino(board, binary, timeout)
        row.asked = "bare"
        for problem in row.problems:
            print(
                f"DISAGREEMENT 2mino {size} bare board of seed {seed}: {problem}; "
                f"game ID {row.game_id}",
                file=sys.stderr,
                flush=True,
            )
        rows.append(row)
        if len(rows) == count:
            return rows, seed - first_seed + 1
    return rows, scan


def table(
    title: str,
    rows: list[Row],
    *,
    kind: str,
    ours_of: str,
    our_levels: tuple[str, ...],
    peer_levels: tuple[str, ...],
    failed: dict[str, int] | None = None,
    agree_column: bool = True,
) -> list[str]:
    """Our level (rows) x the peer's (columns): counts, agreement and mean peer rank.

    ``ours_of`` names the Row field that gives our side (a level, or the hardest
    technique, where ``agree_column=False`` since no name is shared)."""
    columns = [*peer_levels, *OUTCOMES[kind]]
    widths = [max(6, len(c) + 1) for c in columns]
    lines = [
        title,
        f"  {'ours':<18}"
        + "".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True))
        + f"{'n':>5}{'agree' if agree_column else '':>7}{'mean':>6}"
        + ("  no puzzle" if failed is not None else ""),
    ]
    levels = [lv for lv in our_levels if any(getattr(r, ours_of) == lv for r in rows)]
    if failed is not None:
        levels = list(our_levels)
    for level in levels:
        mine = [r for r in rows if getattr(r, ours_of) == level]
        counts = Counter(r.peer for r in mine)
        agree = sum(1 for r in mine if r.peer.lower() == level.lower())
        ranks = [peer_levels.index(r.peer) + 1 for r in mine if r.peer in peer_levels]
        mean = f"{sum(ranks) / len(ranks):6.2f}" if ranks else f"{'-':>6}"
        share = f"{agree / len(mine):7.0%}" if mine and agree_column else f"{'-':>7}"
        line = (
            f"  {level:<18}"
            + "".join(
                f"{counts.get(c, 0) or '.':>{w}}" for c, w in zip(columns, widths, strict=True)
            )
            + f"{len(mine):>5}{share}{mean}"
        )
        if failed is not None:
            line += f"  {failed.get(level, 0):>9}"
        lines.append(line)
    total = len(rows)
    agree_all = sum(1 for r in rows if r.peer.lower() == getattr(r, ours_of).lower())
    if total and agree_column:
        lines.append(f"  all: {total} puzzles, same level name {agree_all / total:.0%}")
    return lines


def report(
    kind: str,
    size: int,
    rows: list[Row],
    *,
    failed: dict[str, int] | None = None,
    scanned: str = "",
) -> list[str]:
    """The tables of one kind and size. ``rows`` holds the puzzles of our levels and,
    for 2mino, the scanned bare boards (``asked == "bare"``); ``failed`` counts the
    seeds that gave no puzzle (unknown when the rows are read back from a file)."""
    levelled = [r for r in rows if r.asked != "bare"]
    if kind != "2mino":
        return [
            *table(
                f"{kind} {size}x{size}",
                levelled,
                kind=kind,
                ours_of="asked",
                our_levels=OUR_LEVELS[kind],
                peer_levels=PEER_LEVELS[kind],
                failed=failed,
            ),
            *table(
                "  the same puzzles by each technique our grader used on them "
                "(a puzzle counts once per technique)",
                [replace(r, hardest=t) for r in levelled for t in r.techniques],
                kind=kind,
                ours_of="hardest",
                our_levels=grading.TECHNIQUE_NAMES,
                peer_levels=PEER_LEVELS[kind],
                agree_column=False,
            ),
        ]
    bare = [r for r in rows if r.asked == "bare"]
    unique = sum(r.bare_tilings == 1 for r in levelled)
    return [
        *table(
            f"2mino N={size} (peer n={size - 1}), as generated: the peer sees no locked bars",
            levelled,
            kind=kind,
            ours_of="asked",
            our_levels=OUR_LEVELS[kind],
            peer_levels=PEER_LEVELS[kind],
            failed=failed,
        ),
        *table(
            f"2mino N={size}, the same bare numbers graded by both "
            f"({unique} of {len(levelled)} have one tiling)",
            levelled,
            kind=kind,
            ours_of="bare_ours",
            our_levels=twomino.GRADE_LEVELS,
            peer_levels=PEER_LEVELS[kind],
        ),
        *table(
            f"2mino N={size}, bare numbers with exactly one tiling ({len(bare)} found"
            f"{scanned}), graded by both",
            bare,
            kind=kind,
            ours_of="bare_ours",
            our_levels=twomino.GRADE_LEVELS,
            peer_levels=PEER_LEVELS[kind],
        ),
    ]


def reprint(path: Path) -> int:
    """The tables of a run saved with ``--jsonl``, without running anything."""
    groups: dict[tuple[str, int], list[Row]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = Row(**json.loads(line))
        groups.setdefault((row.kind, row.size), []).append(row)
    problems = 0
    for (kind, size), rows in groups.items():
        print("\n".join(report(kind, size, rows)))
        problems += sum(len(r.problems) for r in rows)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default="kenken,futoshiki,2mino")
    parser.add_argument("--sizes", default="4,6,9", help="KenKen and Futoshiki sizes")
    parser.add_argument("--twomino-sizes", default="4,6,8", help="2mino sizes N (peer n = N - 1)")
    parser.add_argument(
        "--bare-scan", type=int, default=20000, help="2mino: plain boards to scan for unique ones"
    )
    parser.add_argument("--levels", default="", help="only these of our levels (default: all)")
    parser.add_argument("--count", type=int, default=20, help="puzzles per kind, size and level")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per peer call")
    parser.add_argument("--keen", type=Path, default=PEER_BIN / "keensolver")
    parser.add_argument("--unequal", type=Path, default=PEER_BIN / "unequalsolver")
    parser.add_argument("--dominosa", type=Path, default=PEER_BIN / "dominosasolver")
    parser.add_argument("--jsonl", type=Path, help="also write one JSON line per puzzle here")
    parser.add_argument(
        "--from-jsonl", type=Path, help="print the tables of a saved run and run nothing"
    )
    args = parser.parse_args(argv)
    if args.from_jsonl:
        return reprint(args.from_jsonl)

    kinds = [k for k in args.kinds.split(",") if k]
    for kind in kinds:
        if kind not in TOOL:
            parser.error(f"unknown kind {kind!r} (one of {', '.join(TOOL)})")
    binaries = {kind: Path(getattr(args, TOOL[kind])) for kind in kinds}
    missing = [f"--{TOOL[k]} {p}" for k, p in binaries.items() if not p.is_file()]
    if missing:
        print(
            "peer solver not found: " + ", ".join(missing) + ". Build it from Simon Tatham's "
            "puzzles sources with -DSTANDALONE_SOLVER (see docs/puzzles.md, "
            '"Against the peer\'s grader") or pass its path.',
            file=sys.stderr,
        )
        return 2
    only = {lv for lv in args.levels.split(",") if lv}
    out = args.jsonl.open("w", encoding="utf-8") if args.jsonl else None
    problems = 0
    try:
        for kind in kinds:
            sizes = args.twomino_sizes if kind == "2mino" else args.sizes
            for size in (int(s) for s in sizes.split(",") if s):
                rows: list[Row] = []
                failed: dict[str, int] = {}
                scanned = ""
                started = time.process_time()
                for level in OUR_LEVELS[kind]:
                    if only and level not in only:
                        continue
                    got, failed[level] = measure(
                        kind,
                        size,
                        level,
                        count=args.count,
                        first_seed=args.first_seed,
                        binary=binaries[kind],
                        timeout=args.timeout,
                    )
                    rows += got
                if kind == "2mino":
                    found, looked_at = unique_bare_boards(
                        size,
                        count=args.count,
                        first_seed=args.first_seed,
                        scan=args.bare_scan,
                        binary=binaries[kind],
                        timeout=args.timeout,
                    )
                    rows += found
                    scanned = f" in {looked_at} plain boards of seeds from {args.first_seed}"
                for row in rows:
                    problems += len(row.problems)
                    if out is not None:
                        out.write(json.dumps(asdict(row)) + "\n")
                lines = report(kind, size, rows, failed=failed, scanned=scanned)
                peer_time = sum(r.peer_seconds for r in rows)
                lines.append(
                    f"  (generation and our grading {time.process_time() - started:.1f} CPU s, "
                    f"peer calls {peer_time:.1f} s wall)"
                )
                print("\n".join(lines), flush=True)
    finally:
        if out is not None:
            out.close()
    if problems:
        print(f"{problems} DISAGREEMENT(S) about the solution, see above", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
