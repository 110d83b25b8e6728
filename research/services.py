"""Writes of the research area: curating which games count as research data, and
requests for research access."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.db import transaction

from core.errors import InvalidInput
from games.models import Game
from research.models import AccessRequest

REASON_MAX_LENGTH: int = Game._meta.get_field("excluded_reason").max_length  # type: ignore[assignment]  # a CharField's is set


@transaction.atomic
def games_set_excluded(
    *, game_ids: Iterable[uuid.UUID], excluded: bool, reason: str = ""
) -> list[Game]:
    """Exclude games from research data (with a reason) or include them again.

    Returns the games whose flag or reason actually changed, so that callers
    log exactly those. The recorded events are never touched: exclusion only
    hides a game from exports unless a researcher asks for excluded games.
    """
    reason = " ".join(reason.split())
    if excluded and not reason:
        raise InvalidInput("A reason is required to exclude games from research.")
    if len(reason) > REASON_MAX_LENGTH:
        raise InvalidInput(f"The reason may have at most {REASON_MAX_LENGTH} characters.")
    target_reason = reason if excluded else ""
    changed = list(
        Game.objects.select_for_update()
        .filter(pk__in=list(game_ids))
        .exclude(excluded_from_research=excluded, excluded_reason=target_reason)
        .order_by("pk")
    )
    for game in changed:
        game.excluded_from_research = excluded
        game.excluded_reason = target_reason
    Game.objects.bulk_update(changed, ["excluded_from_research", "excluded_reason"])
    return changed


def access_request_create(
    *, name: str, email: str, institution: str, purpose: str, **_: object
) -> AccessRequest:
    """Record a request for research access; the admins see it in the admin's list."""
    return AccessRequest.objects.create(
        name=name, email=email, institution=institution, purpose=purpose
    )
