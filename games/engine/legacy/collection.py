"""Walking a collection of save files: folders, zip archives, Excel workbooks, notes.

The original project published its players' results as a folder of files:
save files, zip archives of save files, workbooks whose sheets hold the same
grid, and text notes. ``collect`` turns paths into ``Entry`` items, one per
save file found (a sheet of a workbook counts as one), each with the bytes
to read and a name saying where it came from (``archive.zip/inner.csv``,
``book.xlsx[Sheet1]``). Nothing here runs a macro or follows a link:
workbooks are read with openpyxl, read-only and values only.

Everything one upload (or one path given to ``collect``) holds is unpacked
against one ``Budget``: the files in all its archives and workbooks
together, the bytes they unpack to at every level, how deep archives nest,
how much each file is compressed, and a ``Deadline`` for the processor and
wall-clock time. Sizes are checked as the archive declares them before
anything is unpacked (``zipfile`` never gives more than an entry declares),
and the bytes are counted again as they are read. Entries are unpacked one
at a time, when they are asked for, so a zip of many files never holds them
all in memory. A workbook's sheets are read row by row, at most
``ArchiveLimits.max_lines`` rows and ``SHEET_COLUMNS`` columns each, after a
scan of each sheet's XML for rows of too many cells (openpyxl holds a whole
row at once); only the parts that hold values are given to openpyxl (no
style sheet, theme, properties, charts or pictures are parsed). openpyxl
reads every part through ``_TimedArchive``, which checks the deadline before
each 16 KiB of XML it hands over: the XML parser's work happens between those
reads (opening a workbook parses each sheet whose dimension is missing, a
sheet's last row is followed by whatever XML the sheet holds after it), so
that is where the deadline has to be checked. Pure Python, no Django.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import IO, Any

from .errors import Deadline, LegacyFormatError, check_deadline
from .reader import MAX_COLUMNS

SAVE_SUFFIXES = (".csv", ".txt")
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
ARCHIVE_SUFFIXES = (".zip",)
ZIP_SIGNATURE = b"PK\x03\x04"
_LINK = re.compile(r"https?://\S+")

# An entry smaller than this is never refused for how well it compresses (a
# short note of blank lines compresses a hundredfold and costs nothing).
RATIO_FLOOR = 64 * 1024
CHUNK = 64 * 1024
# Columns read from a sheet: a board of up to 16 columns from column D, and
# the comment columns beside it. Later columns are not read.
SHEET_COLUMNS = 64
# The parts of a workbook that hold its values; anything else (styles, theme,
# document properties, charts, drawings, pictures, macros) is never unpacked.
_WORKBOOK_PARTS = ("[Content_Types].xml", "xl/workbook.xml")
_UNREAD_PREFIXES = (
    "docProps/", "customXml/", "xl/theme/", "xl/chartsheets/", "xl/drawings/", "xl/charts/",
    "xl/media/", "xl/embeddings/", "xl/printerSettings/", "xl/pivotCache/", "xl/pivotTables/",
    "xl/externalLinks/", "xl/activeX/", "xl/ctrlProps/", "xl/richData/", "xl/persons/",
    "xl/threadedComments/",
)
_UNREAD_NAMES = ("xl/styles.xml", "xl/vbaProject.bin", "xl/calcChain.xml",
                 "xl/connections.xml")
# A row or a cell element of a sheet (with or without a namespace prefix).
_SHEET_TAG = re.compile(rb"<(?:[A-Za-z_][-\w.]*:)?(row|c)(?=[\s/>])")
# The most XML bytes openpyxl gets from a part between two checks of the deadline
# (what the standard library's iterparse asks for at a time).
PART_CHUNK = 16 * 1024
# Tags the scan for wide rows counts between two checks of the deadline.
SCAN_CHECK_EVERY = 65_536


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """How much one upload (or one path of a collection) may unpack to, in all.

    ``max_entries`` counts the files of every archive and workbook in it,
    ``max_total_bytes`` the bytes they unpack to at every level (a zip inside
    a zip counts once as a file and again for what it holds),
    ``max_entry_bytes`` bounds each file, ``max_depth`` how many archives
    may be opened inside one another (the outermost counts, and a workbook
    is one), ``max_ratio`` how many times its compressed size a file of
    ``RATIO_FLOOR`` bytes or more may unpack to, and ``max_lines`` the rows
    read from one sheet of a workbook.
    """

    max_entries: int = 2000
    max_entry_bytes: int = 2 * 1024 * 1024
    max_total_bytes: int = 200 * 1024 * 1024
    max_depth: int = 3
    max_ratio: int = 100
    max_lines: int = 100_000


class ArchiveRefused(LegacyFormatError):
    """An archive or a workbook that cannot be read."""

    code = "archive_refused"


class LimitExceeded(ArchiveRefused):
    """An upload that would unpack more than its budget allows.

    ``limit`` names the bound (``entries``, ``unpacked_bytes``,
    ``entry_bytes``, ``depth`` or ``ratio``) and ``value`` is its value.
    """

    code = "upload_limit"

    def __init__(self, message: str, *, limit: str, value: int) -> None:
        super().__init__(message, code="upload_limit")
        self.limit = limit
        self.value = value


class Budget:
    """What one upload may still unpack and spend, across every archive and workbook.

    ``entries`` and ``unpacked`` count what was found and unpacked so far;
    ``deadline`` (a ``Deadline``, a ``time.monotonic()`` value or None) is
    checked between files and while unpacking (``LegacyTimeout`` once it has
    passed).
    """

    def __init__(self, limits: ArchiveLimits | None = None, *,
                 deadline: Deadline | float | None = None) -> None:
        self.limits = limits or ArchiveLimits()
        self.deadline = deadline
        self.entries = 0
        self.unpacked = 0

    def check_time(self, name: str | None = None) -> None:
        check_deadline(self.deadline)

    def enter(self, name: str, depth: int) -> None:
        """Open an archive or a workbook ``depth`` levels deep (1: the outermost)."""
        if depth > self.limits.max_depth:
            raise LimitExceeded(
                f"{name}: archives nested {depth} deep; at most {self.limits.max_depth} are "
                "opened inside one another (a workbook counts as one)",
                limit="depth", value=self.limits.max_depth,
            )

    def declare(self, name: str, infos: list[zipfile.ZipInfo]) -> None:
        """Check what an archive's directory declares, before anything of it is unpacked."""
        limits = self.limits
        self.entries += len(infos)
        if self.entries > limits.max_entries:
            held = f"{len(infos)} files in the archive" if self.entries == len(infos) else (
                f"{self.entries} files in the upload's archives")
            raise LimitExceeded(
                f"{name}: {held}; at most {limits.max_entries} are accepted",
                limit="entries", value=limits.max_entries,
            )
        for info in infos:
            if info.file_size > limits.max_entry_bytes:
                raise LimitExceeded(
                    f"{name}/{info.filename}: {info.file_size} bytes unpacked; at most "
                    f"{limits.max_entry_bytes} per file",
                    limit="entry_bytes", value=limits.max_entry_bytes,
                )
            if (info.file_size >= RATIO_FLOOR
                    and info.file_size > limits.max_ratio * max(info.compress_size, 1)):
                raise LimitExceeded(
                    f"{name}/{info.filename}: {info.compress_size} bytes that unpack to "
                    f"{info.file_size}; a file may unpack to at most {limits.max_ratio} times "
                    "its compressed size",
                    limit="ratio", value=limits.max_ratio,
                )
        declared = sum(i.file_size for i in infos)
        if self.unpacked + declared > limits.max_total_bytes:
            raise LimitExceeded(
                f"{name}: unpacks to {declared} bytes; at most {limits.max_total_bytes} are "
                "accepted" + (f" in all ({self.unpacked} already unpacked)" if self.unpacked
                              else ""),
                limit="unpacked_bytes", value=limits.max_total_bytes,
            )

    def take(self, name: str, size: int) -> None:
        """Count ``size`` bytes just unpacked."""
        self.unpacked += size
        if self.unpacked > self.limits.max_total_bytes:
            raise LimitExceeded(
                f"{name}: the upload unpacks to more than {self.limits.max_total_bytes} bytes",
                limit="unpacked_bytes", value=self.limits.max_total_bytes,
            )


