"""Errors raised while reading a legacy save file."""

from __future__ import annotations

import time

from ..errors import EngineError


class LegacyFormatError(EngineError):
    """A save file that cannot be read.

    ``line`` is the 1-based line of the file where reading stopped (``None``
    when the problem is not tied to one line, e.g. an empty file) and ``step``
    the step number being read there (``None`` before the first step).
    The message always says what was expected and what was found.
    """

    code = "legacy_format"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        line: int | None = None,
        step: int | None = None,
    ) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if step is not None:
            where.append(f"step {step}")
        text = f"{', '.join(where)}: {message}" if where else message
        super().__init__(text, code=code)
        self.line = line
        self.step = step
        self.reason = message


# Step numbers and group ids are stored in 32-bit integer columns.
MAX_NUMBER = 2**31 - 1


class LegacyTimeout(LegacyFormatError):
    """Reading or checking a save took longer than the caller's time budget."""

    code = "too_slow"


class Deadline:
    """When work on untrusted input must stop: a wall-clock time and a processor time.

    ``wall`` is a ``time.monotonic()`` value, ``cpu`` a ``time.thread_time()``
    value of the thread that made the deadline (processor time is counted per
    thread, so that other requests served by the same process do not use up
    this one's budget); either may be None. Check it only in the thread that
    made it.
    """

    __slots__ = ("cpu", "wall")

    def __init__(self, *, wall: float | None = None, cpu: float | None = None) -> None:
        self.wall = wall
        self.cpu = cpu

    @classmethod
    def after(cls, *, seconds: float | None = None,
              cpu_seconds: float | None = None) -> Deadline:
        """The deadline ``seconds`` of wall-clock time and ``cpu_seconds`` of processor
        time from now (None: no bound of that kind)."""
        return cls(
            wall=None if seconds is None else time.monotonic() + seconds,
            cpu=None if cpu_seconds is None else time.thread_time() + cpu_seconds,
        )

    def passed(self) -> bool:
        return (self.wall is not None and time.monotonic() > self.wall) or (
            self.cpu is not None and time.thread_time() > self.cpu
        )

    def within(self, deadline: float | Deadline | None) -> Deadline:
        """The earlier of this deadline and ``deadline`` (a ``time.monotonic()`` value)."""
        if deadline is None:
            return self
        if not isinstance(deadline, Deadline):
            deadline = Deadline(wall=deadline)

        def earlier(a: float | None, b: float | None) -> float | None:
            return b if a is None else a if b is None else min(a, b)

        return Deadline(wall=earlier(self.wall, deadline.wall),
                        cpu=earlier(self.cpu, deadline.cpu))

    def __repr__(self) -> str:
        return f"Deadline(wall={self.wall!r}, cpu={self.cpu!r})"


def passed(deadline: float | Deadline | None) -> bool:
    """Has ``deadline`` (a ``Deadline``, or a ``time.monotonic()`` value) passed?"""
    if deadline is None:
        return False
    if isinstance(deadline, Deadline):
        return deadline.passed()
    return time.monotonic() > deadline


def check_deadline(deadline: float | Deadline | None, *, line: int | None = None,
                   step: int | None = None) -> None:
    """Raise ``LegacyTimeout`` once ``deadline`` has passed (see ``passed``)."""
    if passed(deadline):
        raise LegacyTimeout(
            "reading this file took longer than the time allowed for one upload; it is "
            "far larger or more tangled than any save the apps wrote",
            code="too_slow", line=line, step=step,
        )
