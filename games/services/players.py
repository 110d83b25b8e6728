"""Writes about players: creating them, their consent and noting when they were last seen."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.errors import InvalidInput
from games.models import ConsentChange, Player
from games.tokens import (
    hash_recovery_code,
    hash_token,
    new_recovery_code,
    new_token,
    normalize_recovery_code,
    token_prefix,
)
from games.web.consent import ACCEPTED_CONSENT_VERSIONS

CONSENT_VERSION_MAX_LENGTH = 32
# last_seen_at is refreshed at most this often, so that requests rarely write.
LAST_SEEN_RESOLUTION = timedelta(minutes=5)


@transaction.atomic
def player_create(
    *,
    consent_version: str | None,
    user: User | None = None,
    accepted_versions: Collection[str] = ACCEPTED_CONSENT_VERSIONS,
) -> tuple[Player, str]:
    """Create a pseudonymous player; return it and its API token.

    A person's consent counts only in a version of the consent text on record
    (``accepted_versions``, by default the ones shown to players); the
    platform's own decoder bots pass their own marker instead.

    The token is returned only here: the database keeps its SHA-256 and its
    first characters, so a lost token cannot be recovered.
    """
    consent_version = _checked_consent(consent_version, accepted_versions)
    token = new_token()
    now = timezone.now()
    player = Player.objects.create(
        token_prefix=token_prefix(token),
        token_hash=hash_token(token),
        user=user,
        consent_version=consent_version,
        consented_at=now if consent_version is not None else None,
        created_at=now,
        last_seen_at=now,
    )
    ConsentChange.objects.create(player=player, version=consent_version, at=now)
    return player, token


def _checked_consent(consent_version: str | None, accepted_versions: Collection[str]) -> str | None:
    """The consent version stripped, or InvalidInput when it is not one on record."""
    if consent_version is not None:
        consent_version = consent_version.strip()
        if not consent_version or len(consent_version) > CONSENT_VERSION_MAX_LENGTH:
            raise InvalidInput(
                f"consent_version must be 1 to {CONSENT_VERSION_MAX_LENGTH} characters or null"
            )
        if consent_version not in accepted_versions:
            accepted = ", ".join(sorted(accepted_versions))
            raise InvalidInput(
                f"consent_version must be the version of the consent shown ({accepted}) or null",
                fields={"consent_version": ["This consent version is not accepted."]},
            )
    return consent_version


@transaction.atomic
def player_set_consent(
    *,
    player: Player,
    consent_version: str | None,
    accepted_versions: Collection[str] = ACCEPTED_CONSENT_VERSIONS,
) -> Player:
    """Change the research consent of ``player`` (null: none, or withdrawn).

    The player stays the same (their games and bests stay theirs); the
    choice applies to the games they start from now on, each game keeping
    the choice it was started under. Every change is kept as a
    :class:`ConsentChange` with its time; choosing what the player already
    chose writes nothing.
    """
    consent_version = _checked_consent(consent_version, accepted_versions)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.consent_version == consent_version:
        return locked
    now = timezone.now()
    locked.consent_version = consent_version
    locked.consented_at = now if consent_version is not None else None
    locked.save(update_fields=["consent_version", "consented_at"])
    ConsentChange.objects.create(player=locked, version=consent_version, at=now)
    player.consent_version, player.consented_at = locked.consent_version, locked.consented_at
    return locked


@transaction.atomic
def player_new_recovery_code(*, player: Player) -> str:
    """Make a new recovery code for ``player`` and return it; an earlier code stops working.

    Only the code's SHA-256 is stored, so the code is shown only this once.
    """
    code = new_recovery_code()
    normalized = normalize_recovery_code(code)
    assert normalized is not None  # noqa: S101 - a new code is always well formed
    Player.objects.filter(pk=player.pk).update(
        recovery_hash=hash_recovery_code(normalized), recovery_created_at=timezone.now()
    )
    return code


def player_touch(*, player: Player) -> None:
    """Record that the player was seen now (at most one write per few minutes)."""
    now = timezone.now()
    if player.last_seen_at is not None and now - player.last_seen_at < LAST_SEEN_RESOLUTION:
        return
    Player.objects.filter(pk=player.pk).update(last_seen_at=now)
    player.last_seen_at = now