def _budget(limits: ArchiveLimits | Budget | None) -> Budget:
    return limits if isinstance(limits, Budget) else Budget(limits)


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


# -- zip archives ----------------------------------------------------------------------


def _open_zip(data: bytes, name: str, what: str = "zip archive") -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveRefused(f"{name}: not a readable {what} ({exc})",
                             code="archive_refused") from exc


def is_workbook(data: bytes) -> bool:
    """Is ``data`` an Excel workbook (a zip holding a workbook part), whatever its name?"""
    if not data.startswith(ZIP_SIGNATURE):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return False
    return all(part in names for part in _WORKBOOK_PARTS)


def _unpack(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, budget: Budget) -> bytes:
    """One entry's bytes, read a chunk at a time against the budget."""
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as handle:
            while True:
                budget.check_time(name)
                chunk = handle.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                # zipfile never gives more than the directory declares (checked before).
                if size > budget.limits.max_entry_bytes:  # pragma: no cover - see above
                    raise LimitExceeded(
                        f"{name}/{info.filename}: unpacks to more than its archive declares",
                        limit="entry_bytes", value=budget.limits.max_entry_bytes,
                    )
                budget.take(f"{name}/{info.filename}", len(chunk))
                chunks.append(chunk)
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError,
            EOFError) as exc:
        raise ArchiveRefused(f"{name}/{info.filename}: cannot be unpacked ({exc})",
                             code="archive_refused") from exc
    return b"".join(chunks)


