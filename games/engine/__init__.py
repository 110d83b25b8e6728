"""The Decodoku engine: pure Python, no Django, shared by the server, bots and importers.

The rules it implements are those of the original Decodoku (2016); see
``docs/rules.md`` for the rules and ``docs/engine.md`` for the conventions.
"""

from .errors import EngineError, IllegalMove, InvalidRuleSet, InvalidState, UnknownEngineVersion
from .events import (
    EVENT_TYPES,
    Event,
    GroupMerge,
    JumpAhead,
    LogicalOutcome,
    Loss,
    Move,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    Regenerated,
    event_from_dict,
)
from .families import ShotOutcome, bot_seed, decode, play_shot, shot_seed, threshold_rules
from .game import Board, Game
from .policies import POLICIES, RandomPolicy, play
from .replay import Verification, board_at, boards, moves_of, replay, verify_events
from .rng import SplitMix64
from .rules import DEFAULT_RULES, MAX_FAMILY_SIZE, Family, MergeLabel, RuleSet, Variant
from .start import AnyGame, game_from_state, new_game
from .version import ENGINE_VERSION, SUPPORTED_ENGINE_VERSIONS

__all__ = [
    "DEFAULT_RULES",
    "ENGINE_VERSION",
    "EVENT_TYPES",
    "MAX_FAMILY_SIZE",
    "POLICIES",
    "SUPPORTED_ENGINE_VERSIONS",
    "AnyGame",
    "Board",
    "EngineError",
    "Event",
    "Family",
    "Game",
    "GroupMerge",
    "IllegalMove",
    "InvalidRuleSet",
    "InvalidState",
    "JumpAhead",
    "LogicalOutcome",
    "Loss",
    "MergeLabel",
    "Move",
    "NoiseError",
    "NoiseRoundEnded",
    "NoiseRoundStarted",
    "RandomPolicy",
    "Regenerated",
    "RuleSet",
    "ShotOutcome",
    "SplitMix64",
    "UnknownEngineVersion",
    "Variant",
    "Verification",
    "board_at",
    "boards",
    "bot_seed",
    "decode",
    "event_from_dict",
    "game_from_state",
    "moves_of",
    "new_game",
    "play",
    "play_shot",
    "replay",
    "shot_seed",
    "threshold_rules",
    "verify_events",
]
