"""Reads: finding players and games, and what a player may see of a game.

What is shown follows the rules of the game and of the research:

* group ids of an active game are never shown in normal mode (inferring them
  is the research problem); practice mode shows them;
* in the Phi-Lambda variant an active game shows a 5 as ``L`` (Lambda) and
  every other number as ``P`` (Phi), never the number itself;
* the seed of an active game is never shown (it would reveal all the noise
  to come);
* once a game has ended everything is shown: seed, values, groups, every
  event and the board after every step (the replay);
* a planar game (``games.engine.planar``) shows its values (Z_d) while it
  is active but neither its events nor its noise: they tell the charge
  carried across the sides, the logical outcome, which is shown only once
  the board is clean (``outcome``).

Boards are given as rows of one character per cell: ``0`` for empty and the
value ``1``-``9``, or the symbols above (and, for partially observed save
files, those of ``games.recording.PARTIAL_SYMBOLS``).
"""

from __future__ import annotations

import hmac
import re
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from core.pseudonyms import pseudonym
from games.daily import day_is_open
from games.daily import today as daily_today
from games.engine import ORIGINAL, Variant
from games.errors import InvalidStep, NotFound
from games.models import BoardSnapshot, ConsentChange, DailyChallenge, Event, Game, Player
from games.recording import MOVE_ONLY_COLUMNS, event_dict, parse_labels
from games.rulesets import NO_FAMILY, rules_columns
from games.tokens import (
    TOKEN_MAX_LENGTH,
    TOKEN_PREFIX_LENGTH,
    hash_recovery_code,
    hash_token,
    normalize_recovery_code,
    token_prefix,
)

MASKED_VALUES = {"0": "0", "5": "L"}


# -- players -----------------------------------------------------------------


def player_by_token(*, token: str) -> Player | None:
    """The player whose API token this is, comparing hashes in constant time."""
    if not TOKEN_PREFIX_LENGTH < len(token) <= TOKEN_MAX_LENGTH:
        return None
    digest = hash_token(token)
    for player in Player.objects.filter(token_prefix=token_prefix(token)):
        if hmac.compare_digest(player.token_hash, digest):
            return player
    return None


def player_by_id(*, player_id: str | uuid.UUID) -> Player | None:
    try:
        key = uuid.UUID(str(player_id))
    except ValueError:
        return None
    # A forgotten player is no one's: a session still holding the id finds nobody.
    return Player.objects.filter(pk=key, forgotten_at__isnull=True).first()


def player_consent_view(*, player: Player) -> dict[str, Any]:
    """The player's current research consent and every choice they made, oldest first."""
    changes = ConsentChange.objects.filter(player=player).order_by("at", "id")
    return {
        "player_id": str(player.pk),
        "consent_version": player.consent_version,
        "consented_at": player.consented_at.isoformat() if player.consented_at else None,
        "history": [
            {"consent_version": change.version, "at": change.at.isoformat()} for change in changes
        ],
    }


def player_personal_bests(*, player: Player) -> list[dict[str, Any]]:
    """The player's best score per variant, size and mode, over the games they lost.

    Practice games (the groups are shown) are a row of their own and never
    count as the best of a normal game; abandoned and active games do not
    count. Sorted by variant, size, then normal before practice.
    """
    rows = (
        Game.objects.filter(player=player, status=Game.Status.LOST)
        .values("variant", "size", "mode")
        .annotate(best_score=Max("score"), best_rounds=Max("rounds"), games=Count("id"))
    )
    bests = [
        {
            "variant": row["variant"],
            "size": row["size"],
            "mode": row["mode"],
            "best_score": row["best_score"],
            "best_rounds": row["best_rounds"],
            "games": row["games"],
        }
        for row in rows
    ]
    bests.sort(key=lambda row: (row["variant"], row["size"], row["mode"] != Game.Mode.NORMAL))
    return bests


def player_by_recovery_code(*, code: str) -> Player | None:
    """The player whose recovery code this is; None for a malformed or unknown code."""
    normalized = normalize_recovery_code(code)
    if normalized is None:
        return None
    return Player.objects.filter(recovery_hash=hash_recovery_code(normalized)).first()


def days_streaks(*, days: Iterable[date], today: date) -> dict[str, int]:
    """Streaks of consecutive days: the current one (ending today or yesterday) and the longest."""
    ordered = sorted(set(days))
    longest = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return {"current": current, "longest": longest, "days_played": len(ordered)}


