"""Tests of the pure game engine (no Django needed)."""
