"""Uploads that hold far more than they weigh: processor time and peak memory of each.

Builds the hostile uploads of the upload-limit reports in memory (nested zips
of highly compressible files, a workbook of 2,000,000 rows in a zip and on
its own, a file of line breaks, a workbook whose style sheet fills the part
limit, a workbook of 24 sheets of 2 MB of XML naming no dimension, archives
nested deeper than allowed, a zip of many empty entries) and
normal uploads as the baseline (a real save file as CSV, in a zip and typed
into a workbook). Each is POSTed to ``/api/v1/imports/`` through Django's
test client, in a process of its own on a fresh copy of a temporary SQLite
database (``DATABASE_URL`` to use another): the answer, the processor time
of the request's thread, its wall time and the peak memory above the
process's memory just before it (Linux: the peak is reset first through
``/proc/self/clear_refs``).

The analysis an imported game queues is left out (a worker runs it, not the
request). Each child process may use at most ``--memory-cap`` MiB of address
space, so that a case that would need gigabytes fails with MemoryError
instead of exhausting a shared machine.

Targets (``--check``): every case answers within ``TARGET_CPU`` seconds of
processor time and ``TARGET_MEMORY`` MiB above the worker's memory.

Run from the repository root::

    python -m bench.upload_limits [--cases nested,...] [--check]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "fixtures" / "legacy-saves" / "Z10_normal_480.csv"
MIB = 1024 * 1024
TARGET_CPU = 5.0
TARGET_MEMORY = 100.0

# -- building the uploads ------------------------------------------------------------


def zip_of(files: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip archive (deflated, level 9) of ``(name, bytes)`` pairs."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def nested_zips(copies: int = 16, files: int = 24, size: int = 2 * MIB) -> bytes:
    """``copies`` zips, each of ``files`` files of ``size`` zeros, in one zip."""
    inner = zip_of((f"saves/{k}.csv", b"0" * size) for k in range(files))
    return zip_of((f"copy{c}.zip", inner) for c in range(copies))


def deep_zips(depth: int = 8) -> bytes:
    """A save file inside ``depth`` zips, each inside the next."""
    data = zip_of([("save.csv", SAMPLE.read_bytes())])
    for level in range(depth - 1):
        data = zip_of([(f"level{level}.zip", data)])
    return data


def plain_save(size: int) -> bytes:
    """A well-formed save of ``size`` bytes whose boards break the rules (nothing moves)."""
    from bench.legacy_reader import plain

    return plain(size)


def many_saves(files: int = 190, size: int = 256 * 1024) -> bytes:
    """A zip of ``files`` readable saves of ``size`` bytes each, within every size limit."""
    data = plain_save(size)
    return zip_of((f"saves/{k}.csv", data) for k in range(files))


def wide_row_workbook(cells: int = 150_000) -> bytes:
    """A workbook whose one row holds ``cells`` empty cells, naming the columns A to XFD
    over and over (so that the sheet compresses only about 5 times)."""
    from openpyxl.utils import get_column_letter

    columns = [get_column_letter(k).encode() for k in range(1, 16385)]

    def sheet() -> Iterator[bytes]:
        yield (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
               b'<sheetData><row r="1">')
        yield b"".join(b'<c r="%s1"/>' % columns[k % len(columns)] for k in range(cells))
        yield b"</row></sheetData></worksheet>"

    return _rebuilt(workbook_rows([[0]]), {"xl/worksheets/sheet1.xml": sheet})


def long_game() -> bytes:
    """A valid save written by this platform: the second game of ``simulate``'s greedy
    policy at noise budget 4, seed 5 (6,050 moves, 1 MB). It names its seed, so it is
    imported as the exact game: replayed, and stored with every event."""
    from games.engine.legacy import game_to_save
    from games.engine.simulate import make_rules, simulate_games

    games = simulate_games(policy="greedy", games=2, seed=5,
                           rules=make_rules(size=7, budget=4.0), max_moves=12_000)
    *_, last = games
    text = game_to_save(last.game)
    return text.encode() if isinstance(text, str) else text


def many_entries(entries: int = 20_000) -> bytes:
    """A zip of that many empty files (its directory alone fills most of the upload)."""
    return zip_of((f"{k}.csv", b"") for k in range(entries))


def workbook_rows(rows: Iterable[Iterable[object]]) -> bytes:
    """An .xlsx workbook with one sheet holding ``rows``, as openpyxl writes it."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Game"
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def sample_workbook() -> bytes:
    """The sample save typed into a workbook (numbers as numbers, as a spreadsheet holds them)."""
    import csv

    text = SAMPLE.read_bytes().decode("utf-8")
    return workbook_rows(
        [int(v) if v.isdigit() else (v or None) for v in row]
        for row in csv.reader(io.StringIO(text, newline=""))
    )