def player_label(*, player_id: uuid.UUID, display_name: str | None) -> str:
    """How a player appears on a leaderboard: their display name, else their pseudonym."""
    return display_name or pseudonym(player_id)


def display_names(*, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The display names of those of ``player_ids`` who have one (for leaderboards only)."""
    rows = Player.objects.filter(pk__in=list(player_ids), display_name__isnull=False)
    return {pk: name for pk, name in rows.values_list("pk", "display_name") if name}


# Everyone's scores per rule set change slowly: My games reads them from the cache
# for this long (a game the player ended since is added to them).
SCORE_COUNTS_SECONDS = 60

RuleGroup = tuple[str, int, str]


def _score_counts_key(group: RuleGroup) -> str:
    variant, size, mode = group
    return f"decodoku:score-counts:{variant}:{size}:{mode}"


def score_counts(
    *, groups: Collection[RuleGroup]
) -> dict[RuleGroup, tuple[datetime, dict[int, int]]]:
    """People's finished games per score at each (variant, size, mode), and when they were counted.

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
        for variant, size, mode in missing:
            wanted |= Q(variant=variant, size=size, mode=mode)
        counts: dict[RuleGroup, dict[int, int]] = {group: {} for group in missing}
        for variant, size, mode, score, n in (
            Game.objects.human()
            .finished()
            .filter(wanted)
            .values_list("variant", "size", "mode", "score")
            .annotate(n=Count("id"))
            .order_by()
        ):
            counts[(variant, size, mode)][score] = n
        fresh = {group: (counted_at, counts[group]) for group in missing}
        cache.set_many(
            {keys[group]: value for group, value in fresh.items()}, timeout=SCORE_COUNTS_SECONDS
        )
        found.update(fresh)
    return found


def score_percentiles(*, games: Sequence[Game]) -> dict[uuid.UUID, tuple[float, int]]:
    """Where each finished game's score stands among everyone's finished games at its rules.

    The rules are the variant, the size and the mode (practice apart); the
    games compared are people's (bots' games are not), lost or abandoned,
    the game itself included (planar games have none). The percentile is the
    share of those games that scored less, counting ties as half (the
    mid-rank percentile), in percent: 100 only when the game beat every other
    one. Returns, per game id, the percentile and the number of games
    compared.

    Everyone's scores may be up to ``SCORE_COUNTS_SECONDS`` old
    (:func:`score_counts`); a game of the player that ended after they were
    counted is added to them, so it always counts itself.
    """
    # Planar games are judged by their logical outcome, not by a score to compare.
    finished = [game for game in games if not game.is_active and game.family == NO_FAMILY]
    groups: dict[RuleGroup, list[Game]] = {}
    for game in finished:
        groups.setdefault((game.variant, game.size, game.mode), []).append(game)
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


def player_games_view(*, player: Player, today: date, limit: int = 200) -> dict[str, Any]:
    """The "My games" view: the newest games, the personal bests and the streaks of days played.

    Days are calendar days (UTC) on which the player started a game. Each
    finished game has its percentile among everyone's games at its rules
    (:func:`score_percentiles`).
    """
    games = list(game_list_for_player(player=player).select_related("daily")[:limit])
    started_days = Game.objects.filter(player=player).values_list("started_at", flat=True)
    percentiles = score_percentiles(games=games)
    return {
        "player_id": str(player.pk),
        "display_name": player.display_name,
        "games": [
            {
                "id": str(game.pk),
                "started_at": game.started_at.isoformat(),
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                "variant": game.variant,
                "size": game.size,
                "mode": game.mode,
                "source": game.source,
                "score": game.score,
                "rounds": game.rounds,
                "status": game.status,
                "daily_date": game.daily.date.isoformat() if game.daily else None,
                "percentile": percentiles[game.pk][0] if game.pk in percentiles else None,
                "compared_with": percentiles[game.pk][1] if game.pk in percentiles else None,
            }
            for game in games
        ],
        "bests": player_personal_bests(player=player),
        "streak": days_streaks(days=(moment.date() for moment in started_days), today=today),
        "recovery_code_created_at": (
            player.recovery_created_at.isoformat() if player.recovery_created_at else None
        ),
    }


# -- games -------------------------------------------------------------------


def game_list_for_player(*, player: Player) -> QuerySet[Game]:
    """The player's games, newest first."""
    return Game.objects.filter(player=player).order_by("-started_at", "-id")


def game_get_for_player(*, game_id: uuid.UUID, player: Player) -> Game:
    """The game, if it is the player's. Another player's game is simply not found."""
    game = Game.objects.filter(pk=game_id, player=player).first()
    if game is None:
        raise NotFound("No such game.")
    return game


def game_events(*, game: Game) -> QuerySet[Event]:
    return Event.objects.filter(game=game).order_by("seq")


def game_snapshots(*, game: Game) -> QuerySet[BoardSnapshot]:
    return BoardSnapshot.objects.filter(game=game).order_by("step")


def game_last_step(*, game: Game) -> int:
    """The last step with a board: the number of moves, or of steps of a save file."""
    if game.source != Game.Source.LEGACY_UPLOAD:
        return game.moves_count
    last = game_snapshots(game=game).values_list("step", flat=True).last()
    return last or 0


def game_board_at(*, game: Game, step: int) -> BoardSnapshot:
    """The board after ``step`` moves (0: the first board)."""
    last = game_last_step(game=game)
    if not 0 <= step <= last:
        raise InvalidStep(f"step must be between 0 and {last}", current_step=last)
    snapshot = game_snapshots(game=game).filter(step=step).first()
    if snapshot is None:
        # A save file with a gap at this step.
        raise InvalidStep(f"the game has no board at step {step}", current_step=last)
    return snapshot


# -- what a player may see ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Visibility:
    values: bool  # the numbers themselves (not only Phi / Lambda)
    groups: bool
    seed: bool
    events: bool  # the full engine events, which carry values and groups


def seed_withheld(*, game: Game) -> bool:
    """Whether the seed of ``game`` must not be shown (``games.models.seed_withheld_condition``).

    While the game is active, and for a daily-challenge game while its day is open.
    """
    if game.is_active:
        return True
    return game.daily is not None and day_is_open(day=game.daily.date)


def game_visibility(*, game: Game) -> Visibility:
    if not game.is_active:
        return Visibility(values=True, groups=True, seed=not seed_withheld(game=game), events=True)
    if game.family != NO_FAMILY:
        # A planar game's events (its noise) would tell the charge across the sides.
        return Visibility(values=True, groups=False, seed=False, events=False)
    z10 = game.variant == Variant.Z10
    practice = game.mode == Game.Mode.PRACTICE
    return Visibility(values=z10, groups=practice, seed=False, events=practice and z10)


def _shown_values(values: str, visibility: Visibility) -> str:
    if visibility.values:
        return values
    return "".join(MASKED_VALUES.get(char, "P") for char in values)


def _rows(text: str, size: int) -> list[str]:
    return [text[row * size : (row + 1) * size] for row in range(size)]


def _label_rows(labels: Sequence[int], size: int) -> list[list[int]]:
    return [list(labels[row * size : (row + 1) * size]) for row in range(size)]


def board_view(
    *,
    game: Game,
    step: int,
    t: int,
    values: str,
    labels: Sequence[int],
    visibility: Visibility,
    comment: str = "",
) -> dict[str, Any]:
    size = game.size
    return {
        "step": step,
        "t": t,
        "rows": _rows(_shown_values(values, visibility), size),
        "groups": _label_rows(labels, size) if visibility.groups else None,
        "comment": comment,
    }


def snapshot_view(
    *, game: Game, snapshot: BoardSnapshot, visibility: Visibility | None = None
) -> dict[str, Any]:
    return board_view(
        game=game,
        step=snapshot.step,
        t=snapshot.t,
        values=snapshot.values,
        labels=parse_labels(snapshot.labels),
        visibility=visibility or game_visibility(game=game),
        comment=snapshot.comment,
    )


def _current_board(*, game: Game, visibility: Visibility) -> dict[str, Any] | None:
    state = game.state
    if state:
        values = state["values"]
        return board_view(
            game=game,
            step=game.moves_count,
            t=game.score,
            values=values,
            # A planar game has no groups (its state keeps none): 0 everywhere.
            labels=state.get("labels") or [0] * len(values),
            visibility=visibility,
        )
    last = game_snapshots(game=game).last()
    return snapshot_view(game=game, snapshot=last, visibility=visibility) if last else None


def event_view(row: Event) -> dict[str, Any]:
    """A stored event as the engine writes it, with its seq and, for moves, timing and note."""
    data = {"seq": row.seq, **event_dict(row)}
    if row.kind == "move":
        for name in MOVE_ONLY_COLUMNS:
            value = getattr(row, name)
            data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return data


def _loss_view(game: Game, visibility: Visibility) -> dict[str, Any] | None:
    loss = (game.state or {}).get("loss")
    if not loss:
        return None
    view = {"t": loss["t"], "axis": loss["axis"]}
    if visibility.groups:
        view["group"] = loss["group"]
    return view


def rules_view(*, row: Game | DailyChallenge) -> dict[str, Any]:
    """The rule set stored in ``row``'s columns (a game or a daily challenge), as shown.

    ``family`` is null for the original game; a planar game has ``family``
    and ``variant`` ``planar``, its ``modulus`` and ``error_rate``, and no
    noise budget, moves per round or merge label (0, 0 and empty).
    """
    return {
        "size": row.size,
        "variant": row.variant,
        "noise_budget": row.noise_budget,
        "moves_per_round": row.moves_per_round,
        "merge_label": row.merge_label,
        "family": row.family or None,
        "modulus": row.modulus,
        "error_rate": row.error_rate,
        "key": row.rules_key,
    }


def outcome_view(*, game: Game) -> dict[str, Any] | None:
    """A planar game's logical outcome once its board is clean; else None (never before)."""
    if game.is_active or game.logical_failure is None:
        return None
    return {"charge": game.logical_charge, "failed": game.logical_failure}


def _moves_until_noise(game: Game) -> int | None:
    per_round = game.moves_per_round
    if not game.is_active or per_round <= 0:
        return None  # a planar game has no noise after its first board
    return per_round - game.score % per_round


def game_public_view(*, game: Game, detail: bool = True) -> dict[str, Any]:
    """What the owner of ``game`` may see of it now.

    ``detail`` adds, once the game has ended, every event and the board after
    every step (the replay).
    """
    visibility = game_visibility(game=game)
    view: dict[str, Any] = {
        "id": str(game.pk),
        "status": game.status,
        "mode": game.mode,
        "source": game.source,
        "rules": rules_view(row=game),
        "engine_version": game.engine_version,
        "step": game_last_step(game=game),
        "score": game.score,
        "round": game.rounds,
        "moves_until_noise": _moves_until_noise(game),
        "game_over": not game.is_active,
        "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "seed": str(game.seed) if visibility.seed and game.seed is not None else None,
        "daily_date": game.daily.date.isoformat() if game.daily is not None else None,
        "partially_observed": game.partially_observed,
        "share_token": game.share_token,
        "loss": _loss_view(game, visibility),
        "outcome": outcome_view(game=game),
        "board": _current_board(game=game, visibility=visibility),
        "events": None,
        "replay": None,
    }
    if detail and visibility.events and not game.is_active:
        view["events"] = [event_view(row) for row in game_events(game=game)]
        view["replay"] = [
            snapshot_view(game=game, snapshot=snapshot, visibility=visibility)
            for snapshot in game_snapshots(game=game)
        ]
    return view


def _noise_changes(events: Iterable[Event], visibility: Visibility) -> list[dict[str, Any]]:
    """The cells that the noise after a move changed, as value before and after."""
    # Noise rows always have both cells and their values (the columns are
    # nullable for the other kinds of event).
    first: dict[tuple[int | None, int | None], int | None] = {}
    last: dict[tuple[int | None, int | None], int | None] = {}
    for row in events:
        if row.kind != "noise":
            continue
        for cell, before, after in (
            ((row.row1, row.col1), row.value1_before, row.value1_after),
            ((row.row2, row.col2), row.value2_before, row.value2_after),
        ):
            first.setdefault(cell, before)
            last[cell] = after
    changes = []
    for cell in sorted(first):
        before, after = first[cell], last[cell]
        shown = _shown_values(f"{before}{after}", visibility)
        if shown[0] == shown[1]:
            # Unchanged as the player sees it (in an active Phi-Lambda game a P
            # that stays a P): listing it would reveal a hidden value changed.
            continue
        changes.append({"row": cell[0], "col": cell[1], "before": shown[0], "after": shown[1]})
    return changes


def move_public_view(
    *, game: Game, events: Sequence[Event], snapshot: BoardSnapshot, replayed: bool
) -> dict[str, Any]:
    """What the player may see of one move and of what followed it."""
    visibility = game_visibility(game=game)
    move = next(row for row in events if row.kind == "move")
    shown = _shown_values(f"{move.value}{move.to_value_before}{move.to_value_after}", visibility)
    jump = next((row for row in events if row.kind == "jump"), None)
    return {
        "step": snapshot.step,
        "replayed": replayed,
        "move": {
            "index": move.index,
            "t": move.t,
            "from": [move.from_row, move.from_col],
            "to": [move.to_row, move.to_col],
            "value": shown[0],
            "to_value_before": shown[1],
            "to_value_after": shown[2],
            "annihilated": move.annihilated,
            "note": move.note,
        },
        "noise_rounds": sum(1 for row in events if row.kind == "round_start"),
        "noise": _noise_changes(events, visibility),
        "jumped_from": jump.from_t if jump is not None else None,
        "game_over": not game.is_active,
        "score": snapshot.t,
        "board": snapshot_view(game=game, snapshot=snapshot, visibility=visibility),
        "events": [event_view(row) for row in events] if visibility.events else None,
        "game": game_public_view(game=game, detail=False),
    }


# -- shared games ------------------------------------------------------------

SHARE_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,32}")
# The multiplication sign written between the sides of a board ("7 by 7").
TIMES = "\u00d7"
VARIANT_LABELS = {"z10": "Z10", "phi_lambda": "Phi-Lambda", "colors": "Colors",
                  "planar": "Planar"}


