"""Finding a player's games, their events and their boards."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from games.errors import InvalidStep, NotFound
from games.models import BoardSnapshot, Event, Game, Player


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
