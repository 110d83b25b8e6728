"""Merging the player's notes of an explained copy of a save into the game imported before.

An explained copy records the same boards as a file imported before, with
the player's explanation in header lines and comment columns: its notes are
added to that game, none twice, whichever copy came first.
"""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from games.engine.legacy import LegacySave
from games.engine.legacy.exact import named_move_note
from games.models import BoardSnapshot, Game


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
