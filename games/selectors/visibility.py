"""What a player may see of a game: boards, events, rules and outcomes as shown.

The rules of what is shown are in the package's docstring (``games.selectors``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.daily import day_is_open
from games.daily import today as daily_today
from games.engine.variants import variant_kind
from games.models import BoardSnapshot, DailyChallenge, Event, Game
from games.recording import MOVE_ONLY_COLUMNS, event_dict, parse_labels
from games.selectors.games import game_events, game_last_step, game_snapshots

MASKED_VALUES = {"0": "0", "5": "L"}


@dataclass(frozen=True, slots=True)
class Visibility:
    values: bool  # the numbers themselves (not only Phi / Lambda)
    groups: bool
    seed: bool
    events: bool  # the full engine events, which carry values and groups


def seed_withheld(*, game: Game) -> bool:
    """Whether the seed of ``game`` must not be shown (``games.models.seed_withheld_condition``).

    While the game is active, for a daily-challenge game while its day is open,
    and for any game played on the board (seed and rule set) of a day still open.
    """
    if game.is_active:
        return True
    if game.daily_id is not None and game.daily is not None and day_is_open(day=game.daily.date):
        return True
    return game.seed is not None and open_day_board(seed=game.seed, rules_key=game.rules_key)


def open_day_board(*, seed: int, rules_key: str) -> bool:
    """Whether (``seed``, ``rules_key``) is the board of a daily challenge or daily planar
    board whose day is still open: every game on it would tell that day's noise."""
    return DailyChallenge.every_day.filter(
        date__gte=daily_today(), seed=seed, rules_key=rules_key
    ).exists()


def game_visibility(*, game: Game) -> Visibility:
    if not game.is_active:
        return Visibility(values=True, groups=True, seed=not seed_withheld(game=game), events=True)
    if not game.kind.grouped:
        # A planar game's events (its noise) would tell the charge across the sides.
        return Visibility(values=True, groups=False, seed=False, events=False)
    # The events carry the values: shown only where the values are (Z10).
    values = variant_kind(game.variant).shows_values
    practice = game.mode == Game.Mode.PRACTICE
    return Visibility(values=values, groups=practice, seed=False, events=practice and values)


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


def class_odds_text(*, odds: float | None, best_odds: float | None,
                    second_person: bool = True) -> str:
    """A finished planar game's class odds in words; empty when it has none.

    ``odds`` is the probability of the class the game ended in, ``best_odds``
    that of the most likely class (``Game.class_odds``, ``best_class_odds``).
    """
    if odds is None or best_odds is None:
        return ""
    subject, whose = ("You", "yours") if second_person else ("The person", "the person's")
    # The two are entries of one posterior: the same class (or a tie) gives the same float.
    if odds >= best_odds:
        return (f"{subject} chose the class the best decoder would have chosen; it was right "
                f"with probability {odds:.2f}.")
    return f"The most likely class had probability {best_odds:.2f}; {whose} {odds:.2f}."


def outcome_view(*, game: Game) -> dict[str, Any] | None:
    """A planar game's logical outcome once its board is clean; else None (never before).

    With it the class odds (null beyond the exact computation's reach) and their words.
    """
    if game.is_active or game.logical_failure is None:
        return None
    return {
        "charge": game.logical_charge,
        "failed": game.logical_failure,
        "class_odds": game.class_odds,
        "best_class_odds": game.best_class_odds,
        "odds_text": class_odds_text(odds=game.class_odds, best_odds=game.best_class_odds),
    }


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
