"""Decodoku games: the Django app around the pure game engine.

Keep this file free of Django imports: ``games.engine`` must stay importable,
and testable, without Django being configured.
"""
