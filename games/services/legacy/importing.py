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
returns the game made the first time. A file whose boards are those of a
game imported before (an explained copy of a save, with the player's notes
beside the boards) adds the notes that game lacks to it (``merge_comments``).

An upload is bounded whatever it holds: one ``Deadline`` of wall-clock and
processor time (``DECODOKU_SAVE_PARSE_SECONDS``,
``DECODOKU_UPLOAD_CPU_SECONDS``) for the whole upload (a request of the web
page that carries several files shares one among them), and for archives and
workbooks one ``Budget`` for every file in them (``upload_limits``). An
archive or workbook beyond it is refused whole and nothing is stored.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
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
from games.engine.legacy.errors import Deadline, LegacyTimeout, check_deadline
from games.engine.legacy.exact import ExactGame, declared, exact_game, named_move_note
from games.engine.legacy.model import EMPTY
from games.engine.variants import variant_kind
from games.errors import DomainError, SaveFileRejected
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
    """The player's own game of this file (or of the same boards), if they uploaded it before.

    Only the player's own games are looked at: whether somebody else uploaded
    the file is nobody's business (their upload becomes the copy's
    ``copy_of``, which the player never sees).
    """
    games = Game.objects.filter(player=player)
    game = games.filter(legacy_sha256=digest).first()
    if game is None and boards is not None:
        game = games.filter(legacy_boards_sha256=boards).first()
    if game is None:
        return None
    return ImportResult(game=game, created=False, report=game.import_report)


def _first_upload(*, digest: str, boards: str, player: Player) -> Game | None:
    """Another player's earlier upload of the same file or boards: the game a new
    upload is a private copy of (``Game.copy_of``), or None."""
    others = Game.objects.exclude(player=player).filter(copy_of__isnull=True)
    same = others.filter(legacy_sha256=digest) | others.filter(legacy_boards_sha256=boards)
    return same.order_by("started_at", "pk").first()


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


def observation(variant: str) -> str:
    """What a record of this variant shows: values, symbols (Phi/Lambda) or groups only."""
    return variant_kind(variant).observed


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
    *, before: LegacyStep, move: MoveTuple, merge_label: str, values_shown: bool
) -> dict[str, Any]:
    """What the board before a move tells about it (values only where the save shows them:
    Z10)."""
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
    if not values_shown:
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
    values_shown = variant_kind(save.variant).shows_values
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
                values_shown=values_shown,
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
    deadline: float | Deadline | None = None,
    save: LegacySave | None = None,
    max_lines: int | None = None,
) -> ImportResult:
    """Import one save file for ``player``; see the module's docstring.

    ``deadline`` (a ``Deadline`` or a ``time.monotonic()`` value) ends reading
    and checking earlier than the upload's own time would (an archive's files
    share one budget). ``save``: ``data`` as ``read_save(data,
    name=filename)`` already read it (the collection importer reads each
    file first), so it is not read twice. ``max_lines``: the most lines the
    file may have (uploads).

    A file whose boards are those of a game of the player's imported before
    (the same game in another layout, or a sheet of a workbook) returns that
    game, with the notes this file adds merged into it (``merge_comments``).
    """
    deadline = _within(deadline)  # one budget for reading, checking and replaying
    digest = hashlib.sha256(data).hexdigest()
    existing = _existing(digest=digest, player=player)
    if existing is not None:
        return existing
    filename = _clean_filename(filename)
    save, verification = _read(data=data, filename=filename, deadline=deadline, save=save,
                               max_lines=max_lines)
    boards = save.boards_digest()
    existing = _existing(digest=digest, player=player, boards=boards)
    if existing is not None:
        merge_comments(game=existing.game, save=save, filename=filename, digest=digest)
        return ImportResult(game=existing.game, created=False,
                            report=existing.game.import_report)
    exact = _exact(save, deadline)
    rules = exact.rules if exact is not None else _rules(save, verification)
    try:
        return _store(player=player, filename=filename, digest=digest, save=save,
                      verification=verification, exact=exact, rules=rules, boards=boards,
                      client_info=client_info, source=source, deadline=deadline,
                      copy_of=_first_upload(digest=digest, boards=boards, player=player))
    except LegacyTimeout as exc:
        raise _too_slow(exc) from exc


def _store(
    *,
    player: Player,
    filename: str,
    digest: str,
    save: LegacySave,
    verification: SaveVerification,
    exact: ExactGame | None,
    rules: RuleSet,
    boards: str,
    client_info: Mapping[str, Any] | None,
    source: ImportSource | None,
    deadline: Deadline,
    copy_of: Game | None = None,
) -> ImportResult:
    """Store a read and checked save as a game of ``player`` (one transaction).

    ``copy_of``: another player's earlier upload of the same game, when this
    is a private copy of it (``Game.copy_of``).

    Which upload of a save is its original is decided by the database: one
    game per boards digest may have no ``copy_of`` (``game_one_original_per_save``).
    When another player's upload of the same save became the original between
    the look-up and the insert, the insert fails in its savepoint and the game
    is stored again as a copy of that upload.

    Storing a long game costs about as much as reading it, so the upload's
    deadline is checked as the rows are written (``LegacyTimeout``: the
    transaction is rolled back).
    """
    def attempt(original: Game | None) -> ImportResult:
        with transaction.atomic():
            if exact is not None:
                return _create_exact(
                    player=player, filename=filename, digest=digest, save=save,
                    verification=verification, exact=exact, client_info=client_info,
                    boards=boards, source=source, deadline=deadline, copy_of=original,
                )
            return _create(
                player=player, filename=filename, digest=digest, save=save,
                verification=verification, rules=rules, client_info=client_info,
                boards=boards, source=source, deadline=deadline, copy_of=original,
            )

    try:
        return attempt(copy_of)
    except IntegrityError:
        # The same file was imported at the same moment by another request of
        # this player, or another player's upload of it became the original.
        existing = _existing(digest=digest, player=player, boards=boards)
        if existing is not None:
            return existing
        original = None if copy_of is not None else _first_upload(
            digest=digest, boards=boards, player=player)
        if original is None:
            raise
    return attempt(original)


