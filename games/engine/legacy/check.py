"""Checking save files on disk: the logic behind ``manage.py check_save``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .collection import Entry, collect, describe_note, may_be_note
from .errors import LegacyFormatError
from .reader import read_save
from .verify import SaveVerification, describe, verify_save


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The verdict on one file. ``ok`` is false when it is unreadable or invalid."""

    path: str
    ok: bool
    message: str
    verification: SaveVerification | None = None
    error: Exception | None = None

    def line(self) -> str:
        return f"{self.path}: {self.message}"


def check_file(
    path: str | Path, *, moves_per_round: int | None = None, noise_budget: float | None = None
) -> FileCheck:
    """Read and verify one save file; never raises for a bad or missing file."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return FileCheck(name, False, f"cannot read the file: {exc.strerror or exc}", error=exc)
    try:
        save = read_save(data, name=name)
    except LegacyFormatError as exc:
        return FileCheck(name, False, f"not a readable save: {exc}", error=exc)
    result = verify_save(save, moves_per_round=moves_per_round, noise_budget=noise_budget)
    return FileCheck(name, result.ok, describe(result), verification=result)


def check_entry(
    entry: Entry, *, moves_per_round: int | None = None, noise_budget: float | None = None
) -> FileCheck:
    """Read and verify one entry of a collection (see ``collection.collect``).

    A note or any file with no board is ``ok`` with "not a save file: ...":
    it is not a broken save.
    """
    if entry.kind == "unreadable":
        return FileCheck(entry.name, False, entry.note)
    if entry.kind == "not_save":
        return FileCheck(entry.name, True, f"not a save file: {entry.note}")
    try:
        save = read_save(entry.data, name=entry.name)
    except LegacyFormatError as exc:
        if exc.code == "no_steps" and may_be_note(entry.name):
            note = describe_note(entry.data.decode("utf-8", "replace"))
            return FileCheck(entry.name, True, f"not a save file: {note}")
        return FileCheck(entry.name, False, f"not a readable save: {exc}", error=exc)
    result = verify_save(save, moves_per_round=moves_per_round, noise_budget=noise_budget)
    return FileCheck(entry.name, result.ok, describe(result), verification=result)


def check_paths(
    paths: list[str | Path], *, moves_per_round: int | None = None,
    noise_budget: float | None = None,
) -> Iterator[FileCheck]:
    """``check_entry`` for every save file, folder, archive and workbook under ``paths``."""
    for entry in collect(paths):
        yield check_entry(entry, moves_per_round=moves_per_round, noise_budget=noise_budget)
