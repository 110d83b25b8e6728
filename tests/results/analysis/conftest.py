"""Helpers for the analysis tests: boards written as rows of text."""

from __future__ import annotations

from games.engine.bots import UNKNOWN


def board(rows: list[str], groups: list[str]) -> tuple[list[int], list[int], int]:
    """(values, labels, size) from rows of digits ('.' empty, 'P' a Phi) and of group letters.

    In ``groups`` a letter names a group ('.' for an empty cell); letters
    become ids 1, 2, ... in order of first appearance.
    """
    size = len(rows)
    values: list[int] = []
    for row in rows:
        assert len(row) == size, "rows must form a square"
        for char in row:
            values.append(0 if char == "." else UNKNOWN if char == "P" else int(char))
    ids: dict[str, int] = {}
    labels = []
    for row in groups:
        for char in row:
            labels.append(0 if char == "." else ids.setdefault(char, len(ids) + 1))
    assert len(labels) == len(values)
    assert all((v == 0) == (label == 0) for v, label in zip(values, labels, strict=True))
    return values, labels, size
