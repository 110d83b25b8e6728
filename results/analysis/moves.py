"""What a move did and what a board looks like: the per-move and per-round measures.

Pure functions on boards given as row-major sequences of values and group
ids (``games.engine.Board`` order). A value is 0 for an empty cell, 1-9 for
a number, or ``UNKNOWN`` for a Phi whose value a partially observed record
does not hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.bots import UNKNOWN
from games.engine.events import MoveTuple

ANNIHILATION = "annihilation"
SAME_GROUP = "same_group"
MERGE_GROUPS = "merge_groups"
TOWARD_CENTROID = "toward_centroid"
TOWARD_COMPLEMENT = "toward_complement"
AWAY_FROM_EDGE = "away_from_edge"
OTHER = "other"
UNCLASSIFIED = "unclassified"

MOVE_CLASSES = (
    ANNIHILATION,
    SAME_GROUP,
    MERGE_GROUPS,
    TOWARD_CENTROID,
    TOWARD_COMPLEMENT,
    AWAY_FROM_EDGE,
    OTHER,
    UNCLASSIFIED,
)


def border_distance(row: int, col: int, size: int) -> int:
    """Cells between (row, col) and the nearest edge (0 on the edge)."""
    last = size - 1
    return min(row, col, last - row, last - col)


def classify_move(
    values: Sequence[int],
    labels: Sequence[int],
    size: int,
    move: MoveTuple,
    *,
    annihilated: bool | None = None,
) -> str:
    """The first class that applies, in the order of ``MOVE_CLASSES``.

    The board is the one before the move, with the true group ids (the
    analysis knows them even when the player did not). ``annihilated`` says
    whether the move emptied both cells when the record says so; when left
    None it is worked out from the values, and when that is impossible (a
    Phi moved onto a Phi) a move onto a number is ``unclassified``.

    - onto a number: ``annihilation`` if the two cancel, else ``same_group``
      when both carry the same group id, else ``merge_groups``;
    - onto an empty cell: ``toward_centroid`` when the step brings the number
      closer (Manhattan) to the centroid of the rest of its group;
      ``toward_complement`` when it brings it closer to its nearest
      complement (any number that would annihilate it);
      ``away_from_edge`` when the destination is farther from the nearest
      edge; else ``other``. A Phi's complement is unknown, so a Phi step that
      is not toward its group's centroid is ``unclassified``.
    """
    fr, fc, tr, tc = move
    src, dst = fr * size + fc, tr * size + tc
    moved, target = values[src], values[dst]
    if moved == 0:
        raise ValueError(f"there is no number at row {fr}, column {fc}")
    if target:
        if annihilated is None and UNKNOWN not in (moved, target):
            annihilated = (moved + target) % 10 == 0
        elif annihilated is None and (moved == UNKNOWN) != (target == UNKNOWN):
            # A Phi (not 0 or 5) and a Lambda (5) never add up to 0 mod 10.
            annihilated = False
        if annihilated is None:
            return UNCLASSIFIED
        if annihilated:
            return ANNIHILATION
        return SAME_GROUP if labels[src] == labels[dst] else MERGE_GROUPS

    group = labels[src]
    mates = [i for i, label in enumerate(labels) if label == group and i != src and values[i]]
    if mates:
        centre_r = sum(i // size for i in mates) / len(mates)
        centre_c = sum(i % size for i in mates) / len(mates)
        before = abs(fr - centre_r) + abs(fc - centre_c)
        after = abs(tr - centre_r) + abs(tc - centre_c)
        if after < before:
            return TOWARD_CENTROID
    if moved == UNKNOWN:
        return UNCLASSIFIED
    complement = (10 - moved) % 10
    partners = [i for i, v in enumerate(values) if v == complement and i != src]
    if partners:
        before_d = min(abs(fr - i // size) + abs(fc - i % size) for i in partners)
        after_d = min(abs(tr - i // size) + abs(tc - i % size) for i in partners)
        if after_d < before_d:
            return TOWARD_COMPLEMENT
    if border_distance(tr, tc, size) > border_distance(fr, fc, size):
        return AWAY_FROM_EDGE
    return OTHER


@dataclass(frozen=True, slots=True)
class BoardShape:
    """The largest group of a board and how close any group comes to spanning.

    The largest group has the most numbers (ties: the widest extent, then the
    smallest id). An extent counts rows (or columns) from the group's first
    to its last, inclusive: ``size`` means the group touches both edges.
    """

    numbers: int
    largest_group_size: int
    largest_group_row_extent: int
    largest_group_col_extent: int
    max_group_extent: int


def board_shape(values: Sequence[int], labels: Sequence[int], size: int) -> BoardShape:
    spans: dict[int, list[int]] = {}  # label -> [count, min row, max row, min col, max col]
    numbers = 0
    for i, (value, label) in enumerate(zip(values, labels, strict=True)):
        if not value:
            continue
        numbers += 1
        row, col = divmod(i, size)
        box = spans.get(label)
        if box is None:
            spans[label] = [1, row, row, col, col]
            continue
        box[0] += 1
        box[1], box[2] = min(box[1], row), max(box[2], row)
        box[3], box[4] = min(box[3], col), max(box[4], col)
    if not spans:
        return BoardShape(numbers, 0, 0, 0, 0)
    extents = {
        label: (count, r_hi - r_lo + 1, c_hi - c_lo + 1)
        for label, (count, r_lo, r_hi, c_lo, c_hi) in spans.items()
    }
    best = min(extents, key=lambda label: (
        -extents[label][0], -max(extents[label][1:]), label
    ))
    count, rows, cols = extents[best]
    widest = max(max(rows_, cols_) for _, rows_, cols_ in extents.values())
    return BoardShape(numbers, count, rows, cols, widest)
