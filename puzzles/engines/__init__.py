"""Pure engines of the logic puzzles (no Django): KenKen and Futoshiki.

See :mod:`puzzles.engines.registry` for the kinds and docs/puzzles.md for
the rules, the generation, the techniques and the engine versions.
"""
