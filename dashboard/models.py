"""Aggregate tables of the threshold dashboard.

The dashboard never reads games one by one: periodic tasks fold finished
games (and their analyses) into these counts, and every plot is computed from
them. Counts are kept per (day, cohort) so that a date range can be chosen,
and once more under the day :data:`ALL_TIME`, so that the unfiltered page
reads a number of rows that does not grow with the history.

A cohort is one rule set and one kind of player: the fields that make games
one rule set (``games.rulesets.RULE_GROUP_FIELDS``: variant, L, noise budget,
moves per round) and the source, ``human`` or the name of a bot.

Lifetimes are histograms, games lost or censored (abandoned) at each round,
from which Kaplan-Meier curves, the hazard per round and lifetime statistics
follow exactly. Adding games only adds to counts, so absorbing a day of games
costs time in proportion to that day. What has been absorbed is remembered by
a :class:`Watermark` per input: the last (time, game id) read, in that order.
"""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q

from games.rulesets import RULE_GROUP_FIELDS

# The ``day`` of the rows that count every day at once.
ALL_TIME = datetime.date(1, 1, 1)

HUMAN = "human"

# What tells cohorts apart: the rule group of their games, then who played them.
COHORT_FIELDS = (*RULE_GROUP_FIELDS, "source")


class Watermark(models.Model):
    """How far one input has been absorbed: every row up to (last_at, last_id) is in."""

    name = models.CharField(max_length=32, primary_key=True)
    last_at = models.DateTimeField(null=True, blank=True)
    last_id = models.CharField(max_length=36, blank=True)
    absorbed = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} up to {self.last_at} / {self.last_id}"


class Cohort(models.Model):
    """The games of one rule group (``RULE_GROUP_FIELDS``) played by one source."""

    variant = models.CharField(max_length=16)
    size = models.PositiveSmallIntegerField()
    noise_budget = models.FloatField()
    moves_per_round = models.PositiveSmallIntegerField()
    # "human", or the bot's name.
    source = models.CharField(max_length=64)

    class Meta:
        ordering = list(COHORT_FIELDS)
        constraints = [
            models.UniqueConstraint(fields=list(COHORT_FIELDS), name="cohort_unique"),
        ]

    def __str__(self) -> str:
        return (
            f"{self.variant} L={self.size} budget={self.noise_budget:g} "
            f"moves={self.moves_per_round} {self.source}"
        )


class LifetimeCount(models.Model):
    """Games of a cohort that ended on ``day`` after ``rounds`` noise rounds."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    rounds = models.PositiveIntegerField()
    lost = models.PositiveIntegerField(default=0)
    censored = models.PositiveIntegerField(default=0)  # abandoned

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "cohort", "rounds"], name="lifetime_count_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day} round {self.rounds}: {self.lost}+{self.censored}"


class DailyCount(models.Model):
    """Games and moves of a cohort on one day (or under ALL_TIME, in total)."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    games = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    moves = models.PositiveBigIntegerField(default=0)
    score_sum = models.PositiveBigIntegerField(default=0)
    rounds_sum = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "cohort"], name="daily_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day}: {self.games} games"


class PlayerDay(models.Model):
    """A player's games in a cohort on one day and the best of them.

    Players are counted from these rows rather than summed from per-cohort
    counts, so that someone who played two rule sets on a day counts once; a
    leaderboard over a date range reads them too.
    """

    player_id = models.UUIDField()
    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    games = models.PositiveIntegerField(default=0)
    best_score = models.PositiveIntegerField(default=0)
    best_rounds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player_id", "cohort", "day"], name="player_day_unique"
            ),
        ]
        indexes = [models.Index(fields=["cohort", "day"], name="player_day_cohort_day")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.cohort_id} on {self.day}"


class PlayerBest(models.Model):
    """A player's record in one cohort: the leaderboard reads the best of these."""

    player_id = models.UUIDField()
    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    best_score = models.PositiveIntegerField(default=0)
    best_rounds = models.PositiveIntegerField(default=0)
    first_day = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_id", "cohort"], name="player_best_unique"),
        ]
        indexes = [
            models.Index(fields=["-best_score", "cohort"], name="player_best_score"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.cohort_id}: best {self.best_score}"


class AnalysisCount(models.Model):
    """Analysed games of a cohort on a day, and how many of their moves were compared."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    games = models.PositiveIntegerField(default=0)
    moves = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "cohort"], name="analysis_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day}: {self.games} analysed games"


class StrategyCount(models.Model):
    """Moves of each class (annihilation, merge_groups, ...) in a cohort on a day."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    move_class = models.CharField(max_length=32)
    moves = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "cohort", "move_class"], name="strategy_count_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day} {self.move_class}: {self.moves}"


class AgreementCount(models.Model):
    """Moves compared with one bot's choice, and how often they were its first / top-3."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    bot_name = models.CharField(max_length=64)
    compared = models.PositiveBigIntegerField(default=0)
    top1 = models.PositiveBigIntegerField(default=0)
    top3 = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "cohort", "bot_name"], name="agreement_count_unique"
            ),
            models.CheckConstraint(
                condition=Q(top1__lte=models.F("top3")) & Q(top3__lte=models.F("compared")),
                name="agreement_count_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day} {self.bot_name}: {self.top1}/{self.compared}"


class NoiseCount(models.Model):
    """Realized noise summed over the games of a cohort that reached round ``round``."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    round = models.PositiveIntegerField()
    games = models.PositiveIntegerField(default=0)
    errors = models.PositiveBigIntegerField(default=0)
    new_numbers = models.PositiveBigIntegerField(default=0)
    light_errors = models.PositiveBigIntegerField(default=0)  # the 0.1-weight errors

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "cohort", "round"], name="noise_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.cohort_id} {self.day} round {self.round}: {self.errors} errors"


class AbsorbedAnalysis(models.Model):
    """A game whose analysis is in the counts: a recomputed analysis is not counted twice."""

    game_id = models.UUIDField(primary_key=True)
    analysis_version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"analysis of {self.game_id} counted"


class DemoData(models.Model):
    """Present when ``manage.py seed_demo`` filled the database: the page says so."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    created_at = models.DateTimeField()
    games = models.PositiveIntegerField()
    sweep_id = models.UUIDField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(id=1), name="demo_data_single_row"),
        ]

    def __str__(self) -> str:
        return f"demo data of {self.created_at}"