def _rebuilt(book: bytes, replace: dict[str, Callable[[], Iterator[bytes]]]) -> bytes:
    """``book`` with the parts named in ``replace`` streamed from their generators."""
    source = zipfile.ZipFile(io.BytesIO(book))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for info in source.infolist():
            if info.filename in replace:
                with archive.open(info.filename, "w") as part:
                    for chunk in replace[info.filename]():
                        part.write(chunk)
            else:
                archive.writestr(info.filename, source.read(info))
    return buffer.getvalue()


def huge_workbook(rows: int = 2_000_000) -> bytes:
    """A workbook whose one sheet has ``rows`` rows of two numbers (49 bytes of XML each)."""

    def sheet() -> Iterator[bytes]:
        yield (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
               b"<sheetData>")
        row = b'<row><c t="n"><v>0</v></c><c t="n"><v>0</v></c></row>'
        for start in range(0, rows, 10_000):
            yield row * min(10_000, rows - start)
        yield b"</sheetData></worksheet>"

    return _rebuilt(workbook_rows([[0]]), {"xl/worksheets/sheet1.xml": sheet})


def styles_workbook(size: int = 2 * MIB) -> bytes:
    """The sample workbook with a style sheet of ``size`` bytes of cell formats."""
    book = sample_workbook()
    original = zipfile.ZipFile(io.BytesIO(book)).read("xl/styles.xml")
    xf = b'<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    count = (size - len(original)) // len(xf)

    def styles() -> Iterator[bytes]:
        head, tail = original.split(b"<cellXfs", 1)
        yield head + b'<cellXfs count="%d">' % count + xf * count
        yield tail.split(b">", 1)[1]

    return _rebuilt(book, {"xl/styles.xml": styles})


