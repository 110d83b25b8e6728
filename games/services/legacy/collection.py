"""Importing a collection: its entries one by one, and uploaded archives and workbooks.

``import_collection_entry`` imports one file found in a collection (the
``import_legacy`` command, or an upload's archive) and says what became of
it (``OUTCOMES``). ``legacy_import_archive`` imports every save file of an
uploaded zip or workbook under one ``Budget`` and one deadline, and stores
nothing if the upload goes beyond them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games.engine.legacy.collection import (
    ZIP_SIGNATURE,
    ArchiveLimits,
    ArchiveRefused,
    Budget,
    Entry,
    LimitExceeded,
    describe_note,
    expand,
    is_workbook,
    iter_archive,
    may_be_note,
    workbook_sheets,
)
from games.engine.legacy.errors import Deadline, LegacyTimeout
from games.errors import DomainError, SaveFileRejected
from games.models import Game, Player
from games.services.legacy.comments import merge_comments
from games.services.legacy.importing import ImportSource, _first_upload, _store
from games.services.legacy.reading import (
    _clean_filename,
    _exact,
    _parse,
    _rules,
    _too_slow,
    _verify,
    _within,
    time_allowed,
    upload_deadline,
)


@dataclass(frozen=True, slots=True)
class CollectionOutcome:
    """What became of one entry of a collection: ``kind`` is one of ``OUTCOMES``."""

    name: str
    kind: str
    message: str
    game: Game | None = None


OUTCOMES = ("imported", "comments_merged", "already_imported", "not_save", "invalid")


def _refused(name: str, exc: DomainError) -> CollectionOutcome:
    where = ", ".join(
        f"{key} {exc.extra[key]}" for key in ("step", "line") if exc.extra.get(key) is not None
    )
    return CollectionOutcome(
        name, "invalid", f"REFUSED ({exc.code}{', ' + where if where else ''}): {exc.message}",
    )


def import_collection_entry(
    *,
    entry: Entry,
    player: Callable[[], Player],
    client_info: Mapping[str, Any] | None = None,
    source: ImportSource | None = None,
    deadline: float | Deadline | None = None,
    max_lines: int | None = None,
    merge_into: Player | None = None,
) -> CollectionOutcome:
    """Import one entry found by ``games.engine.legacy.collection.collect``.

    ``player`` is called only once a game is to be made (so a run that adds
    nothing, or refuses every file, makes no player). ``merge_into`` is the
    uploading player (uploads) or None (``import_legacy``): the games looked
    at are that player's, or everybody's. A file already imported among them
    is reported as such and left alone; a file whose boards are those of a
    game among them and which adds notes to it (an explained copy) has them
    merged into that game (``merge_comments``). An upload of a game another
    player uploaded first becomes the uploader's private copy of it
    (``Game.copy_of``), reported as imported like any other: nothing tells
    the uploader about the other player. ``deadline`` and ``max_lines``
    bound the reading (uploads).
    """
    if entry.kind == "unreadable":
        return CollectionOutcome(entry.name, "invalid", entry.note)
    if entry.kind == "not_save":
        return CollectionOutcome(entry.name, "not_save", f"not a save file: {entry.note}")
    digest = hashlib.sha256(entry.data).hexdigest()
    among = Game.objects.all() if merge_into is None else Game.objects.filter(player=merge_into)
    existing = among.filter(legacy_sha256=digest).first()
    if existing is not None:
        return CollectionOutcome(entry.name, "already_imported",
                                 f"already imported as game {existing.pk}", existing)
    filename = _clean_filename(entry.name)
    deadline = _within(deadline)  # one budget for reading, checking and replaying
    try:
        save = _parse(data=entry.data, filename=filename, deadline=deadline,
                      max_lines=max_lines)
    except SaveFileRejected as exc:
        if exc.extra.get("reason") == "no_steps" and may_be_note(entry.name):
            note = describe_note(entry.data.decode("utf-8", "replace"))
            return CollectionOutcome(entry.name, "not_save", f"not a save file: {note}")
        return _refused(entry.name, exc)
    boards = save.boards_digest()
    same = among.filter(legacy_boards_sha256=boards).first()
    if same is not None:
        added = merge_comments(game=same, save=save, filename=filename, digest=digest)
        if added:
            return CollectionOutcome(
                entry.name, "comments_merged",
                f"the same game as game {same.pk}, imported before: {added} note"
                f"{'s' if added != 1 else ''} of this file merged into it", same)
        return CollectionOutcome(entry.name, "already_imported",
                                 f"already imported as game {same.pk}", same)
    try:
        verification = _verify(save, deadline)
        exact = _exact(save, deadline)
        rules = exact.rules if exact is not None else _rules(save, verification)
    except DomainError as exc:
        return _refused(entry.name, exc)
    # Everything is checked: only now is the owner made, if it is to be.
    owner = player()
    copy_of = (None if merge_into is None
               else _first_upload(digest=digest, boards=boards, player=owner))
    try:
        result = _store(player=owner, filename=filename, digest=digest, save=save,
                        verification=verification, exact=exact, rules=rules, boards=boards,
                        client_info=client_info, source=source, deadline=deadline,
                        copy_of=copy_of)
    except LegacyTimeout as exc:
        return _refused(entry.name, _too_slow(exc))
    except DomainError as exc:
        return _refused(entry.name, exc)
    if not result.created:
        return CollectionOutcome(entry.name, "already_imported",
                                 f"already imported as game {result.game.pk}", result.game)
    return CollectionOutcome(
        entry.name, "imported",
        f"imported as game {result.game.pk}: {result.report['summary']}", result.game,
    )


def upload_limits() -> ArchiveLimits:
    """The bounds on one uploaded archive or workbook, everything in it together
    (settings ``DECODOKU_UPLOAD_ZIP_*``, ``DECODOKU_MAX_UPLOAD_BYTES``)."""
    return ArchiveLimits(
        max_entries=settings.DECODOKU_UPLOAD_ZIP_MAX_FILES,
        max_entry_bytes=settings.DECODOKU_MAX_UPLOAD_BYTES,
        max_total_bytes=settings.DECODOKU_UPLOAD_ZIP_MAX_BYTES,
    )


def is_archive(*, filename: str, data: bytes) -> bool:
    """Is the upload a zip archive or a workbook (by its name or its first bytes)?"""
    return (filename.lower().endswith((".zip", ".xlsx", ".xlsm"))
            or data.startswith(ZIP_SIGNATURE))


def _upload_entries(data: bytes, name: str, budget: Budget) -> Iterator[Entry]:
    """The save files of an uploaded zip or workbook, unpacked one at a time."""
    if is_workbook(data):
        yield from workbook_sheets(data, name, budget, depth=1)
        return
    for item in iter_archive(data, name, budget, depth=1):
        yield from expand(item, budget, depth=1, strict=True)


def legacy_import_archive(
    *,
    player: Player,
    filename: str,
    data: bytes,
    client_info: Mapping[str, Any] | None = None,
    limits: ArchiveLimits | None = None,
    deadline: Deadline | None = None,
) -> list[CollectionOutcome]:
    """Import every save file of an uploaded zip archive or workbook, as ``import_legacy`` does.

    Everything the upload holds, at every level of nesting, shares one
    budget (``limits``, default ``upload_limits()``) and one deadline
    (``deadline``, default ``upload_deadline()`` from now; the web page's
    upload passes the one all its files share); files are unpacked and
    imported one at a time.
    Beyond either, the whole upload is refused (``SaveFileRejected``, code
    ``upload_limit`` with the ``reason`` naming the limit; ``archive_refused``
    for an archive that cannot be read) and nothing is stored: the files are
    imported in one transaction.
    """
    name = _clean_filename(filename) or "upload.zip"
    limits = limits or upload_limits()
    budget = Budget(limits, deadline=deadline or upload_deadline())
    outcomes: list[CollectionOutcome] = []
    try:
        with transaction.atomic():
            for entry in _upload_entries(data, name, budget):
                outcomes.append(import_collection_entry(
                    entry=entry, player=lambda: player, client_info=client_info,
                    deadline=budget.deadline, max_lines=limits.max_lines, merge_into=player,
                ))
                # A file refused for time means the upload's time is spent.
                budget.check_time()
    except LimitExceeded as exc:
        raise SaveFileRejected(
            f"The upload was refused: {exc.reason}", code="upload_limit", reason=exc.limit,
            limit=exc.value,
        ) from exc
    except LegacyTimeout as exc:
        raise SaveFileRejected(
            f"The upload was refused: reading the files it holds took more than "
            f"{time_allowed()}, the time one upload may take ({len(outcomes)} "
            "files read)", code="upload_limit", reason="too_slow",
        ) from exc
    except ArchiveRefused as exc:
        raise SaveFileRejected(
            f"The archive was refused: {exc.reason}", code="archive_refused", step=None,
            line=None, reason="archive_refused",
        ) from exc
    return outcomes
