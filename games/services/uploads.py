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

from collections.abc import Mapping, Sequence
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


# What a save file of each kind of record let the app see, said for the player.
_OBSERVED_WORDS = {
    "symbols": "The file records whether each number showed as Φ or Λ, not the number "
    "itself (the app never showed it), so the replay cannot show every value.",
    "groups": "The file records only which cells belonged together (their colour), not "
    "the numbers, so the replay shows the moves and the groups but no values.",
}
_VARIANT_WORDS = {"z10": "Numbers (Z10)", "phi_lambda": "Φ and Λ", "colors": "Colors"}


def _steps_words(missing: Sequence[Sequence[int]]) -> str:
    """``Step 4 is missing ...`` / ``Steps 41 to 43 are missing ...``; empty when none is."""
    runs = [f"{a}" if a == b else f"{a} to {b}" for a, b in missing]
    if not runs:
        return ""
    one = len(runs) == 1 and missing[0][0] == missing[0][1]
    return (
        f" Step{'' if one else 's'} {', '.join(runs)} {'is' if one else 'are'} missing "
        "from the file: the replay goes from the board before to the board after."
    )


def upload_summary(report: Mapping[str, Any]) -> str:
    """What an imported save file became, in words a player reads on the upload page.

    ``report`` is the game's import report (``games.services.legacy``); the
    one-line verdict of ``check_save`` stays in it as ``summary`` for the
    admin and the API.
    """
    size = report.get("size")
    variant = _VARIANT_WORDS.get(str(report.get("variant")), str(report.get("variant") or ""))
    mode = ", hard mode" if report.get("hard") else ""
    steps = int(report.get("steps_read") or 0)
    head = (
        f"A {size} \N{MULTIPLICATION SIGN} {size} game of {variant}{mode}: "
        f"score {report.get('score')}, {steps} board{'s' if steps != 1 else ''} in the file."
    )
    if report.get("exact"):
        return f"{head} Replayed exactly from the game's seed: every board is as in the file."
    checked = " Every move was checked against the rules."
    observed = _OBSERVED_WORDS.get(str(report.get("observed")), "")
    missing = _steps_words(report.get("missing_steps") or [])
    return head + checked + (f" {observed}" if observed else "") + missing


def _outcome_words(kind: str, message: str, game: Game | None) -> str:
    """The words beside one file of an archive: its summary, or why it was refused.

    Files stored before (or whose notes were merged) need none: the page says
    so and links the game.
    """
    if kind == "imported" and game is not None:
        return upload_summary(game.import_report or {})
    if kind in ("already_imported", "comments_merged"):
        return ""
    return message


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
                                message=_outcome_words(o.kind, o.message, o.game),
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
                        message=upload_summary(result.report) if result.created else "",
                        game_id=str(result.game.pk),
                    )
                ],
            )
        )
    return reports
