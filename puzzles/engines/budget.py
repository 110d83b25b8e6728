"""Time budgets of a search, passed in by the caller so that the engines stay pure.

A node budget alone does not bound time: one node of a 16 x 16 Adjacent Futoshiki
costs a thousand times one of a 4 x 4. The caller (the site, a command) decides
how long a search may run and hands the engines a :class:`Deadline`; the engines
only ask it whether it has passed, between units of work small enough that a
search stops soon after. ``games.engine.legacy.errors.Deadline`` is one.
"""

from __future__ import annotations

from typing import Protocol


class Deadline(Protocol):
    """When a search must stop (for example a processor-time budget of one request)."""

    def passed(self) -> bool: ...


class BudgetSpent(Exception):
    """A search stopped because its caller's :class:`Deadline` passed."""


def check(deadline: Deadline | None) -> None:
    """Raise :class:`BudgetSpent` once ``deadline`` (if any) has passed."""
    if deadline is not None and deadline.passed():
        raise BudgetSpent
