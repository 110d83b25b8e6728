"""Reading and checking one uploaded save file, within the upload's time.

A file is read (``games.engine.legacy.read_save``) and checked step by step
against the rules (``verify_save``); one that cannot be read, breaks a rule
or takes longer than an upload may is refused with ``SaveFileRejected``,
naming the step, the file line and the reason. The rules a checked file is
stored under (``_rules``), and the exact game of a file that names its
engine, rules and seed (``_exact``), are worked out here too.
"""

from __future__ import annotations

import logging
import os

from django.conf import settings

from games.engine import EngineError, InvalidRuleSet, MergeLabel, RuleSet
from games.engine.legacy import (
    LegacyFormatError,
    LegacySave,
    SaveVerification,
    read_save,
    verify_save,
)
from games.engine.legacy.analysis import declared_rules
from games.engine.legacy.errors import Deadline, LegacyTimeout
from games.engine.legacy.exact import ExactGame, declared, exact_game
from games.engine.variants import variant_kind
from games.errors import SaveFileRejected

logger = logging.getLogger(__name__)

FILENAME_MAX_LENGTH = 255
MAX_SEED = 2**63 - 1  # Game.seed is a signed 64-bit column


def _clean_filename(filename: str) -> str:
    name = os.path.basename(filename.replace("\\", "/")).strip()
    return name[:FILENAME_MAX_LENGTH]


def upload_deadline() -> Deadline:
    """The time one upload may take, from now: ``DECODOKU_SAVE_PARSE_SECONDS`` of wall
    clock and ``DECODOKU_UPLOAD_CPU_SECONDS`` of this thread's processor time."""
    return Deadline.after(seconds=float(settings.DECODOKU_SAVE_PARSE_SECONDS),
                          cpu_seconds=float(settings.DECODOKU_UPLOAD_CPU_SECONDS))


def time_allowed() -> str:
    """The time one upload may take, in words (for refusals)."""
    return (f"{settings.DECODOKU_SAVE_PARSE_SECONDS:g} seconds "
            f"({settings.DECODOKU_UPLOAD_CPU_SECONDS:g} s of processor time)")


def _within(deadline: float | Deadline | None) -> Deadline:
    """The deadline to work to: ``deadline`` when it is a ``Deadline`` (the caller's:
    an upload's, or an unbounded one for ``import_legacy``); otherwise the upload's
    own from now, or the ``time.monotonic()`` value given if that comes first."""
    if isinstance(deadline, Deadline):
        return deadline
    return upload_deadline().within(deadline)


def _too_slow(exc: LegacyTimeout) -> SaveFileRejected:
    return SaveFileRejected(
        f"The file could not be read within {time_allowed()}: {exc}",
        code="invalid_save_file",
        step=exc.step,
        line=exc.line,
        reason=exc.code,
    )


def _parse(
    *,
    data: bytes,
    filename: str,
    deadline: float | Deadline | None = None,
    max_lines: int | None = None,
) -> LegacySave:
    """Read a save file, or raise ``SaveFileRejected`` saying where and why."""
    try:
        return read_save(data, name=filename, deadline=_within(deadline), max_lines=max_lines)
    except LegacyTimeout as exc:
        raise _too_slow(exc) from exc
    except LegacyFormatError as exc:
        raise SaveFileRejected(
            f"The file is not a readable save file: {exc}",
            code="invalid_save_file",
            step=exc.step,
            line=exc.line,
            reason=exc.code,
        ) from exc
    except Exception as exc:  # untrusted input must never cause a server error
        logger.exception("Reading save file %r failed unexpectedly", filename)
        raise SaveFileRejected(
            "The file could not be read as a save file.",
            code="invalid_save_file",
            step=None,
            line=None,
            reason="unreadable",
        ) from exc


def _read(
    *,
    data: bytes,
    filename: str,
    deadline: float | Deadline | None = None,
    save: LegacySave | None = None,
    max_lines: int | None = None,
) -> tuple[LegacySave, SaveVerification]:
    """Read and verify a save file, or raise ``SaveFileRejected`` saying where and why.

    Reading and checking stop at ``deadline`` or after the upload's own time
    (``upload_deadline``), whichever comes first. ``save``: ``data`` already
    read with ``read_save(data, name=filename)``; only the check is left to do.
    """
    if save is None:
        save = _parse(data=data, filename=filename, deadline=deadline, max_lines=max_lines)
    return save, _verify(save, deadline)


def _verify(save: LegacySave, deadline: float | Deadline | None) -> SaveVerification:
    """Check a save against the rules, or raise ``SaveFileRejected`` naming the step."""
    try:
        verification = verify_save(save, deadline=_within(deadline))
    except LegacyTimeout as exc:
        raise _too_slow(exc) from exc
    except EngineError as exc:
        raise SaveFileRejected(
            f"The file could not be checked: {exc}",
            code="save_breaks_rules",
            step=None,
            line=None,
            reason=exc.code,
        ) from exc
    violation = verification.violation
    if violation is not None:
        raise SaveFileRejected(
            f"Step {violation.t} breaks a rule: {violation.message}",
            code="save_breaks_rules",
            step=violation.t,
            line=violation.line,
            reason=violation.reason,
        )
    if not save.steps:
        raise SaveFileRejected(
            "The file holds no step.", code="invalid_save_file", step=None, line=None,
            reason="empty",
        )
    return verification


def _rules(save: LegacySave, verification: SaveVerification) -> RuleSet:
    """The original apps' rules (budget 6, a round every 5 moves), unless the file's
    header (written by this platform's export) names others; the merge convention
    the file showed (the later apps keep the moved number's id)."""
    moves_per_round, noise_budget = declared_rules(save)
    named = declared(save)
    label = verification.merge_label or (
        named.merge_label if named is not None else str(MergeLabel.MOVED)
    )
    defaults = RuleSet()
    try:
        return RuleSet(
            size=save.size,
            # Colors games move and merge as Z10 does; the game row says "colors".
            variant=variant_kind(save.variant).plays_as,
            noise_budget=noise_budget or defaults.noise_budget,
            moves_per_round=moves_per_round or defaults.moves_per_round,
            # What the merges showed, else what the header names, else the later apps'.
            merge_label=label,  # type: ignore[arg-type]
        )
    except InvalidRuleSet as exc:
        raise SaveFileRejected(
            f"The file's board is not playable here: {exc}",
            code="save_breaks_rules",
            step=save.steps[0].t,
            line=save.steps[0].line,
            reason="unsupported_rules",
        ) from exc


def _exact(save: LegacySave, deadline: float | Deadline | None) -> ExactGame | None:
    """The exact game of a save that names its engine, rules and seed, or None.

    The seed column holds 63 bits (the seeds of games played here and of
    ``simulate``'s games); a file naming a larger seed (written by an older
    ``simulate``) is imported from its boards instead, like any save.
    """
    named = declared(save)
    if named is None or named.seed > MAX_SEED:
        return None
    try:
        return exact_game(save, deadline=_within(deadline))
    except LegacyTimeout as exc:
        raise _too_slow(exc) from exc
    except LegacyFormatError as exc:
        raise SaveFileRejected(
            f"The file names the game it records (engine, rules, seed) but its boards are "
            f"not that game's: {exc}",
            code="save_breaks_rules", step=exc.step, line=exc.line, reason=exc.code,
        ) from exc
