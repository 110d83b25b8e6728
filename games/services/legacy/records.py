"""The rows and the report a checked save file becomes.

A file stored from its boards (not an exact game, which the engine replays)
gets one ``BoardSnapshot`` per step (with the player's comments) and one
``move`` event for every move the boards reveal, then the ``loss``. Every
imported file gets an import report (``Game.import_report``) that says in
words what the file held and what could be told from it.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from games.engine import Board, MergeLabel, RuleSet
from games.engine.events import MoveTuple
from games.engine.legacy import LegacySave, LegacyStep, SaveVerification
from games.engine.legacy.model import EMPTY
from games.engine.variants import variant_kind
from games.models import BoardSnapshot, Event, Game
from games.recording import labels_text

MOVE_KINDS = ("move", "move_noise", "jump")


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
