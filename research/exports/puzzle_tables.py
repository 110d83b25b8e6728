"""The puzzles' export tables are declared in ``puzzles/research_tables.py``.

This module only keeps the names that code elsewhere imports from here.
"""

from puzzles.research_tables import ACTIONS, DIFFICULTIES, KINDS, PUZZLES

__all__ = ["ACTIONS", "DIFFICULTIES", "KINDS", "PUZZLES"]
