"""The registry of rule families: one kind per family, the original game first.

Adding a family: write its module (a ``FamilyKind``: see ``base`` and the
modules beside it), add its member to ``Family`` (``games.engine.rulevalues``)
and register its kind below.
"""

from __future__ import annotations

from .base import FamilyKind, kind_named, kind_of, kinds, register, stored_kind
from .one_shot import ONE_SHOT_KIND
from .original import ORIGINAL_KIND
from .planar import PLANAR_KIND
from .sustained import SUSTAINED_KIND

for _kind in (ORIGINAL_KIND, ONE_SHOT_KIND, SUSTAINED_KIND, PLANAR_KIND):
    register(_kind)

__all__ = ["FamilyKind", "kind_named", "kind_of", "kinds", "stored_kind"]