def iter_archive(data: bytes, name: str, budget: ArchiveLimits | Budget | None = None,
                 depth: int = 1) -> Iterator[Entry]:
    """The files of a zip archive, unpacked one at a time as they are asked for.

    The archive's directory is checked against the budget before anything is
    unpacked. Raises ``ArchiveRefused`` for an unreadable archive,
    ``LimitExceeded`` beyond the budget and ``LegacyTimeout`` once its
    deadline has passed.
    """
    budget = _budget(budget)
    budget.enter(name, depth)
    archive = _open_zip(data, name)
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir() and not _skipped(i.filename)]
        budget.declare(name, infos)
        for info in sorted(infos, key=lambda i: i.filename):
            yield Entry(f"{name}/{info.filename}", "save", _unpack(archive, info, name, budget))


def archive_entries(data: bytes, name: str, limits: ArchiveLimits | Budget) -> list[Entry]:
    """Every file of a zip archive (see ``iter_archive``), all unpacked."""
    return list(iter_archive(data, name, limits))


# -- workbooks -------------------------------------------------------------------------


def _unread_part(name: str) -> bool:
    return name.startswith(_UNREAD_PREFIXES) or name in _UNREAD_NAMES


def _widest_row(xml: bytes, limit: int, budget: Budget | None = None) -> int:
    """The most cells any row of a sheet's XML holds (stops counting past ``limit``)."""
    widest = cells = 0
    for index, match in enumerate(_SHEET_TAG.finditer(xml)):
        if budget is not None and index % SCAN_CHECK_EVERY == 0:
            budget.check_time()
        if match.group(1) == b"row":
            cells = 0
            continue
        cells += 1
        if cells > widest:
            widest = cells
            if widest > limit:
                break
    return widest


