"""Errors raised while reading a legacy save file."""

from __future__ import annotations

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
