"""Importing save files of the original apps (2016-2017) as recorded games.

A save file holds the board after every step, not the seed nor the moves.
The importer reads it (``games.engine.legacy.read_save``), checks every step
against the rules (``verify_save``) and refuses a file that breaks one,
naming the step, the file line and the reason. A verified file becomes a
lost game with source ``legacy_upload`` and no seed: one BoardSnapshot per
step (with the player's comments), and one ``move`` event for every move the
boards reveal, followed by the ``loss``. Phi-Lambda files, which show Phi and
Lambda instead of the numbers, and files with missing steps are stored as
partially observed records.

The same file (by SHA-256 of its bytes) is imported once: uploading it again
returns the game made the first time.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import ENGINE_VERSION, Board, EngineError, InvalidRuleSet, MergeLabel, RuleSet
from games.engine.events import MoveTuple
from games.engine.legacy import (
    LegacyFormatError,
    LegacySave,
    LegacyStep,
    SaveVerification,
    read_save,
    verify_save,
)
from games.engine.legacy.analysis import declared_rules
from games.engine.legacy.collection import (
    ArchiveLimits,
    ArchiveRefused,
    Entry,
    archive_entries,
    describe_note,
    expand,
    may_be_note,
)
from games.engine.legacy.errors import LegacyTimeout
from games.engine.legacy.exact import ExactGame, declared, exact_game, named_move_note
from games.engine.legacy.model import COLORS, EMPTY, PHI_LAMBDA, Z10
from games.engine.replay import boards as replay_boards
from games.errors import Conflict, DomainError, SaveFileRejected
from games.models import BoardSnapshot, Event, Game, Player
from games.recording import event_row, labels_text, snapshot_row
from games.rulesets import rules_columns
from games.signals import on_game_finished

logger = logging.getLogger(__name__)

FILENAME_MAX_LENGTH = 255
MAX_SEED = 2**63 - 1  # Game.seed is a signed 64-bit column
MOVE_KINDS = ("move", "move_noise", "jump")


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The game made from a save file; ``created`` is false when it existed already."""

    game: Game
    created: bool
    report: dict[str, Any]


def _clean_filename(filename: str) -> str:
    name = os.path.basename(filename.replace("\\", "/")).strip()
    return name[:FILENAME_MAX_LENGTH]


@dataclass(frozen=True, slots=True)
class ImportSource:
    """A published collection the imported files come from.

    ``consented`` is true only when the source was published for research
    (its players agreed to that); the imported games then count as consented.
    """

    name: str
    url: str = ""
    consented: bool = False


def _existing(*, digest: str, player: Player, boards: str | None = None) -> ImportResult | None:
    game = Game.objects.filter(legacy_sha256=digest).first()
    if game is None and boards is not None:
        game = Game.objects.filter(legacy_boards_sha256=boards).first()
    if game is None:
        return None
    if game.player_id != player.pk:
        raise Conflict(
            "This save file was already uploaded by another player.", code="already_imported"
        )
    return ImportResult(game=game, created=False, report=game.import_report)


def _too_slow(exc: LegacyTimeout, budget: float) -> SaveFileRejected:
    return SaveFileRejected(
        f"The file could not be read within {budget:g} seconds: {exc}",
        code="invalid_save_file",
        step=exc.step,
        line=exc.line,
        reason=exc.code,
    )


def _read(
    *,
    data: bytes,
    filename: str,
    budget: float | None = None,
    deadline: float | None = None,
    save: LegacySave | None = None,
) -> tuple[LegacySave, SaveVerification]:
    """Read and verify a save file, or raise ``SaveFileRejected`` saying where and why.

    ``budget``: seconds allowed for reading and checking (default: the
    ``DECODOKU_SAVE_PARSE_SECONDS`` setting). ``save``: ``data`` already read
    with ``read_save(data, name=filename)``; only the check is left to do.
    """
    if budget is None:
        budget = float(settings.DECODOKU_SAVE_PARSE_SECONDS)
    own = time.monotonic() + budget
    deadline = own if deadline is None else min(own, deadline)
    try:
        if save is None:
            save = read_save(data, name=filename, deadline=deadline)
    except LegacyTimeout as exc:
        raise _too_slow(exc, budget) from exc
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
    try:
        verification = verify_save(save, deadline=deadline)
    except LegacyTimeout as exc:
        raise _too_slow(exc, budget) from exc
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
    return save, verification


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
            # RuleSet converts the text of a variant, or refuses it.
            variant=Z10 if save.variant == COLORS else save.variant,  # type: ignore[arg-type]
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