def _values_package(data: bytes, name: str, budget: Budget, depth: int) -> bytes:
    """The workbook with only the parts that hold its values, each read against the budget."""
    budget.enter(name, depth)
    archive = _open_zip(data, name, "workbook")
    copy = io.BytesIO()
    with archive, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as kept:
        # Only the parts read count: the others are never unpacked.
        infos = [i for i in archive.infolist()
                 if not i.is_dir() and not _unread_part(i.filename)]
        budget.declare(name, infos)
        for info in infos:
            part = _unpack(archive, info, name, budget)
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                widest = _widest_row(part, MAX_COLUMNS, budget)
                if widest > MAX_COLUMNS:
                    raise ArchiveRefused(
                        f"{name}/{info.filename}: a row of more than {MAX_COLUMNS} cells; no "
                        "save has one", code="archive_refused",
                    )
            kept.writestr(info.filename, part)
    return copy.getvalue()


class _TimedPart:
    """A part of a workbook as openpyxl reads it: at most ``PART_CHUNK`` bytes a read,
    each read only while the budget's time lasts (``LegacyTimeout`` after)."""

    def __init__(self, handle: IO[bytes], budget: Budget, name: str) -> None:
        self._handle = handle
        self._budget = budget
        self._name = name

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(PART_CHUNK), b""))
        self._budget.check_time(self._name)
        return self._handle.read(min(size, PART_CHUNK))

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> _TimedPart:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class _TimedArchive:
    """The workbook's zip as openpyxl sees it: every part it opens or reads is a
    ``_TimedPart``; everything else is the zip's own."""

    def __init__(self, archive: zipfile.ZipFile, budget: Budget, name: str) -> None:
        self._archive = archive
        self._budget = budget
        self._name = name

    def open(self, member: str | zipfile.ZipInfo, mode: str = "r") -> _TimedPart:
        return _TimedPart(self._archive.open(member, "r"), self._budget, self._name)

    def read(self, member: str | zipfile.ZipInfo) -> bytes:
        with self.open(member) as part:
            return part.read()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._archive, attribute)


def _open_workbook(package: bytes, name: str, budget: Budget) -> Any:
    """openpyxl's read-only workbook of ``package``, every part read against the budget.

    ``load_workbook`` opens the zip itself; its reader is used here instead so
    that the zip it reads (and keeps, to read the sheets later) is a
    ``_TimedArchive``.
    """
    from openpyxl.reader.excel import ExcelReader

    reader = ExcelReader(io.BytesIO(package), read_only=True, data_only=True,
                         keep_vba=False, keep_links=False)
    reader.archive = _TimedArchive(reader.archive, budget, name)
    try:
        reader.read()
    except BaseException:
        reader.archive.close()
        raise
    return reader.wb


def _sheet_text(sheet: object, name: str, budget: Budget) -> tuple[bytes | None, str]:
    """A sheet's values as CSV text, or (None, why) when it is beyond the limits."""
    limits = budget.limits
    lines: list[str] = []
    size = 0
    rows = sheet.iter_rows(  # type: ignore[attr-defined]
        max_row=limits.max_lines + 1, max_col=SHEET_COLUMNS, values_only=True)
    for index, row in enumerate(rows):
        if index % 256 == 0:
            budget.check_time(name)
        if index >= limits.max_lines:
            return None, (f"more than {limits.max_lines} rows: no save has as many (an "
                          "upload's sheet is read up to that row)")
        end = len(row)
        while end and row[end - 1] is None:
            end -= 1
        if not end:  # an empty row (openpyxl gives one for every row the sheet skips)
            lines.append("")
            size += 1
            continue
        cells = []
        for value in row[:end]:
            text = _cell_text(value)
            size += len(text) + 1
            if size > limits.max_entry_bytes:
                return None, (f"its values make more than {limits.max_entry_bytes} bytes of "
                              "text, more than any save file")
            cells.append(text)
        while cells and cells[-1] == "":
            cells.pop()
        lines.append(",".join(cells))
    while lines and not lines[-1]:
        lines.pop()
    return ("\n".join(lines) + "\n" if lines else "").encode("utf-8"), ""


