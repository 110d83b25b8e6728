"""Domain errors of the games app, on the site's own (``core.errors``).

The base classes are re-exported here, so that the games app's modules
import every error they raise from one place.
"""

from __future__ import annotations

from core.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    RuleViolation,
)

__all__ = [
    "Conflict",
    "ConsentChoiceRequired",
    "DailyAlreadyPlayed",
    "DailyDayOpen",
    "DisplayNameTaken",
    "DomainError",
    "GameNotFinished",
    "GameOver",
    "IllegalMoveError",
    "InvalidDisplayName",
    "InvalidInput",
    "InvalidRules",
    "InvalidStep",
    "NotFound",
    "PayloadTooLarge",
    "RuleViolation",
    "SaveFileRejected",
    "StaleStep",
]


class InvalidRules(InvalidInput):
    code = "invalid_rule_set"
    default_message = "The rule set is not valid."


class InvalidStep(InvalidInput):
    code = "invalid_step"
    default_message = "There is no board at that step."


class StaleStep(Conflict):
    code = "stale_step"
    default_message = "The game is not at that step."


class GameOver(Conflict):
    code = "game_over"
    default_message = "The game is over."


class GameNotFinished(Conflict):
    code = "game_not_finished"
    default_message = "Only a finished game can be shared."


class DailyDayOpen(Conflict):
    code = "daily_day_open"
    default_message = "A daily-challenge game can be shared once its day is over."


class IllegalMoveError(RuleViolation):
    code = "illegal_move"
    default_message = "That move is not allowed."


class SaveFileRejected(RuleViolation):
    code = "invalid_save"
    default_message = "The save file is not a valid Decodoku game."


class InvalidDisplayName(InvalidInput):
    code = "display_name_invalid"
    default_message = "This display name is not allowed."


class DisplayNameTaken(Conflict):
    code = "display_name_taken"
    default_message = "Another player has this display name."


class DailyAlreadyPlayed(Conflict):
    code = "daily_already_played"
    default_message = "You have already played this daily challenge."


class ConsentChoiceRequired(Conflict):
    """A game from the web page of a player who has not yet answered the research question."""

    code = "consent_choice_required"
    default_message = (
        "Choose first whether your games may be used for research (yes or no); "
        "then start the game."
    )
