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


def check_deadline(deadline: float | None, *, line: int | None = None,
                   step: int | None = None) -> None:
    """Raise ``LegacyTimeout`` once ``time.monotonic()`` has passed ``deadline``."""
    if deadline is not None and time.monotonic() > deadline:
        raise LegacyTimeout(
            "reading this file took longer than the time allowed for one save file; it is "
            "far larger or more tangled than any save the apps wrote",
            code="too_slow", line=line, step=step,
        )
