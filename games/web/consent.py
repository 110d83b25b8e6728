"""The research consent shown to players, for the web pages.

The versions and the template of each wording (``CONSENT_VERSION``,
``ACCEPTED_CONSENT_VERSIONS``, ``consent_template``) are defined in
``games.consent``, which the services and other apps use too.
"""

from games.consent import ACCEPTED_CONSENT_VERSIONS, CONSENT_VERSION, consent_template

__all__ = ["ACCEPTED_CONSENT_VERSIONS", "CONSENT_VERSION", "consent_template"]