def workbook_sheets(data: bytes, name: str, limits: ArchiveLimits | Budget | None = None,
                    depth: int = 1) -> Iterator[Entry]:
    """Each sheet of an .xlsx/.xlsm workbook as CSV text (values only, no macro run).

    A workbook that cannot be read is one ``unreadable`` entry, and so is a
    sheet beyond the limits on rows and text; ``LimitExceeded`` (the
    workbook's parts beyond the budget) and ``LegacyTimeout`` are raised.
    """
    budget = _budget(limits)
    try:
        package = _values_package(data, name, budget, depth)
    except LimitExceeded:
        raise
    except ArchiveRefused as exc:
        yield Entry(name, "unreadable", note=exc.reason)
        return
    try:
        book = _open_workbook(package, name, budget)
    except LegacyFormatError:  # the upload's time: the caller's to refuse
        raise
    except Exception as exc:  # any broken workbook: say so, never crash
        yield Entry(name, "unreadable", note=f"not a readable workbook: {exc}")
        return
    try:
        for sheet in book.worksheets:
            sheet_name = f"{name}[{sheet.title}]"
            budget.check_time(sheet_name)
            try:
                text, why = _sheet_text(sheet, sheet_name, budget)
            except LegacyFormatError:  # the upload's budget or time: the caller's to refuse
                raise
            except Exception as exc:  # a broken sheet: say so, never crash
                yield Entry(sheet_name, "unreadable", note=f"not a readable sheet: {exc}")
                continue
            if text is None:
                yield Entry(sheet_name, "unreadable", note=why)
            else:
                yield Entry(sheet_name, "save", text)
    finally:
        book.close()


# -- collections -----------------------------------------------------------------------


def _is_zip(entry: Entry) -> bool:
    return entry.data.startswith(ZIP_SIGNATURE)


def expand(entry: Entry, limits: ArchiveLimits | Budget | None = None, depth: int = 0,
           *, strict: bool = False) -> Iterator[Entry]:
    """An entry, or what it holds when it is an archive or a workbook.

    ``depth`` is how many archives the entry is inside. Beyond the budget:
    with ``strict`` (uploads) ``LimitExceeded`` is raised, so that the caller
    refuses the whole upload; otherwise (``import_legacy``, ``check_save``)
    the entry given is reported ``unreadable`` from there on, with the
    reason. An archive or workbook that cannot be read is ``unreadable``.
    """
    budget = _budget(limits)
    if depth == 0 and not strict:
        try:
            yield from expand(entry, budget, depth, strict=True)
        except LimitExceeded as exc:
            yield Entry(entry.name, "unreadable", note=exc.reason)
        return
    lower = entry.name.lower()
    if entry.kind != "save":
        yield entry
    elif lower.endswith(WORKBOOK_SUFFIXES) or (_is_zip(entry) and is_workbook(entry.data)):
        yield from workbook_sheets(entry.data, entry.name, budget, depth + 1)
    elif lower.endswith(ARCHIVE_SUFFIXES) or _is_zip(entry):
        try:
            inner = iter_archive(entry.data, entry.name, budget, depth + 1)
            for item in inner:
                yield from expand(item, budget, depth + 1, strict=True)
        except LimitExceeded:
            raise
        except ArchiveRefused as exc:
            yield Entry(entry.name, "unreadable", note=exc.reason)
    elif lower.endswith(SAVE_SUFFIXES) or "." not in PurePosixPath(lower).name:
        yield entry
    else:
        yield Entry(entry.name, "not_save",
                    note=f"a {PurePosixPath(lower).suffix or 'extensionless'} file, not a save")


def collect(paths: list[str | Path], limits: ArchiveLimits | None = None) -> Iterator[Entry]:
    """Every entry under ``paths``: files, folders (recursively, in name order), archives.

    Each file gets a budget of its own (``limits``, no time limit).
    """
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
    yield from expand(Entry(str(path), "save", data), Budget(limits))
