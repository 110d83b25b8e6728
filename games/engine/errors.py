"""Errors raised by the engine. Each carries a stable machine-readable code."""

from __future__ import annotations


class EngineError(Exception):
    """Base class. ``code`` is stable and safe to show to API clients."""

    code = "engine_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidRuleSet(EngineError):
    code = "invalid_rule_set"


class IllegalMove(EngineError):
    """A move the rules forbid. The game is left exactly as it was.

    Codes: ``off_grid``, ``not_adjacent``, ``empty_source``, ``game_over``; planar
    games also ``closed_side`` (off the board through the top or the bottom).
    """

    code = "illegal_move"


class UnknownEngineVersion(EngineError):
    code = "unknown_engine_version"


class InvalidState(EngineError):
    """A stored game state that cannot be restored (corrupt or inconsistent)."""

    code = "invalid_state"
