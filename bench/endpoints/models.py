"""The baseline endpoint's own rows: never in the games' tables."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

# The app is installed only for benchmarks, so the type checker's Django
# plugin (which reads the default settings) does not see it: the managers
# are declared explicitly.


class BaselineGame(models.Model):
    """A benchmark game's counter: the baseline updates it as a move updates its game."""

    game_id = models.UUIDField(primary_key=True)
    next_seq = models.PositiveIntegerField(default=0)

    objects: ClassVar[models.Manager[BaselineGame]] = models.Manager()

    def __str__(self) -> str:
        return f"baseline counter of game {self.game_id}"


class BaselineEvent(models.Model):
    """One baseline "move": the row a real move would add to the event table."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(BaselineGame, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    server_time = models.DateTimeField()

    objects: ClassVar[models.Manager[BaselineEvent]] = models.Manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="bench_event_game_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"baseline event {self.seq}"
