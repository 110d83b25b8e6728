"""Writes about players: creating them, their consent and noting when they were last seen."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.consent import ACCEPTED_CONSENT_VERSIONS
from games.errors import (
    ConsentChoiceRequired,
    DisplayNameTaken,
    InvalidDisplayName,
    InvalidInput,
    NotFound,
)
from games.models import ConsentChange, Game, Player
from games.names import (
    DisplayNameError,
    display_name_key,
    display_name_shape_key,
    validate_display_name,
)
from games.tokens import (
    hash_recovery_code,
    hash_token,
    new_recovery_code,
    new_token,
    normalize_recovery_code,
    token_prefix,
)

CONSENT_VERSION_MAX_LENGTH = 32
# The consent marker of the platform's decoder bots: their games are research data by
# construction (no person is involved).
BOT_CONSENT_VERSION = "bot"
# last_seen_at is refreshed at most this often, so that requests rarely write.
LAST_SEEN_RESOLUTION = timedelta(minutes=5)


@transaction.atomic
def player_create(
    *,
    consent_version: str | None,
    user: User | None = None,
    accepted_versions: Collection[str] = ACCEPTED_CONSENT_VERSIONS,
    consent_decided: bool = True,
) -> tuple[Player, str]:
    """Create a pseudonymous player; return it and its API token.

    A person's consent counts only in a version of the consent text on record
    (``accepted_versions``, by default the ones shown to players); the
    platform's own decoder bots pass their own marker instead.

    ``consent_decided``: whether ``consent_version`` is the person's answer
    (yes, or None for no). An API client that sends no answer at all passes
    False: the player then counts as never asked (no consent), and the web
    pages ask them before their first game there.

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
        consent_decided_at=now if consent_decided else None,
        created_at=now,
        last_seen_at=now,
    )
    ConsentChange.objects.create(player=player, version=consent_version, at=now)
    return player, token


@transaction.atomic
def player_for_bot(*, username: str) -> Player:
    """The player under which a bot records its games, made on first use.

    Each bot has one pseudonymous player with the bots' consent marker, tied
    to an inactive user named ``username`` (no password, no sign-in), and
    marked ``is_platform_bot``: the only way a player becomes one, so that no
    request can give a person's games a bot's place in the research data.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    player = Player.objects.filter(user=user).first()
    if player is None:
        player, _token = player_create(
            consent_version=BOT_CONSENT_VERSION,
            user=user,
            accepted_versions={BOT_CONSENT_VERSION},
        )
    if not player.is_platform_bot:
        Player.objects.filter(pk=player.pk).update(is_platform_bot=True)
        player.is_platform_bot = True
    return player


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
    chose writes nothing. The first answer of a player who was never asked is
    recorded even when it keeps their (lack of) consent: a "no" is a choice.
    """
    consent_version = _checked_consent(consent_version, accepted_versions)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.consent_version == consent_version and locked.consent_decided_at is not None:
        return locked
    now = timezone.now()
    locked.consent_version = consent_version
    locked.consented_at = now if consent_version is not None else None
    locked.consent_decided_at = now
    locked.save(update_fields=["consent_version", "consented_at", "consent_decided_at"])
    ConsentChange.objects.create(player=locked, version=consent_version, at=now)
    player.consent_version, player.consented_at = locked.consent_version, locked.consented_at
    player.consent_decided_at = locked.consent_decided_at
    return locked


def player_require_consent_choice(*, player: Player, source: str) -> None:
    """Refuse a game from the web page of a player who never answered the research question.

    Games started on the site's pages and save files uploaded on its upload page
    both come with ``source`` ``web``. The pages ask before the first game (or
    upload); this keeps that promise even for a page left open from before, or a
    request made by hand with the session. Token
    clients (source ``api``) keep the documented flow: a player they created
    without an answer has no consent, so their games never leave the site.
    """
    if source == Game.Source.WEB and player.consent_decided_at is None:
        raise ConsentChoiceRequired()


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


