"""Where a game's score stands among everyone's games at the same rules."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from datetime import datetime

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils import timezone

from games.models import Game
from games.rulesets import RULE_GROUP_FIELDS, RuleGroup, rule_group

# Everyone's scores per rule set change slowly: My games reads them from the cache
# for this long (a game the player ended since is added to them).
SCORE_COUNTS_SECONDS = 60

# A rule set (``games.rulesets.RULE_GROUP_FIELDS``) and the mode (practice apart).
ScoreGroup = tuple[RuleGroup, str]


def _score_counts_key(group: ScoreGroup) -> str:
    rules, mode = group
    return f"decodoku:score-counts:{rules.label}:{mode}"


def score_counts(
    *, groups: Collection[ScoreGroup]
) -> dict[ScoreGroup, tuple[datetime, dict[int, int]]]:
    """People's finished games per score at each (rule group, mode), and when they were counted.

    Counted in one query for the groups not in the cache, then kept there for
    ``SCORE_COUNTS_SECONDS``.
    """
    keys = {group: _score_counts_key(group) for group in groups}
    cached = cache.get_many(list(keys.values()))
    found = {group: cached[key] for group, key in keys.items() if key in cached}
    missing = [group for group in groups if group not in found]
    if missing:
        counted_at = timezone.now()
        wanted = Q()
        for rules, mode in missing:
            wanted |= Q(mode=mode, **{name: getattr(rules, name) for name in RULE_GROUP_FIELDS})
        counts: dict[ScoreGroup, dict[int, int]] = {group: {} for group in missing}
        for *values, mode, score, n in (
            Game.objects.human()
            .finished()
            .filter(wanted)
            .values_list(*RULE_GROUP_FIELDS, "mode", "score")
            .annotate(n=Count("id"))
            .order_by()
        ):
            counts[(RuleGroup(*values), mode)][score] = n
        fresh = {group: (counted_at, counts[group]) for group in missing}
        cache.set_many(
            {keys[group]: value for group, value in fresh.items()}, timeout=SCORE_COUNTS_SECONDS
        )
        found.update(fresh)
    return found


def score_percentiles(*, games: Sequence[Game]) -> dict[uuid.UUID, tuple[float, int]]:
    """Where each finished game's score stands among everyone's finished games at its rules.

    The rules are the game's rule group (``games.rulesets.rule_group``:
    variant, size, noise budget and moves per round) and its mode (practice
    apart); the games compared are people's (bots' games are not), lost or abandoned,
    the game itself included (planar games have none). The percentile is the
    share of those games that scored less, counting ties as half (the
    mid-rank percentile), in percent: 100 only when the game beat every other
    one. Returns, per game id, the percentile and the number of games
    compared.

    Everyone's scores may be up to ``SCORE_COUNTS_SECONDS`` old
    (:func:`score_counts`); a game of the player that ended after they were
    counted is added to them, so it always counts itself.
    """
    # Games without groups (planar) are judged by their logical outcome, not by a score.
    finished = [game for game in games if not game.is_active and game.kind.grouped]
    groups: dict[ScoreGroup, list[Game]] = {}
    for game in finished:
        groups.setdefault((rule_group(game), game.mode), []).append(game)
    if not groups:
        return {}
    result: dict[uuid.UUID, tuple[float, int]] = {}
    for group, (counted_at, counted) in score_counts(groups=list(groups)).items():
        members = groups[group]
        per_score = dict(counted)
        for game in members:
            # Ended after the count (or committed after it): not in it yet.
            ended_since = game.ended_at is not None and game.ended_at >= counted_at
            if ended_since or game.score not in per_score:
                per_score[game.score] = per_score.get(game.score, 0) + 1
        total = sum(per_score.values())
        below = 0
        below_score: dict[int, int] = {}
        for score in sorted(per_score):
            below_score[score] = below
            below += per_score[score]
        for game in members:
            value = 100.0 * (below_score[game.score] + 0.5 * per_score[game.score]) / total
            result[game.pk] = (round(value, 1), total)
    return result
