"""Engine and rule-set versions.

``ENGINE_VERSION`` names the exact behaviour of the engine: the random
generator, the order in which it is drawn from, and every rule. Every stored
game records it. Any change that could alter a single event of a game with a
given seed, rule set and moves must bump it and keep the old behaviour
available for replay; refactors that keep every event identical must not.
The replay tests pin known games to exact event streams to catch accidents.
"""

ENGINE_VERSION = 1
RULESET_SCHEMA_VERSION = 1
SUPPORTED_ENGINE_VERSIONS = frozenset({1})