@transaction.atomic
def player_set_display_name(*, player: Player, display_name: str | None) -> Player:
    """Set (or, with None or an empty text, remove) the name shown for ``player`` on leaderboards.

    The name is checked by ``games.names.validate_display_name``; a name that
    breaks a rule raises :class:`InvalidDisplayName` and one that another
    player has (in any case) :class:`DisplayNameTaken`. Either way nothing
    changes.
    """
    name: str | None = None
    key: str | None = None
    shape_key: str | None = None
    if display_name is not None and display_name.strip():
        try:
            name = validate_display_name(display_name)
        except DisplayNameError as exc:
            raise InvalidDisplayName(
                exc.message, code=exc.code, fields={"display_name": [exc.message]}
            ) from None
        key, shape_key = display_name_key(name), display_name_shape_key(name)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    others = Player.objects.filter(
        Q(display_name_key=key) | Q(display_name_shape_key=shape_key)
    ).exclude(pk=player.pk)
    if key is not None and others.exists():
        raise DisplayNameTaken(fields={"display_name": ["Another player has this name."]})
    locked.display_name, locked.display_name_key = name, key
    locked.display_name_shape_key = shape_key
    try:
        with transaction.atomic():
            locked.save(
                update_fields=["display_name", "display_name_key", "display_name_shape_key"]
            )
    except IntegrityError:
        # Taken by a request that committed between the check and the save.
        raise DisplayNameTaken(fields={"display_name": ["Another player has this name."]}) from None
    player.display_name, player.display_name_key = name, key
    player.display_name_shape_key = shape_key
    return locked


@dataclass(frozen=True, slots=True)
class ForgetResult:
    """What ``player_forget`` did: the player's id and how many games it deleted."""

    player_id: uuid.UUID
    games_deleted: int
    already_forgotten: bool


@transaction.atomic
def player_forget(*, player_id: uuid.UUID | str, delete_games: bool = False) -> ForgetResult:
    """Forget a player on request: remove everything that ties their games to a person.

    Removed: the API token (its hash is replaced by one of a random value
    nobody knows), the recovery code, the display name, the link to a user
    account, the last-seen time and the browser details (user agent) kept on
    their games. Every session that held the player stops resolving to it
    (``player_by_id`` ignores forgotten players), so no browser plays as them
    again. Their consent is set to none (a last consent change is recorded) and
    the consent history stays: it says under which consent the games kept in
    the research data were given, and names no one.

    The games stay, under the same pseudonym (a keyed hash of the player id,
    which now leads to no token, code, name or browser). With
    ``delete_games`` the player's games, their events, notes and boards, and
    the player row with its consent history are deleted instead.

    Forgetting a forgotten player changes nothing (with ``delete_games`` it
    still deletes). An unknown id raises :class:`NotFound`.
    """
    try:
        key = uuid.UUID(str(player_id))
    except ValueError:
        raise NotFound("No such player.") from None
    player = Player.objects.select_for_update().filter(pk=key).first()
    if player is None:
        raise NotFound("No such player.")
    already = player.forgotten_at is not None
    if delete_games:
        games = Game.objects.filter(player=player)
        count = games.count()
        games.delete()
        player.delete()
        return ForgetResult(player_id=key, games_deleted=count, already_forgotten=already)
    if already:
        return ForgetResult(player_id=key, games_deleted=0, already_forgotten=True)
    now = timezone.now()
    unknowable = secrets.token_hex(32)
    player.token_prefix = ""
    player.token_hash = hash_token(unknowable)
    player.recovery_hash = None
    player.recovery_created_at = None
    player.display_name = None
    player.display_name_key = None
    player.display_name_shape_key = None
    player.user = None
    player.last_seen_at = None
    if player.consent_version is not None:
        player.consent_version = None
        player.consented_at = None
        ConsentChange.objects.create(player=player, version=None, at=now)
    player.forgotten_at = now
    player.save()
    Game.objects.filter(player=player).update(client_info={})
    return ForgetResult(player_id=key, games_deleted=0, already_forgotten=False)
