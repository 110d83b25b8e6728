"""The site's domain errors: what services and selectors raise on purpose.

Each error has a stable machine-readable ``code``, a human ``message`` and
optional ``extra`` details (for example the current step of a game). The API
turns them into HTTP responses in one place
(``core.api.api_exception_handler``); services and selectors know nothing
about HTTP. Apps subclass these for their own cases (``games.errors``).
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


class NotFound(DomainError):
    """The object does not exist, or it is not the caller's (the two look alike)."""

    code = "not_found"
    default_message = "Not found."


class Conflict(DomainError):
    """The request does not fit the current state of the object."""

    code = "conflict"


class RuleViolation(DomainError):
    """What was sent breaks a rule of the game (an illegal move, a bad save file)."""

    code = "rule_violation"
    default_message = "That breaks a rule of the game."


class PayloadTooLarge(DomainError):
    code = "file_too_large"
    default_message = "The upload is too large."
