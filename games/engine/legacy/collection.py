"""Walking a collection of save files: folders, zip archives, Excel workbooks, notes.

The original project published its players' results as a folder of files:
save files, zip archives of save files, workbooks whose sheets hold the same
grid, and text notes. ``collect`` turns paths into ``Entry`` items, one per
save file found (a sheet of a workbook counts as one), each with the bytes
to read and a name saying where it came from (``archive.zip/inner.csv``,
``book.xlsx[Sheet1]``). Nothing here runs a macro or follows a link:
workbooks are read with openpyxl, read-only and values only.

Archives are bounded (``ArchiveLimits``): the number of entries, the size of
each unpacked entry and of all of them together, so a zip bomb is refused
before it is unpacked. Pure Python, no Django.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .errors import LegacyFormatError

SAVE_SUFFIXES = (".csv", ".txt")
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
ARCHIVE_SUFFIXES = (".zip",)
_LINK = re.compile(r"https?://\S+")


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """How much one archive may unpack to."""

    max_entries: int = 2000
    max_entry_bytes: int = 2 * 1024 * 1024
    max_total_bytes: int = 200 * 1024 * 1024


class ArchiveRefused(LegacyFormatError):
    """An archive that is unreadable or would unpack beyond the limits."""

    code = "archive_refused"


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing found in a collection: a file's bytes, or why it cannot be read.

    ``kind`` is ``"save"`` (bytes to read as a save file), ``"not_save"``
    (``note`` says what it is instead) or ``"unreadable"`` (``note`` says why).
    """

    name: str
    kind: str
    data: bytes = b""
    note: str = ""


def _skipped(name: str) -> bool:
    """Entries that archives made on a Mac add: resource forks and folder metadata."""
    parts = PurePosixPath(name).parts
    return any(part == "__MACOSX" for part in parts) or PurePosixPath(name).name.startswith("._")


def describe_note(text: str) -> str:
    """What a file that holds no board is, in a few words (for "not a save file")."""
    links = _LINK.findall(text)
    lines = [line for line in text.splitlines() if line.strip(" ,\t")]
    if not lines:
        return "an empty file"
    what = "a note with links" if links else "a text note"
    detail = f"{len(lines)} line{'s' if len(lines) != 1 else ''}"
    if links:
        detail += f", {len(links)} link{'s' if len(links) != 1 else ''}: {links[0][:80]}"
    return f"{what} ({detail})"


def may_be_note(name: str) -> bool:
    """Is a file of this name a note when it holds no board? (a ``.csv`` is a broken save)"""
    return not name.lower().endswith(".csv")


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    if any(char in text for char in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def workbook_sheets(data: bytes, name: str) -> Iterator[Entry]:
    """Each sheet of an .xlsx/.xlsm workbook as CSV text (values only, no macro run)."""
    try:
        from openpyxl import load_workbook
    except ImportError:  # pragma: no cover - openpyxl is a runtime requirement
        yield Entry(name, "unreadable", note="reading workbooks needs openpyxl")
        return
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_vba=False)
    except Exception as exc:  # any broken workbook: say so, never crash
        yield Entry(name, "unreadable", note=f"not a readable workbook: {exc}")
        return
    try:
        for sheet in book.worksheets:
            lines = []
            for row in sheet.iter_rows(values_only=True):
                cells = [_cell_text(value) for value in row]
                while cells and cells[-1] == "":
                    cells.pop()
                lines.append(",".join(cells))
            while lines and not lines[-1]:
                lines.pop()
            text = "\n".join(lines) + "\n" if lines else ""
            yield Entry(f"{name}[{sheet.title}]", "save", text.encode("utf-8"))
    finally:
        book.close()


def archive_entries(data: bytes, name: str, limits: ArchiveLimits) -> list[Entry]:
    """The files of a zip archive, checked against ``limits`` before anything is unpacked.

    Raises ``ArchiveRefused`` for an unreadable archive or one beyond the
    limits (declared sizes are checked first, then what is actually read).
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveRefused(f"{name}: not a readable zip archive ({exc})",
                             code="archive_refused") from exc
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir() and not _skipped(i.filename)]
        if len(infos) > limits.max_entries:
            raise ArchiveRefused(
                f"{name}: {len(infos)} files in the archive; at most {limits.max_entries} are "
                "accepted", code="archive_refused",
            )
        declared = sum(i.file_size for i in infos)
        if declared > limits.max_total_bytes:
            raise ArchiveRefused(
                f"{name}: unpacks to {declared} bytes; at most {limits.max_total_bytes} are "
                "accepted", code="archive_refused",
            )
        found: list[Entry] = []
        total = 0
        for info in sorted(infos, key=lambda i: i.filename):
            if info.file_size > limits.max_entry_bytes:
                raise ArchiveRefused(
                    f"{name}/{info.filename}: {info.file_size} bytes unpacked; at most "
                    f"{limits.max_entry_bytes} per file", code="archive_refused",
                )
            try:
                with archive.open(info) as handle:
                    content = handle.read(limits.max_entry_bytes + 1)
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError,
                    RuntimeError) as exc:
                raise ArchiveRefused(f"{name}/{info.filename}: cannot be unpacked ({exc})",
                                     code="archive_refused") from exc
            total += len(content)
            if len(content) > limits.max_entry_bytes or total > limits.max_total_bytes:
                raise ArchiveRefused(
                    f"{name}/{info.filename}: unpacks to more than its archive declares",
                    code="archive_refused",
                )
            found.append(Entry(f"{name}/{info.filename}", "save", content))
        return found


def expand(entry: Entry, limits: ArchiveLimits, depth: int = 0) -> Iterator[Entry]:
    """An entry, or what it holds when it is an archive or a workbook."""
    lower = entry.name.lower()
    if entry.kind != "save":
        yield entry
    elif lower.endswith(ARCHIVE_SUFFIXES):
        if depth >= 2:
            yield Entry(entry.name, "unreadable", note="an archive nested too deep")
            return
        try:
            inner = archive_entries(entry.data, entry.name, limits)
        except ArchiveRefused as exc:
            yield Entry(entry.name, "unreadable", note=exc.reason)
            return
        for item in inner:
            yield from expand(item, limits, depth + 1)
    elif lower.endswith(WORKBOOK_SUFFIXES):
        yield from workbook_sheets(entry.data, entry.name)
    elif lower.endswith(SAVE_SUFFIXES) or "." not in PurePosixPath(lower).name:
        yield entry
    else:
        yield Entry(entry.name, "not_save",
                    note=f"a {PurePosixPath(lower).suffix or 'extensionless'} file, not a save")


def collect(paths: list[str | Path], limits: ArchiveLimits | None = None) -> Iterator[Entry]:
    """Every entry under ``paths``: files, folders (recursively, in name order), archives."""
    limits = limits or ArchiveLimits()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file())
            for file in files:
                if _skipped(file.relative_to(path).as_posix()):
                    continue
                yield from _from_file(file, limits)
        else:
            yield from _from_file(path, limits)


def _from_file(path: Path, limits: ArchiveLimits) -> Iterator[Entry]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        yield Entry(str(path), "unreadable", note=f"cannot read the file: {exc.strerror or exc}")
        return
    yield from expand(Entry(str(path), "save", data), limits)
