"""Domain errors of the games app.

Each error has a stable machine-readable ``code``, a human ``message`` and
optional ``extra`` details (for example the current step of a game). The API
turns them into HTTP responses in one place
(``games.api.exceptions.api_exception_handler``); services and selectors know
nothing about HTTP.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base class of every error a service or selector raises on purpose."""

    code = "domain_error"
    default_message = "The request could not be carried out."

    def __init__(self, message: str | None = None, *, code: str | None = None, **extra: Any):
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        self.extra = extra
        super().__init__(self.message)


class InvalidInput(DomainError):
    """The request is well formed but a value is not acceptable."""

    code = "invalid_request"
    default_message = "A value in the request is not acceptable."


class InvalidRules(InvalidInput):
    code = "invalid_rule_set"
    default_message = "The rule set is not valid."


class InvalidStep(InvalidInput):
    code = "invalid_step"
    default_message = "There is no board at that step."


class NotFound(DomainError):
    """The object does not exist, or it is not the caller's (the two look alike)."""

    code = "not_found"
    default_message = "Not found."


class Conflict(DomainError):
    """The request does not fit the current state of the game."""

    code = "conflict"


class StaleStep(Conflict):
    code = "stale_step"
    default_message = "The game is not at that step."


class GameOver(Conflict):
    code = "game_over"
    default_message = "The game is over."


class RuleViolation(DomainError):
    """What was sent breaks a rule of the game (an illegal move, a bad save file)."""

    code = "rule_violation"
    default_message = "That breaks a rule of the game."


class IllegalMoveError(RuleViolation):
    code = "illegal_move"
    default_message = "That move is not allowed."


class SaveFileRejected(RuleViolation):
    code = "invalid_save"
    default_message = "The save file is not a valid Decodoku game."


class PayloadTooLarge(DomainError):
    code = "file_too_large"
    default_message = "The upload is too large."
