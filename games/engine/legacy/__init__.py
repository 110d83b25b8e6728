"""The save files of the original Decodoku apps (2016-2017): read, check, write.

``read_save`` parses a file (any line ending, a byte order mark, comment
columns, header lines, the older ``'`` layout) into a ``LegacySave``;
``write_save`` gives it back byte for byte. ``infer_moves`` recovers the
move behind every step and ``verify_save`` checks the whole record against
the rules, naming the first step (and file line) that breaks one.
``game_to_save`` writes any engine game in the same format.

Pure Python, no Django: bots, importers and the web app share it.
"""

from .analysis import MOVES_PER_ROUND, REASONS, InferredMove, Violation, analyse
from .errors import LegacyFormatError
from .export import game_to_legacy, game_to_save
from .infer import infer_moves
from .model import LegacyCell, LegacyRow, LegacySave, LegacyStep, RawLine
from .reader import read_save
from .verify import SaveVerification, describe, verify_save
from .writer import encode_save, write_save

__all__ = [
    "MOVES_PER_ROUND",
    "REASONS",
    "InferredMove",
    "LegacyCell",
    "LegacyFormatError",
    "LegacyRow",
    "LegacySave",
    "LegacyStep",
    "RawLine",
    "SaveVerification",
    "Violation",
    "analyse",
    "describe",
    "encode_save",
    "game_to_legacy",
    "game_to_save",
    "infer_moves",
    "read_save",
    "verify_save",
    "write_save",
]