def shared_game_by_token(*, token: str) -> Game:
    """The finished game shared under ``token``.

    A malformed or unknown token, a game no longer shared and (should one
    ever hold a token) an active game or a daily game whose day is open are
    all simply not found: the answer
    says nothing about which.
    """
    if not SHARE_TOKEN_PATTERN.fullmatch(token):
        raise NotFound("No shared game has this link.")
    game = (
        Game.objects.filter(share_token=token)
        .exclude(status=Game.Status.ACTIVE)
        .select_related("daily")
        .first()
    )
    # A daily game's replay shows the day's noise: never public while the day is open.
    if game is None or seed_withheld(game=game):
        raise NotFound("No shared game has this link.")
    return game


def share_text(*, game: Game, url: str) -> str:
    """The text a player shares, as the original apps' share button wrote it: score and rules.

    A planar game's text names its code and its outcome instead of a score.
    """
    if game.family != NO_FAMILY:
        outcome = outcome_view(game=game)
        board = f"{game.size}{TIMES}{game.size}"
        code = f"a planar Z{game.modulus} code ({board}, p = {game.error_rate:g})"
        if outcome is None:
            return f"I played {code} in Decodoku and gave up. Watch the replay: {url}"
        ending = "a logical error" if outcome["failed"] else "no logical error"
        return (
            f"I cleaned {code} in Decodoku in {game.moves_count} moves: {ending}. "
            f"Watch the replay: {url}"
        )
    variant = VARIANT_LABELS.get(game.variant, game.variant)
    practice = ", practice" if game.mode == Game.Mode.PRACTICE else ""
    rounds = f"{game.rounds} {'round' if game.rounds == 1 else 'rounds'}"
    return (
        f"I scored {game.score} in Decodoku ({variant}, {game.size}{TIMES}{game.size}{practice}, "
        f"{rounds}). Watch the replay: {url}"
    )