def observation(variant: str) -> str:
    """What a record of this variant shows: values, symbols (Phi/Lambda) or groups only."""
    return {PHI_LAMBDA: "symbols", COLORS: "groups"}.get(variant, "values")


def _cell_char(symbol: str) -> str:
    return "0" if symbol == EMPTY else symbol


def _snapshot(*, game: Game, step: LegacyStep) -> BoardSnapshot:
    cells = step.cells
    values = "".join(_cell_char(cell.symbol) for cell in cells)
    shown = "".join(_cell_char(cell.shown) for cell in cells)
    return BoardSnapshot(
        game=game,
        step=step.t,
        t=step.t,
        values=values,
        shown=shown if shown != values else "",
        labels=labels_text(step.labels),
        comment="\n".join(step.comments),
    )


def _move_fields(
    *, before: LegacyStep, move: MoveTuple, merge_label: str, z10: bool
) -> dict[str, Any]:
    """What the board before a move tells about it (values only for Z10)."""
    from_row, from_col, to_row, to_col = move
    source, target = before.cell(from_row, from_col), before.cell(to_row, to_col)
    fields: dict[str, Any] = {
        "from_row": from_row,
        "from_col": from_col,
        "to_row": to_row,
        "to_col": to_col,
        "from_group": source.group,
        "to_group_before": target.group,
    }
    if not z10:
        return fields
    value, to_before = source.value or 0, target.value or 0
    to_after = (value + to_before) % 10
    if to_after == 0:
        group_after = 0
    elif to_before == 0 or merge_label == MergeLabel.MOVED:
        group_after = source.group
    else:
        group_after = target.group
    fields.update(
        value=value,
        to_value_before=to_before,
        to_value_after=to_after,
        to_group_after=group_after,
        annihilated=to_before != 0 and to_after == 0,
    )
    return fields


def _events(
    *, game: Game, save: LegacySave, verification: SaveVerification, rules: RuleSet
) -> tuple[list[Event], int, int]:
    """Move events where the boards reveal the move, then the loss; (rows, moves, rounds)."""
    by_t = {step.t: step for step in save.steps}
    previous = {later.t: earlier for earlier, later in pairwise(save.steps)}
    z10 = save.variant == Z10
    rows: list[Event] = []
    moves = 0
    rounds = 1
    for inferred in verification.moves:
        if inferred.kind not in MOVE_KINDS:
            continue
        moves += 1
        if inferred.move is not None and inferred.t in previous:
            before = previous[inferred.t]
            fields = _move_fields(
                before=before,
                move=inferred.move,
                merge_label=str(rules.merge_label),
                z10=z10,
            )
            # t is the clock just after the move, as for games played here: a move
            # that emptied the board is at before.t + 1, not at the step after the jump.
            rows.append(
                Event(game=game, seq=len(rows), kind="move", t=before.t + 1, round=rounds,
                      index=moves, move_certain=not inferred.ambiguous,
                      explanations=len(inferred.candidates) or None, **fields)
            )
        if inferred.noise:
            rounds += 1
    last = by_t[save.score]
    spanning = Board(
        save.size,
        tuple(0 if cell.empty else 1 for cell in last.cells),
        last.labels,
    ).spanning()
    if spanning:
        group, axis = spanning[0]
        rows.append(
            Event(game=game, seq=len(rows), kind="loss", t=save.score, round=rounds,
                  group=group, axis=axis, spanning_groups=len(spanning))
        )
    return rows, moves, rounds


def _missing_steps(verification: SaveVerification) -> list[list[int]]:
    """[first, last] of every run of steps missing from the record (not clock jumps)."""
    gaps_at = {m.t for m in verification.moves if m.kind == "gap"}
    return [
        [max(a + 1, 0), b - 1] for a, b in verification.gaps if a < 0 or b in gaps_at
    ]


