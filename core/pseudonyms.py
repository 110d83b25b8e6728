"""Stable player pseudonyms: a keyed hash of the player id.

``pseudonym(player_id)`` is the first 24 hex characters (96 bits) of
HMAC-SHA256(key, player id). The key is ``settings.DECODOKU_PSEUDONYM_KEY``:
the same player gets the same pseudonym in every export for as long as the key
is kept, and without the key no export can be traced back to a player id.

PostgreSQL's COPY path cannot call Python, and putting the key into SQL would
log it; so for that path the pseudonyms of the export's players are computed
here and loaded into a temporary mapping table (``research_pseudonym``) that
the COPY query joins.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import BaseDatabaseWrapper

PSEUDONYM_LENGTH = 24
MAPPING_TABLE = "research_pseudonym"


@lru_cache(maxsize=4)
def _derived_key(configured: str, secret_key: str) -> bytes:
    if configured:
        return configured.encode()
    if not secret_key:
        raise ImproperlyConfigured(
            "Pseudonyms need DECODOKU_PSEUDONYM_KEY or SECRET_KEY to be set: without a key "
            "they would differ from those of the site's exports."
        )
    # A key of its own, so that pseudonyms reveal nothing usable about SECRET_KEY.
    return hashlib.sha256(b"decodoku-pseudonym-key:" + secret_key.encode()).digest()


def pseudonym_key() -> bytes:
    return _derived_key(settings.DECODOKU_PSEUDONYM_KEY or "", settings.SECRET_KEY or "")


def pseudonym(player_id: uuid.UUID | str) -> str:
    """The pseudonym of a player id (a UUID, or its text in any usual form)."""
    text = str(player_id if isinstance(player_id, uuid.UUID) else uuid.UUID(str(player_id)))
    digest = hmac.new(pseudonym_key(), text.encode(), hashlib.sha256)
    return digest.hexdigest()[:PSEUDONYM_LENGTH]


def is_pseudonym(text: str) -> bool:
    return len(text) == PSEUDONYM_LENGTH and all(c in "0123456789abcdef" for c in text)


def player_ids_with_pseudonym(
    *, pseudonym_text: str, player_ids: Iterable[uuid.UUID]
) -> list[uuid.UUID]:
    """The ids among ``player_ids`` whose pseudonym is ``pseudonym_text`` (normally one)."""
    return [player_id for player_id in player_ids if pseudonym(player_id) == pseudonym_text]


def load_mapping(*, connection: BaseDatabaseWrapper, player_ids: Iterable[uuid.UUID]) -> None:
    """Fill the session's mapping table with the pseudonyms of ``player_ids`` (PostgreSQL).

    Runs inside the export's transaction: the table is dropped at its end.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {MAPPING_TABLE} "
            "(player_id uuid PRIMARY KEY, pseudonym text NOT NULL) ON COMMIT DROP"
        )
        cursor.execute(f"TRUNCATE {MAPPING_TABLE}")
        # Read every id first: the connection can run no query while COPY is open.
        player_ids = list(player_ids)
        with cursor.cursor.copy(f"COPY {MAPPING_TABLE} (player_id, pseudonym) FROM STDIN") as copy:
            for player_id in player_ids:
                copy.write_row((player_id, pseudonym(player_id)))
        cursor.execute(f"ANALYZE {MAPPING_TABLE}")