def shared_game_view(*, game: Game) -> dict[str, Any]:
    """What anybody with the link may see of a shared finished game.

    The rules, the score, how it ended and the board after every step: no
    player, no game id, no seed, no notes, no timings and no client details.
    """
    visibility = game_visibility(game=game)
    return {
        "status": game.status,
        "mode": game.mode,
        "rules": rules_view(row=game),
        "variant_label": VARIANT_LABELS.get(game.variant, game.variant),
        "score": game.score,
        "round": game.rounds,
        "step": game_last_step(game=game),
        "ended_on": game.ended_at.date().isoformat() if game.ended_at else None,
        "partially_observed": game.partially_observed,
        "loss": _loss_view(game, visibility),
        "outcome": outcome_view(game=game),
        "board": _current_board(game=game, visibility=visibility),
        "replay": [
            snapshot_view(game=game, snapshot=snapshot, visibility=visibility) | {"comment": ""}
            for snapshot in game_snapshots(game=game)
        ],
    }


# -- the daily challenge -----------------------------------------------------


def daily_challenge_by_date(*, day: date) -> DailyChallenge | None:
    return DailyChallenge.objects.filter(date=day).first()


def daily_player_game(*, challenge: DailyChallenge, player: Player | None) -> Game | None:
    if player is None or challenge.pk is None:
        return None
    return Game.objects.filter(daily=challenge, player=player).first()