def many_sheets_workbook(sheets: int = 24, rows: int = 9_000, columns: int = 12) -> bytes:
    """A workbook of ``sheets`` sheets of numbers, about 2 MB of XML each, none naming its
    dimension (opening it made openpyxl parse every sheet before the first was read)."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    relations = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    sheet_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
    book_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
    numbers = range(1, sheets + 1)
    types = "".join(f'<Override PartName="/xl/worksheets/sheet{k}.xml" ContentType="{sheet_type}"/>'
                    for k in numbers)
    parts = [
        ("[Content_Types].xml",
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" '
         'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         f'<Override PartName="/xl/workbook.xml" ContentType="{book_type}"/>{types}</Types>'),
        ("_rels/.rels",
         f'<Relationships xmlns="{package}"><Relationship Id="rId1" Target="xl/workbook.xml" '
         f'Type="{relations}/officeDocument"/></Relationships>'),
        ("xl/workbook.xml",
         f'<workbook xmlns="{main}" xmlns:r="{relations}"><sheets>'
         + "".join(f'<sheet name="S{k}" sheetId="{k}" r:id="rId{k}"/>' for k in numbers)
         + "</sheets></workbook>"),
        ("xl/_rels/workbook.xml.rels",
         f'<Relationships xmlns="{package}">'
         + "".join(f'<Relationship Id="rId{k}" Target="worksheets/sheet{k}.xml" '
                   f'Type="{relations}/worksheet"/>' for k in numbers)
         + "</Relationships>"),
    ]
    for k in numbers:
        # Cells and rows without references (they are optional), a row number and
        # twelve numbers repeating every 101 rows: the parts compress about 40 times,
        # as the reported workbook's did.
        body = "".join(
            f"<row><c><v>{r * k}</v></c>"
            + "".join(f"<c><v>{(1 + r * c) % 101}</v></c>" for c in range(columns))
            + "</row>"
            for r in range(1, rows + 1))
        parts.append((f"xl/worksheets/sheet{k}.xml",
                      f'<worksheet xmlns="{main}"><sheetData>{body}</sheetData></worksheet>'))
    return zip_of((name, text.encode()) for name, text in parts)


# name: (what it is, file name in the upload, builder, baseline?)
CASES: dict[str, tuple[str, str, Callable[[], bytes], bool]] = {
    "save": ("a real save (480 steps, 112 KB)", "save.csv", SAMPLE.read_bytes, True),
    "save-zip": ("the same save in a zip", "save.zip", lambda: zip_of([("save.csv",
                                                                        SAMPLE.read_bytes())]),
                 True),
    "save-xlsx": ("the same save typed into a workbook", "save.xlsx", sample_workbook, True),
    "nested": ("16 zips of 24 files of 2 MiB, in one zip", "bomb.zip", nested_zips, False),
    "nested-200": ("200 zips of 24 files of 2 MiB, in one zip", "bomb.zip",
                   lambda: nested_zips(copies=200), False),
    "xlsx-in-zip": ("a workbook of 2,000,000 rows, in a zip", "bomb.zip",
                    lambda: zip_of([("book.xlsx", huge_workbook())]), False),
    "xlsx": ("a workbook of 2,000,000 rows", "book.xlsx", huge_workbook, False),
    "line-breaks": ("2 MiB of line breaks", "save.csv", lambda: b"\n" * (2 * MIB), False),
    "line-breaks-zip": ("2 MiB of line breaks, in a zip", "saves.zip",
                        lambda: zip_of([("save.csv", b"\n" * (2 * MIB))]), False),
    "styles": ("a workbook with 2 MiB of cell styles", "book.xlsx", styles_workbook, False),
    "wide-row": ("a workbook with a row of 150,000 cells", "book.xlsx", wide_row_workbook,
                 False),
    "wide-row-zip": ("the same workbook, in a zip", "book.zip",
                     lambda: zip_of([("book.xlsx", wide_row_workbook())]), False),
    "long-save": ("a save of 1.5 MB, 98,000 lines (rules broken)", "save.csv",
                  lambda: plain_save(1_500_000), False),
    "many-saves": ("190 saves of 256 KiB in a zip (rules broken)", "saves.zip", many_saves,
                   False),
    "long-game": ("a valid game of 6,050 moves (1 MB, exact)", "game.csv", long_game, False),
    "many-sheets": ("a workbook of 24 sheets of 2 MB of XML", "book.xlsx",
                    many_sheets_workbook, False),
    "deep": ("a save inside 8 zips", "deep.zip", deep_zips, False),
    "entries": ("a zip of 20,000 empty files", "many.zip", many_entries, False),
}

# -- measuring one upload (in a child process) ------------------------------------------


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise LookupError(field)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        return False
    return True


def measure_one(path: Path, upload_name: str) -> dict[str, object]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")
    django.setup()
    import openpyxl  # noqa: F401  (loaded before the measure, as in a worker that has served one)
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from games.signals import game_finished

    game_finished.receivers.clear()  # the analysis runs on a worker, not in the request
    client = Client(HTTP_HOST="127.0.0.1")
    token = client.post("/api/v1/players/", {}, content_type="application/json",
                        secure=True).json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {token}", "secure": True}
    data = path.read_bytes()
    warm = SimpleUploadedFile("warm.csv", b"0\n,,,.,.,.,\n", content_type="text/csv")
    client.post("/api/v1/imports/", {"file": warm}, **auth)  # type: ignore[arg-type]
    upload = SimpleUploadedFile(upload_name, data, content_type="application/octet-stream")
    exact_peak = _reset_peak()
    before = _status_kib("VmRSS")
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        response = client.post("/api/v1/imports/", {"file": upload}, **auth)  # type: ignore[arg-type]
        outcome = _outcome(response.status_code, response.json())
    except MemoryError:
        outcome = "MemoryError (over the address-space cap)"
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    peak = _status_kib("VmHWM")  # since the reset; else the process's whole life (an upper bound)
    return {"bytes": len(data), "cpu": cpu, "wall": wall, "memory": (peak - before) / 1024,
            "outcome": outcome, "exact_peak": exact_peak}


def _outcome(status: int, body: dict) -> str:
    if "error" in body:
        error = body["error"]
        detail = error.get("reason") or ""
        return f"{status} {error['code']}" + (f" ({detail})" if detail else "")
    if "summary" in body and isinstance(body["summary"], dict):
        counts = ", ".join(f"{v} {k}" for k, v in body["summary"].items() if v)
        return f"{status} {counts or 'nothing'}"
    return f"{status} created={body.get('created')}"


# -- the run ----------------------------------------------------------------------------


def _child_env(database: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{database}")
    env.update(DEBUG="0", LOG_LEVEL="CRITICAL", DECODOKU_THROTTLING="0",
               SECRET_KEY=env.get("SECRET_KEY", "bench-only-upload-limits"))
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES),
                        help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds one upload may take before it is stopped (600)")
    parser.add_argument("--memory-cap", type=int, default=2560,
                        help="MiB of address space a child process may use (2560)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--child", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import resource

        cap = args.memory_cap * MIB
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        print(json.dumps(measure_one(Path(args.child[0]), args.child[1])))
        return 0
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = [name for name in names if name not in CASES]
    if unknown:
        parser.error(f"unknown cases: {', '.join(unknown)}")
    failures = []
    with tempfile.TemporaryDirectory(prefix="decodoku-upload-bench-") as tmp:
        work = Path(tmp)
        migrated = work / "migrated.sqlite3"
        env = _child_env(migrated)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        print(f"{'case':44} {'bytes':>9} {'CPU s':>7} {'wall s':>7} {'MiB':>7}  answer")
        baseline_cpu = baseline_memory = 0.0
        for name in names:
            what, upload_name, build, baseline = CASES[name]
            path = work / f"{name}.upload"
            path.write_bytes(build())
            database = work / f"{name}.sqlite3"
            shutil.copy(migrated, database)
            child = [sys.executable, "-m", "bench.upload_limits", "--memory-cap",
                     str(args.memory_cap), "--child", str(path), upload_name]
            try:
                done = subprocess.run(child, cwd=ROOT, env=_child_env(database),
                                      capture_output=True, text=True, timeout=args.timeout,
                                      check=False)
            except subprocess.TimeoutExpired:
                print(f"{what:44} {path.stat().st_size:9} stopped after {args.timeout:g} s")
                failures.append(f"{name}: no answer within {args.timeout:g} s")
                continue
            lines = done.stdout.strip().splitlines()
            if done.returncode or not lines:
                tail = (done.stderr.strip().splitlines() or ["?"])[-1]
                print(f"{what:44} {path.stat().st_size:9} failed: {tail}")
                failures.append(f"{name}: the measuring process failed ({tail})")
                continue
            result = json.loads(lines[-1])
            print(f"{what:44} {result['bytes']:9} {result['cpu']:7.2f} {result['wall']:7.2f} "
                  f"{result['memory']:7.1f}  {result['outcome']}")
            if baseline:
                baseline_cpu = max(baseline_cpu, result["cpu"])
                baseline_memory = max(baseline_memory, result["memory"])
            if result["cpu"] > TARGET_CPU or result["memory"] > TARGET_MEMORY:
                failures.append(f"{name}: {result['cpu']:.2f} CPU s, {result['memory']:.0f} MiB")
            path.unlink()
            database.unlink()
    print(f"\nbaseline (normal uploads): at most {baseline_cpu:.2f} CPU s and "
          f"{baseline_memory:.1f} MiB; targets: {TARGET_CPU:g} CPU s and {TARGET_MEMORY:g} MiB "
          "for every case")
    if failures:
        print("\nmissed targets:\n  " + "\n  ".join(failures))
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