def _report(
    *,
    filename: str,
    save: LegacySave,
    verification: SaveVerification,
    moves: int,
    moves_inferred: int,
) -> dict[str, Any]:
    return {
        "filename": filename,
        "summary": verification.summary(),
        "variant": save.variant,
        "observed": observation(save.variant),
        "size": save.size,
        "hard": save.hard,
        "score": verification.score,
        "steps_read": verification.steps_read,
        "missing_steps": _missing_steps(verification),
        "moves": moves,
        "moves_inferred": moves_inferred,
        "ambiguous_moves": verification.ambiguous_moves,
        "partially_observed": verification.partially_observed,
        "merge_label": verification.merge_label,
        "comments": len(save.comments),
        "header": [line.text for line in save.header if line.text.strip(", \t")],
        "notes": list(verification.notes),
    }


def legacy_import(
    *,
    player: Player,
    filename: str,
    data: bytes,
    client_info: Mapping[str, Any] | None = None,
    source: ImportSource | None = None,
    deadline: float | None = None,
    save: LegacySave | None = None,
) -> ImportResult:
    """Import one save file for ``player``; see the module's docstring.

    ``deadline`` (a ``time.monotonic()`` value) ends reading and checking
    earlier than ``DECODOKU_SAVE_PARSE_SECONDS`` would (an archive's files
    share one budget). ``save``: ``data`` as ``read_save(data,
    name=filename)`` already read it (the collection importer reads each
    file first), so it is not read twice.

    A file whose boards are those of a game imported before (the same game
    in another layout, or a sheet of a workbook) returns that game.
    """
    digest = hashlib.sha256(data).hexdigest()
    existing = _existing(digest=digest, player=player)
    if existing is not None:
        return existing
    filename = _clean_filename(filename)
    save, verification = _read(data=data, filename=filename, deadline=deadline, save=save)
    boards = save.boards_digest()
    existing = _existing(digest=digest, player=player, boards=boards)
    if existing is not None:
        return existing
    exact = _exact(save, deadline)
    rules = exact.rules if exact is not None else _rules(save, verification)
    try:
        with transaction.atomic():
            if exact is not None:
                return _create_exact(
                    player=player, filename=filename, digest=digest, save=save,
                    verification=verification, exact=exact, client_info=client_info,
                    boards=boards, source=source,
                )
            return _create(
                player=player,
                filename=filename,
                digest=digest,
                save=save,
                verification=verification,
                rules=rules,
                client_info=client_info,
                boards=boards,
                source=source,
            )
    except IntegrityError:
        # The same file was imported at the same moment by another request.
        existing = _existing(digest=digest, player=player, boards=boards)
        if existing is None:
            raise
        return existing


def _exact(save: LegacySave, deadline: float | None) -> ExactGame | None:
    """The exact game of a save that names its engine, rules and seed, or None.

    The seed column holds 63 bits (the seeds of games played here and of
    ``simulate``'s games); a file naming a larger seed (written by an older
    ``simulate``) is imported from its boards instead, like any save.
    """
    named = declared(save)
    if named is None or named.seed > MAX_SEED:
        return None
    budget = float(settings.DECODOKU_SAVE_PARSE_SECONDS)
    own = time.monotonic() + budget
    try:
        return exact_game(save, deadline=own if deadline is None else min(own, deadline))
    except LegacyTimeout as exc:
        raise _too_slow(exc, budget) from exc
    except LegacyFormatError as exc:
        raise SaveFileRejected(
            f"The file names the game it records (engine, rules, seed) but its boards are "
            f"not that game's: {exc}",
            code="save_breaks_rules", step=exc.step, line=exc.line, reason=exc.code,
        ) from exc