def daily_leaderboard(
    *, challenge: DailyChallenge, player: Player | None = None
) -> dict[str, Any]:
    """The players' finished games of a day's challenge, best first, and the bots' games.

    People appear by display name, else by pseudonym; a game still being
    played is only counted (``playing``). Ties in score are ranked by
    rounds, then by who finished first. Bots (``bots``) are not ranked with
    people: each shows its score and how many players scored more.
    """
    if challenge.pk is None:  # today's, before anyone played it
        return {"entries": [], "playing": 0, "bots": []}
    games = (
        Game.objects.filter(daily=challenge)
        .select_related("player")
        .order_by("-score", "-rounds", "ended_at", "id")
    )
    entries: list[dict[str, Any]] = []
    bots: list[dict[str, Any]] = []
    playing = 0
    for game in games:
        if game.source == Game.Source.BOT:
            bots.append(
                {
                    "bot_name": game.bot_name,
                    "bot_version": game.bot_version,
                    "score": game.score,
                    "rounds": game.rounds,
                    "status": game.status,
                }
            )
            continue
        if game.is_active:
            playing += 1
            continue
        entries.append(
            {
                "rank": len(entries) + 1,
                "player": player_label(
                    player_id=game.player_id, display_name=game.player.display_name
                ),
                "named": bool(game.player.display_name),
                "you": player is not None and game.player_id == player.pk,
                "score": game.score,
                "rounds": game.rounds,
                "status": game.status,
                "ended_at": game.ended_at.isoformat() if game.ended_at else None,
            }
        )
    for bot in bots:
        bot["players_above"] = sum(1 for entry in entries if entry["score"] > bot["score"])
    bots.sort(key=lambda bot: (-bot["score"], bot["bot_name"]))
    return {"entries": entries, "playing": playing, "bots": bots}


