"""The research consent shown to players: where its wording lives.

The versions themselves (``CONSENT_VERSION``, ``ACCEPTED_CONSENT_VERSIONS``)
are defined in ``games.consent``, which the services use too.
"""

from games.consent import ACCEPTED_CONSENT_VERSIONS, CONSENT_VERSION

__all__ = ["ACCEPTED_CONSENT_VERSIONS", "CONSENT_VERSION", "consent_template"]


def consent_template(version: str = CONSENT_VERSION) -> str:
    """The template holding the wording of consent ``version``."""
    return f"games/consent/{version}.html"
