"""Engine and rule-set versions.

``ENGINE_VERSION`` names the exact behaviour of the engine: the random
generator, the order in which it is drawn from, and every rule. Every stored
game records it. Any change that could alter a single event of a game with a
given seed, rule set and moves must bump it and keep the old behaviour
available for replay; refactors that keep every event identical must not.
The replay tests pin known games to exact event streams to catch accidents.

The versions:

1. The first engine.
2. Group ids are unique within a game: when the first board is drawn again
   (it spanned or was empty), the next board's groups continue the numbering
   instead of starting again at 1. Nothing else differs: every random draw,
   value, round number and clock is the same as in version 1, and a game
   whose first board was kept at once has identical events in both.

The planar family (``games.engine.planar``) came with version 2: its games
are played and replayed from version 2 on (``PLANAR_SINCE``); nothing of it
changed any event of the other games.
"""

ENGINE_VERSION = 2
RULESET_SCHEMA_VERSION = 1
SUPPORTED_ENGINE_VERSIONS = frozenset({1, 2})

# The first version in which a regenerated first board keeps the group numbering.
UNIQUE_GROUP_IDS_SINCE = 2
# The first version that plays the planar family.
PLANAR_SINCE = 2