def daily_view(*, challenge: DailyChallenge, player: Player | None = None) -> dict[str, Any]:
    """A day's challenge as a page and the API show it: rules, leaderboard, the caller's game.

    The seed is given only once the day is over.
    """
    is_open = day_is_open(day=challenge.date)
    mine = daily_player_game(challenge=challenge, player=player)
    return {
        "date": challenge.date.isoformat(),
        "open": is_open,
        "rules": rules_view(row=challenge),
        "seed": None if is_open else str(challenge.seed),
        "my_game": (
            {"id": str(mine.pk), "status": mine.status, "score": mine.score}
            if mine is not None
            else None
        ),
        **daily_leaderboard(challenge=challenge, player=player),
    }


def daily_today_view(*, player: Player | None = None) -> dict[str, Any]:
    """Today's challenge, which needs no row until someone plays it."""
    day = daily_today()
    challenge = daily_challenge_by_date(day=day)
    if challenge is None:
        # Nothing played yet today: the same view with an empty leaderboard,
        # without making the row (a read makes no writes).
        challenge = DailyChallenge(date=day, seed=0, **_original_columns())
    return daily_view(challenge=challenge, player=player)


def _original_columns() -> dict[str, Any]:
    return rules_columns(ORIGINAL)


def daily_days(*, limit: int = 60) -> list[dict[str, Any]]:
    """The past days' challenges, newest first: players, the best score and the bots' best."""
    days = list(
        DailyChallenge.objects.filter(date__lt=daily_today()).order_by("-date")[:limit]
    )
    if not days:
        return []
    stats: dict[int, dict[str, Any]] = {
        row["daily_id"]: row
        for row in Game.objects.human()
        .finished()
        .filter(daily__in=days)
        .values("daily_id")
        .annotate(players=Count("id"), best_score=Max("score"))
    }
    bots = {
        row["daily_id"]: row["best"]
        for row in Game.objects.bots()
        .filter(daily__in=days)
        .values("daily_id")
        .annotate(best=Max("score"))
    }
    return [
        {
            "date": day.date.isoformat(),
            "players": stats.get(day.pk, {}).get("players", 0),
            "best_score": stats.get(day.pk, {}).get("best_score"),
            "best_bot_score": bots.get(day.pk),
        }
        for day in days
    ]
