"""The values a rule set's fields take: their enums and bounds.

Kept apart from ``rules`` so that the rule family registry
(``games.engine.families``), which ``RuleSet`` dispatches to, can use them
without importing ``RuleSet``. ``games.engine.rules`` exports them all.
"""

from __future__ import annotations

from enum import StrEnum

COLORS = "colors"
"""The stored variant (column) of a Colors record: played by the Z10 rules, group numbers
only (``Decodoku: Colors`` and the oldest Z10 saves)."""

MIN_SIZE = 3
MAX_SIZE = 16  # the original game: the web, the API and budget sweeps
MAX_FAMILY_SIZE = 64  # the threshold families: bots and threshold sweeps
MAX_BUDGET = 100.0
MAX_MOVES_PER_ROUND = 100
# Per-edge error rates of the threshold families. A floor keeps a sustained
# game on a small board from drawing empty rounds for ever.
MIN_ERROR_RATE = 0.0001
MAX_ERROR_RATE = 1.0
MAX_MOVES_PER_CELL = 10.0
# The planar family's values live in Z_d; d = 10 is the game's own modulus.
MIN_MODULUS = 2
MAX_MODULUS = 10


class Variant(StrEnum):
    """The arithmetic of the game's numbers."""

    Z10 = "z10"
    PHI_LAMBDA = "phi_lambda"


class Family(StrEnum):
    """A family of rule sets for threshold studies (the original game has none).

    What each family is and does lives in its kind (``games.engine.families``).
    """

    ONE_SHOT = "one_shot"
    SUSTAINED = "sustained"
    PLANAR = "planar"


class MergeLabel(StrEnum):
    """Which id survives when a move merges two groups.

    Only a label: the outcome of a game never depends on it.
    """

    DESTINATION = "destination"  # the iOS app (2016)
    MOVED = "moved"  # the later apps (2016-2017) and their save files
