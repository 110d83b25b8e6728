"""Importing one save file as a recorded game of a player (``legacy_import``).

A checked file becomes a lost game with source ``legacy_upload`` and no
seed (``_create``), or, when it names its engine, rules and seed, the game
replayed from that seed (``_create_exact``). The same file (by SHA-256 of
its bytes) is imported once per player; another player's earlier upload of
it makes the new game a private copy (``Game.copy_of``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import ENGINE_VERSION, RuleSet
from games.engine.legacy import LegacySave, SaveVerification
from games.engine.legacy.errors import Deadline, LegacyTimeout, check_deadline
from games.engine.legacy.exact import ExactGame, named_move_note
from games.models import BoardSnapshot, Event, Game, Player
from games.recording import event_row, snapshot_row
from games.rulesets import rules_columns
from games.services.legacy.comments import merge_comments
from games.services.legacy.reading import (
    _clean_filename,
    _exact,
    _read,
    _rules,
    _too_slow,
    _within,
)
from games.services.legacy.records import _events, _report, _snapshot
from games.signals import on_game_finished


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The game made from a save file; ``created`` is false when it existed already."""

    game: Game
    created: bool
    report: dict[str, Any]


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
    """Import one save file for ``player``; see the docstring of ``games.services.legacy``.

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
