"""The research consent's versions: which one is current and which a player may agree to.

``CONSENT_VERSION`` is the only place the current version is written down.
The wording lives in ``games/templates/games/consent/<version>.html``
(``consent_template``); when the wording changes, add a new
file and bump the version, so that every recorded game can be traced to the
exact text the player agreed to. The services check consent against these
versions, the web pages show the wording (any app's pages: the research
citation page quotes it too), so the versions live here, below both.
"""

CONSENT_VERSION = "2026-11-v1"

# The versions a new player may still agree to: the current one, and any
# earlier wording a page still open in a browser may show during a change-over
# (add the old version here for a day when bumping CONSENT_VERSION). Anything
# else sent as consent_version is refused with 400: only a version whose
# wording is on record counts as consent.
ACCEPTED_CONSENT_VERSIONS: frozenset[str] = frozenset({CONSENT_VERSION})


def consent_template(version: str = CONSENT_VERSION) -> str:
    """The template holding the wording of consent ``version``."""
    return f"games/consent/{version}.html"