STORE_BATCH = 1000


def _bulk_create(model: type[Event] | type[BoardSnapshot], rows: list[Any],
                 deadline: Deadline) -> None:
    """``bulk_create`` in batches, checking the upload's deadline before each."""
    for start in range(0, len(rows), STORE_BATCH):
        check_deadline(deadline)
        model.objects.bulk_create(rows[start:start + STORE_BATCH])


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
    deadline: Deadline,
    copy_of: Game | None = None,
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
        copy_of=copy_of,
        source_name=source.name[:200] if source else "",
        source_url=source.url[:500] if source else "",
    )
    rows = []
    for seq, event in enumerate(engine.events):
        if seq % STORE_BATCH == 0:
            check_deadline(deadline)
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
    _bulk_create(Event, rows, deadline)
    _bulk_create(BoardSnapshot, [
        # The notes naming each step's move are the file's record of the moves, not a player's.
        snapshot_row(game=game, step=k, t=step.t, board=board,
                     comment="\n".join(c for c in step.comments if named_move_note(c) is None))
        for k, (step, board) in enumerate(zip(save.steps, exact.boards, strict=True))
    ], deadline)
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
    deadline: Deadline,
    copy_of: Game | None = None,
) -> ImportResult:
    now = timezone.now()
    game = Game(
        player=player,
        **rules_columns(rules, saved_as=save.variant),
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
        copy_of=copy_of,
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
    _bulk_create(Event, events, deadline)
    _bulk_create(BoardSnapshot, [_snapshot(game=game, step=step) for step in save.steps],
                 deadline)
    # An uploaded game arrives finished: analyse it like a game that just ended.
    on_game_finished(game=game)
    return ImportResult(game=game, created=True, report=game.import_report)


def _new_lines(known: list[str], found: list[str]) -> list[str]:
    """The lines of ``found`` that ``known`` does not hold already (as many times), in order."""
    left = Counter(known)
    added = []
    for line in found:
        if left[line]:
            left[line] -= 1
        else:
            added.append(line)
    return added


def _merged_comment(stored: str, found: list[str]) -> tuple[str, int]:
    """A board's comment with the notes ``found`` for its step; (text, notes added).

    A board's notes are stored joined by line breaks (a note may hold line
    breaks of its own), so they are compared as text: notes already there
    are not added again, and a stored comment that the new notes hold whole
    (a copy with fewer notes imported first) gives way to them.
    """
    text = "\n".join(found)
    if not text or text in stored:
        return stored, 0
    added = sum(1 for note in found if note not in stored)
    if not stored or stored in text:
        return text, added
    return stored + "\n" + text, added


def merge_comments(*, game: Game, save: LegacySave, filename: str, digest: str) -> int:
    """Add to ``game`` the player's notes that ``save`` holds and the game lacks.

    ``save`` records the same boards as ``game`` (an explained copy of a save:
    the same game with the player's explanation in header lines and comment
    columns). Its header lines are added to ``import_report["header"]``, its
    comments to the boards of their steps, none twice, so that whichever copy
    is imported first the game ends with the same notes; the report lists the
    file under ``merged``. Returns how many notes were added (0: nothing new,
    and nothing is written).
    """
    report = dict(game.import_report or {})
    exact = bool(report.get("exact"))
    header = _new_lines(list(report.get("header", [])),
                        [line.text for line in save.header if line.text.strip(", \t")])
    by_t = {
        step.t: [c for c in step.comments if not (exact and named_move_note(c) is not None)]
        for step in save.steps
        if step.comments
    }
    changed = []
    notes = 0
    with transaction.atomic():
        for snapshot in BoardSnapshot.objects.select_for_update().filter(
            game=game, t__in=list(by_t)
        ).order_by("step"):
            comment, added = _merged_comment(snapshot.comment, by_t.pop(snapshot.t, []))
            if comment != snapshot.comment:
                snapshot.comment = comment
                changed.append(snapshot)
                notes += added or 1
        if not header and not changed:
            return 0
        BoardSnapshot.objects.bulk_update(changed, ["comment"])
        report["header"] = list(report.get("header", [])) + header
        report["comments"] = int(report.get("comments", 0)) + notes
        report["merged"] = [*report.get("merged", []), {
            "filename": filename, "sha256": digest, "header_lines": len(header),
            "comments": notes,
        }]
        game.import_report = report
        game.save(update_fields=["import_report"])
    return len(header) + notes


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
