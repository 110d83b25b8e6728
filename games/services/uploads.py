"""Save files uploaded from the web page: each file imported as the API imports it.

One upload may carry several files (chosen together, or dropped together);
each is a single save file, a zip archive or a workbook, and each gets its own
report. A file that is refused refuses only itself: the files before and after
it are imported all the same.

All the files of one upload share one time budget (``upload_deadline``:
``DECODOKU_SAVE_PARSE_SECONDS`` of wall clock, ``DECODOKU_UPLOAD_CPU_SECONDS``
of processor time), the budget a single file uploaded through the API has:
sending twenty files in one request does not buy twenty times the processor
time. Once it is spent, the files not read yet are refused unread, each with
its own message, and nothing of them is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import DomainError
from games.engine.legacy.errors import Deadline
from games.models import Game, Player
from games.services.legacy import (
    is_archive,
    legacy_import,
    legacy_import_archive,
    time_allowed,
    upload_deadline,
    upload_limits,
)
from games.services.players import player_require_consent_choice

UPLOADED_VIA_WEB = "web page"


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What became of one save file: ``kind`` as in ``games.services.legacy.OUTCOMES``."""

    name: str
    kind: str
    message: str
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class UploadReport:
    """The report of one uploaded file (for an archive: of every file it held)."""

    name: str
    archive: bool
    outcomes: list[FileOutcome]
    refused: str = ""

    @property
    def imported(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.kind == "imported")


def _refusal(exc: DomainError) -> str:
    where = ", ".join(
        f"{key} {exc.extra[key]}" for key in ("step", "line") if exc.extra.get(key) is not None
    )
    return f"{exc.message}" + (f" ({where})" if where else "")


def _summary(report: dict[str, Any]) -> str:
    return str(report.get("summary") or "")


def _time_spent(name: str) -> UploadReport:
    return UploadReport(
        name=name,
        archive=False,
        outcomes=[],
        refused=f"Not read: the files before it used up the time one upload may take "
        f"({time_allowed()}, for all its files together). Nothing of this file was "
        "stored; upload it again on its own.",
    )


def upload_save_files(
    *,
    player: Player,
    files: Sequence[tuple[str, bytes]],
    deadline: Deadline | None = None,
) -> list[UploadReport]:
    """Import every ``(name, content)`` for ``player``; one report per file, in order.

    Every file works to the same ``deadline`` (default: the upload's own time
    from now, ``upload_deadline``); the files after it has passed are refused
    unread. A player who never answered the research question is refused
    (``ConsentChoiceRequired``) before anything is read: the page asks first.
    """
    player_require_consent_choice(player=player, source=Game.Source.WEB)
    deadline = deadline or upload_deadline()
    reports: list[UploadReport] = []
    client_info = {"uploaded_via": UPLOADED_VIA_WEB}
    for name, data in files:
        if deadline.passed():
            reports.append(_time_spent(name))
            continue
        try:
            if is_archive(filename=name, data=data):
                outcomes = legacy_import_archive(
                    player=player, filename=name, data=data, client_info=client_info,
                    deadline=deadline,
                )
                reports.append(
                    UploadReport(
                        name=name,
                        archive=True,
                        outcomes=[
                            FileOutcome(
                                name=o.name,
                                kind=o.kind,
                                message=o.message,
                                game_id=str(o.game.pk) if o.game is not None else None,
                            )
                            for o in outcomes
                        ],
                    )
                )
                continue
            result = legacy_import(
                player=player,
                filename=name,
                data=data,
                client_info=client_info,
                max_lines=upload_limits().max_lines,
                deadline=deadline,
            )
        except DomainError as exc:
            reports.append(
                UploadReport(name=name, archive=False, outcomes=[], refused=_refusal(exc))
            )
            continue
        kind = "imported" if result.created else "already_imported"
        reports.append(
            UploadReport(
                name=name,
                archive=False,
                outcomes=[
                    FileOutcome(
                        name=name,
                        kind=kind,
                        message=_summary(result.report),
                        game_id=str(result.game.pk),
                    )
                ],
            )
        )
    return reports