def _create_exact(
    *,
    player: Player,
    filename: str,
    digest: str,
    save: LegacySave,
    verification: SaveVerification,
    exact: ExactGame,
    client_info: Mapping[str, Any] | None,
    boards: str,
    source: ImportSource | None,
) -> ImportResult:
    """Store the replayed game: every event of the engine, a board after every move."""
    now = timezone.now()
    engine = exact.game
    rules = exact.rules
    game = Game(
        player=player,
        **rules_columns(rules),
        engine_version=exact.engine_version,
        seed=exact.seed,
        source=Game.Source.LEGACY_UPLOAD,
        mode=Game.Mode.NORMAL,
        status=Game.Status.LOST,
        score=engine.t,
        rounds=engine.round,
        moves_count=engine.moves_made,
        started_at=now,
        ended_at=now,
        client_info={str(k): str(v)[:300] for k, v in (client_info or {}).items()},
        research_consent=player.research_consent or bool(source and source.consented),
        partially_observed=False,
        state=engine.to_state(),
        legacy_sha256=digest,
        legacy_filename=filename,
        legacy_boards_sha256=boards,
        source_name=source.name[:200] if source else "",
        source_url=source.url[:500] if source else "",
    )
    rows = []
    for seq, event in enumerate(engine.events):
        row = event_row(game=game, seq=seq, data=event.to_dict())
        if row.kind == "move":
            fitting = exact.ambiguous.get(row.index or 0, 1)
            # Certain when the boards single it out, or the file names it.
            row.move_certain = fitting == 1 or (row.index or 0) in exact.named
            row.explanations = fitting
        rows.append(row)
    game.next_seq = len(rows)
    report = _report(filename=filename, save=save, verification=verification,
                     moves=engine.moves_made, moves_inferred=engine.moves_made)
    report.update(
        summary=f"exact game: replayed from seed {exact.seed} (engine {exact.engine_version}, "
        f"{rules.key}), every board as in the file",
        partially_observed=False,
        observed="values",
        exact=True,
        ambiguous_moves=len(exact.ambiguous),
        named_moves=len(exact.named),
    )
    game.import_report = report
    game.save(force_insert=True)
    Event.objects.bulk_create(rows)
    replayed = replay_boards(rules, exact.seed, exact.moves, engine_version=exact.engine_version)
    BoardSnapshot.objects.bulk_create([
        # The notes naming each step's move are the file's record of the moves, not a player's.
        snapshot_row(game=game, step=k, t=step.t, board=board,
                     comment="\n".join(c for c in step.comments if named_move_note(c) is None))
        for k, (step, board) in enumerate(zip(save.steps, replayed, strict=True))
    ])
    on_game_finished(game=game)
    return ImportResult(game=game, created=True, report=game.import_report)


def _create(
    *,
    player: Player,
    filename: str,
    digest: str,
    save: LegacySave,
    verification: SaveVerification,
    rules: RuleSet,
    client_info: Mapping[str, Any] | None,
    boards: str,
    source: ImportSource | None,
) -> ImportResult:
    now = timezone.now()
    game = Game(
        player=player,
        **rules_columns(rules, colors=save.variant == COLORS),
        engine_version=ENGINE_VERSION,
        seed=None,
        source=Game.Source.LEGACY_UPLOAD,
        mode=Game.Mode.NORMAL,
        status=Game.Status.LOST,
        score=verification.score,
        started_at=now,
        ended_at=now,
        client_info={str(k): str(v)[:300] for k, v in (client_info or {}).items()},
        research_consent=player.research_consent or bool(source and source.consented),
        partially_observed=verification.partially_observed,
        state={},
        legacy_sha256=digest,
        legacy_filename=filename,
        legacy_boards_sha256=boards,
        source_name=source.name[:200] if source else "",
        source_url=source.url[:500] if source else "",
    )
    events, moves, rounds = _events(game=game, save=save, verification=verification, rules=rules)
    game.moves_count = moves
    game.rounds = rounds
    game.next_seq = len(events)
    game.import_report = _report(
        filename=filename,
        save=save,
        verification=verification,
        moves=moves,
        moves_inferred=sum(1 for row in events if row.kind == "move"),
    )
    game.save(force_insert=True)
    Event.objects.bulk_create(events)
    BoardSnapshot.objects.bulk_create([_snapshot(game=game, step=step) for step in save.steps])
    # An uploaded game arrives finished: analyse it like a game that just ended.
    on_game_finished(game=game)
    return ImportResult(game=game, created=True, report=game.import_report)


@dataclass(frozen=True, slots=True)
class CollectionOutcome:
    """What became of one entry of a collection: ``kind`` is one of ``OUTCOMES``."""

    name: str
    kind: str
    message: str
    game: Game | None = None


OUTCOMES = ("imported", "already_imported", "not_save", "invalid")


