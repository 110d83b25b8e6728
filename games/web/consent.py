"""The research consent shown to players.

``CONSENT_VERSION`` is the only place the current version is written down.
The wording lives in ``games/templates/games/consent/<version>.html``; when
the wording changes, add a new file and bump the version, so that every
recorded game can be traced to the exact text the player agreed to.
"""

CONSENT_VERSION = "2026-11-v1"


def consent_template(version: str = CONSENT_VERSION) -> str:
    """The template holding the wording of consent ``version``."""
    return f"games/consent/{version}.html"
