"""Rule families: one kind per family in one registry, and the shots of threshold studies.

A rule set's ``family`` is ``None`` for the original game or a ``Family``
(one_shot, sustained, planar). Each family is a ``FamilyKind`` in its own
module (``original``, ``one_shot``, ``sustained``, ``planar``), registered
in ``registry``; ``kind_of(family)`` (or ``RuleSet.kind``) gives it. See
``docs/architecture.md`` ("Rule families") for how to add one.

The registry is imported before ``shots``: the rules (which ``shots``
imports) dispatch to it.
"""

from __future__ import annotations

from ..rulevalues import Family
from ..shot import ShotOutcome
from .base import NO_FAMILY, FamilyKind, parse_family
from .registry import kind_named, kind_of, kinds, stored_kind
from .seeds import bot_seed, shot_seed
from .shots import family_shot_seed, play_shot, play_shots, threshold_rules
from .threshold import decode

__all__ = [
    "NO_FAMILY",
    "Family",
    "FamilyKind",
    "ShotOutcome",
    "bot_seed",
    "decode",
    "family_shot_seed",
    "kind_named",
    "kind_of",
    "kinds",
    "parse_family",
    "play_shot",
    "play_shots",
    "shot_seed",
    "stored_kind",
    "threshold_rules",
]
