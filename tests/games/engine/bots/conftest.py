"""Helpers for the bot tests: boards built from rows of values."""

from __future__ import annotations

import pytest

from games.engine import Game, RuleSet, Variant


def build_game(rows: list[str], labels: list[list[int]] | None = None, *,
               variant: Variant = Variant.Z10, t: int = 0) -> Game:
    """A game whose board is ``rows`` (digits, '.' for empty), via ``Game.from_state``.

    Without ``labels`` every pair of neighbouring numbers is put in one group
    (connected components), which is enough for a board that does not span.
    """
    size = len(rows)
    values = [0 if ch == "." else int(ch) for row in rows for ch in row]
    assert len(values) == size * size, "rows must form a square"
    if labels is None:
        flat = [0] * len(values)
        next_label = 1
        for start, value in enumerate(values):
            if not value or flat[start]:
                continue
            stack = [start]
            flat[start] = next_label
            while stack:
                cell = stack.pop()
                r, c = divmod(cell, size)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    other = rr * size + cc
                    if 0 <= rr < size and 0 <= cc < size and values[other] and not flat[other]:
                        flat[other] = next_label
                        stack.append(other)
            next_label += 1
    else:
        flat = [label for row in labels for label in row]
    base = Game(RuleSet(size=size, variant=variant), seed=7, record=False).to_state()
    base.update(
        t=t,
        round=t // 5 + 1,
        moves=t,
        next_label=max(flat, default=0) + 1,
        values="".join(map(str, values)),
        labels=flat,
        loss=None,
    )
    return Game.from_state(base, record=False)


@pytest.fixture
def make_game():
    return build_game