def import_collection_entry(
    *,
    entry: Entry,
    player: Callable[[], Player],
    client_info: Mapping[str, Any] | None = None,
    source: ImportSource | None = None,
    deadline: float | None = None,
) -> CollectionOutcome:
    """Import one entry found by ``games.engine.legacy.collection.collect``.

    ``player`` is called only when a game is to be made (so a run that adds
    nothing makes no player). A file already imported, by anyone, is
    reported as such and left alone.
    """
    if entry.kind == "unreadable":
        return CollectionOutcome(entry.name, "invalid", entry.note)
    if entry.kind == "not_save":
        return CollectionOutcome(entry.name, "not_save", f"not a save file: {entry.note}")
    digest = hashlib.sha256(entry.data).hexdigest()
    existing = Game.objects.filter(legacy_sha256=digest).first()
    if existing is not None:
        return CollectionOutcome(entry.name, "already_imported",
                                 f"already imported as game {existing.pk}", existing)
    save: LegacySave | None = None
    try:
        # Read as legacy_import would, so that it can use this reading.
        save = read_save(entry.data, name=_clean_filename(entry.name), deadline=deadline)
    except LegacyTimeout:
        return CollectionOutcome(entry.name, "invalid",
                                 "REFUSED (invalid_save_file): the time allowed ran out")
    except LegacyFormatError as exc:
        if exc.code == "no_steps" and may_be_note(entry.name):  # a note, not a broken save
            note = describe_note(entry.data.decode("utf-8", "replace"))
            return CollectionOutcome(entry.name, "not_save", f"not a save file: {note}")
    except Exception:  # legacy_import below reports it
        logger.debug("reading %s failed", entry.name, exc_info=True)
    if save is not None:
        same = Game.objects.filter(legacy_boards_sha256=save.boards_digest()).first()
        if same is not None:
            return CollectionOutcome(entry.name, "already_imported",
                                     f"already imported as game {same.pk}", same)
    try:
        result = legacy_import(player=player(), filename=entry.name, data=entry.data,
                               client_info=client_info, source=source, deadline=deadline,
                               save=save)
    except DomainError as exc:
        where = ", ".join(
            f"{key} {exc.extra[key]}" for key in ("step", "line") if exc.extra.get(key) is not None
        )
        return CollectionOutcome(
            entry.name, "invalid",
            f"REFUSED ({exc.code}{', ' + where if where else ''}): {exc.message}",
        )
    if not result.created:
        return CollectionOutcome(entry.name, "already_imported",
                                 f"already imported as game {result.game.pk}", result.game)
    return CollectionOutcome(
        entry.name, "imported",
        f"imported as game {result.game.pk}: {result.report['summary']}", result.game,
    )


def upload_limits() -> ArchiveLimits:
    """The bounds on an uploaded archive (settings ``DECODOKU_UPLOAD_ZIP_*``)."""
    return ArchiveLimits(
        max_entries=settings.DECODOKU_UPLOAD_ZIP_MAX_FILES,
        max_entry_bytes=settings.DECODOKU_MAX_UPLOAD_BYTES,
        max_total_bytes=settings.DECODOKU_UPLOAD_ZIP_MAX_BYTES,
    )


def is_archive(*, filename: str, data: bytes) -> bool:
    return filename.lower().endswith(".zip") or data[:4] == b"PK\x03\x04"


def legacy_import_archive(
    *,
    player: Player,
    filename: str,
    data: bytes,
    client_info: Mapping[str, Any] | None = None,
    limits: ArchiveLimits | None = None,
) -> list[CollectionOutcome]:
    """Import every save file of a zip archive, as ``import_legacy`` does.

    The archive is checked against ``limits`` (default ``upload_limits()``)
    before anything is unpacked or written: a refused archive raises
    ``SaveFileRejected`` (code ``archive_refused``) and stores nothing. All
    files share one time budget, ``DECODOKU_SAVE_PARSE_SECONDS``.
    """
    name = _clean_filename(filename) or "upload.zip"
    try:
        entries = archive_entries(data, name, limits or upload_limits())
    except ArchiveRefused as exc:
        raise SaveFileRejected(
            f"The archive was refused: {exc.reason}", code="archive_refused", step=None,
            line=None, reason="archive_refused",
        ) from exc
    deadline = time.monotonic() + float(settings.DECODOKU_SAVE_PARSE_SECONDS)
    found = [item for entry in entries for item in expand(entry, limits or upload_limits(), 1)]
    return [
        import_collection_entry(entry=entry, player=lambda: player, client_info=client_info,
                                deadline=deadline)
        for entry in found
    ]
